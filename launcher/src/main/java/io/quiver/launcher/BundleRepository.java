package io.quiver.launcher;

import io.quiver.lib.feature.ArtifactId;
import java.io.IOException;
import java.io.InputStream;
import java.net.JarURLConnection;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.jar.JarEntry;

/**
 * Where the bundle jars of a feature come from: {@code bundles/<groupId>.<artifactId>-<version>.jar}
 * inside the launcher first, then the local Maven repository (so a feature file outside the launcher
 * may name bundles that are only installed there).
 */
public final class BundleRepository {

    static final String FOLDER = "bundles/";

    /** A bundle jar: a stable location, its content, and a cheap fingerprint of that content. */
    public interface Source {
        String location();

        InputStream open() throws IOException;

        /** Changes when the content changes (size and CRC, or size and modification time). */
        String fingerprint() throws IOException;
    }

    private final ClassLoader loader;
    private final Path localRepository;

    public BundleRepository(ClassLoader loader, Path localRepository) {
        this.loader = loader;
        this.localRepository = localRepository;
    }

    /** The launcher's embedded bundles, then {@code maven.repo.local} or {@code ~/.m2/repository}. */
    public static BundleRepository standard() {
        String local = System.getProperty("maven.repo.local");
        Path repo = local != null && !local.isBlank() ? Path.of(local)
                : Path.of(System.getProperty("user.home"), ".m2", "repository");
        return new BundleRepository(BundleRepository.class.getClassLoader(), repo);
    }

    /** The same without the local Maven repository: the bundles the launcher embeds, the features' own. */
    BundleRepository embeddedOnly() {
        return new BundleRepository(loader, null);
    }

    public Optional<Source> find(ArtifactId id) {
        String location = "quiver:" + id;
        URL embedded = loader.getResource(FOLDER + id.fileName());
        if (embedded != null) {
            return Optional.of(new Embedded(location, embedded));
        }
        if (localRepository != null) {
            Path file = localRepository.resolve(id.repositoryPath());
            if (Files.isRegularFile(file)) {
                return Optional.of(new LocalFile(location, file));
            }
        }
        return Optional.empty();
    }

    /** Where {@link #find} looked, for error messages. */
    public String describe(ArtifactId id) {
        return FOLDER + id.fileName() + " in the launcher"
                + (localRepository == null ? "" : " or " + localRepository.resolve(id.repositoryPath()));
    }

    private record Embedded(String location, URL url) implements Source {
        @Override
        public InputStream open() throws IOException {
            return url.openStream();
        }

        @Override
        public String fingerprint() throws IOException {
            if ("jar".equals(url.getProtocol())) {
                JarEntry entry = ((JarURLConnection) url.openConnection()).getJarEntry();
                return entry.getSize() + "/" + Long.toHexString(entry.getCrc());
            }
            if ("file".equals(url.getProtocol())) {
                try {
                    return LocalFile.fingerprint(Path.of(url.toURI()));
                } catch (URISyntaxException e) {
                    throw new IOException(e);
                }
            }
            return "unknown:" + System.nanoTime();
        }
    }

    record LocalFile(String location, Path file) implements Source {
        @Override
        public InputStream open() throws IOException {
            return Files.newInputStream(file);
        }

        @Override
        public String fingerprint() throws IOException {
            return fingerprint(file);
        }

        static String fingerprint(Path file) throws IOException {
            return Files.size(file) + "@" + Files.getLastModifiedTime(file).toMillis();
        }
    }
}
