package io.quiver.deployer.internal;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Finds the jar of a feature's bundle: beside the feature in {@code bundles/}, by artifact file
 * name ({@code artifactId-version.jar} or {@code groupId.artifactId-version.jar}), else in a local
 * Maven repository.
 */
final class BundleLocator {

    private final List<Path> mavenRepositories;

    BundleLocator(List<Path> mavenRepositories) {
        this.mavenRepositories = List.copyOf(mavenRepositories);
    }

    /** The jar, or null when none is found. */
    Path find(Path featureFile, FeatureFile.BundleRef ref) {
        Path dir = featureFile.toAbsolutePath().getParent().resolve("bundles");
        for (String name : List.of(ref.artifactId() + "-" + ref.version() + ".jar",
                ref.groupId() + "." + ref.artifactId() + "-" + ref.version() + ".jar")) {
            Path candidate = dir.resolve(name);
            if (Files.isRegularFile(candidate)) {
                return candidate;
            }
        }
        for (Path repository : mavenRepositories) {
            Path candidate = repository.resolve(ref.groupId().replace('.', '/')).resolve(ref.artifactId())
                    .resolve(ref.version()).resolve(ref.artifactId() + "-" + ref.version() + ".jar");
            if (Files.isRegularFile(candidate)) {
                return candidate;
            }
        }
        return null;
    }
}
