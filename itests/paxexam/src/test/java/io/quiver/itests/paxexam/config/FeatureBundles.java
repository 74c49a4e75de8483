package io.quiver.itests.paxexam.config;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The bundles an OSGi Feature file lists, mapped to the jars the build copied: a bundle id
 * {@code group:artifact:version} is the file {@code <group>.<artifact>-<version>.jar} in the bundles
 * folder (maven-dependency-plugin's copy-dependencies with {@code prependGroupId}).
 */
public final class FeatureBundles {

    /** One bundle of a feature. */
    public record Entry(String id, Path jar, int startOrder) {
    }

    private FeatureBundles() {
    }

    /** The bundles of {@code <featuresDir>/<name>.json}, in the order the feature lists them. */
    public static List<Entry> read(Path featuresDir, String name, Path bundlesDir) {
        Path file = featuresDir.resolve(name + ".json");
        if (!Files.isRegularFile(file)) {
            throw new IllegalStateException("Feature file " + file + " is missing: run the build through "
                    + "maven (`mvn -pl itests/paxexam -am verify`), which unpacks io.quiver:features there");
        }
        Object parsed;
        try {
            parsed = JsonText.parse(Files.readString(file, StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        if (!(parsed instanceof Map<?, ?> feature) || !(feature.get("bundles") instanceof List<?> bundles)) {
            throw new IllegalStateException(file + " has no \"bundles\" array");
        }
        List<Entry> entries = new ArrayList<>();
        for (Object item : bundles) {
            String id;
            int startOrder = 1;
            if (item instanceof String s) {
                id = s;
            } else if (item instanceof Map<?, ?> bundle && bundle.get("id") instanceof String s) {
                id = s;
                if (bundle.get("start-order") instanceof Number n) {
                    startOrder = n.intValue();
                } else if (bundle.get("start-order") instanceof String n) {
                    startOrder = Integer.parseInt(n.trim());
                }
            } else {
                throw new IllegalStateException(file + ": a bundle entry without an id: " + item);
            }
            entries.add(new Entry(id, jarOf(id, bundlesDir, file), startOrder));
        }
        return entries;
    }

    private static Path jarOf(String id, Path bundlesDir, Path feature) {
        String[] gav = id.split(":");
        if (gav.length != 3) {
            throw new IllegalStateException(feature + ": bundle id " + id + " is not group:artifact:version");
        }
        Path jar = bundlesDir.resolve(gav[0] + "." + gav[1] + "-" + gav[2] + ".jar");
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException(feature + " lists " + id + " but " + jar + " does not exist: add "
                    + gav[0] + ":" + gav[1] + " as a provided dependency of itests/paxexam/pom.xml");
        }
        return jar;
    }
}
