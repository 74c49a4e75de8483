package io.quiver.deployer.internal;

import io.quiver.lib.feature.Feature;
import io.quiver.lib.feature.FeatureBundle;
import io.quiver.lib.feature.FeatureReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * An OSGi Feature file dropped into {@code deploy/}, read by the same reader as the launcher's
 * features: its id, bundles by Maven coordinates in start order, and configurations by PID
 * ({@code factoryPid~name} for factory configurations).
 */
record FeatureFile(String id, List<BundleRef> bundles, Map<String, Map<String, Object>> configurations) {

    /** One bundle: {@code groupId:artifactId:version}. */
    record BundleRef(String groupId, String artifactId, String version, int startOrder) {
        String coordinates() {
            return groupId + ":" + artifactId + ":" + version;
        }

        static BundleRef of(FeatureBundle bundle) {
            return new BundleRef(bundle.id().groupId(), bundle.id().artifactId(), bundle.id().version(),
                    bundle.startOrder());
        }
    }

    /**
     * Reads a feature file.
     *
     * @throws IllegalArgumentException when the file is not JSON or the JSON is not a feature, saying why
     */
    static FeatureFile read(File file) throws IOException {
        Feature feature;
        try (InputStream in = Files.newInputStream(file.toPath())) {
            feature = FeatureReader.read(file.getName(), in);
        }
        List<BundleRef> bundles = feature.bundles().stream().map(BundleRef::of)
                .sorted(Comparator.comparingInt(BundleRef::startOrder)).toList();
        return new FeatureFile(feature.id(), bundles, feature.configurations());
    }
}
