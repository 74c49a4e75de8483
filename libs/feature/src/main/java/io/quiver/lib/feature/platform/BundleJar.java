package io.quiver.lib.feature.platform;

import java.io.IOException;
import java.io.InputStream;
import java.net.MalformedURLException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.jar.JarFile;
import java.util.jar.Manifest;
import java.util.zip.ZipException;

/**
 * A bundle jar read once from its location into a temporary file (deleted on close), so that what is
 * checked (its manifest, its symbolic name) is what the framework installs: {@code quiver:install},
 * {@code quiver:update} and {@code bundle_install} look at it, then hand the framework {@link #open()}
 * instead of the location, which could change in between or be fetched twice.
 *
 * @param manifest the jar's manifest, or {@code null} when it has none
 */
public record BundleJar(Path file, Manifest manifest) implements AutoCloseable {

    /** Reads the jar at {@code location}, a URL ({@code file:}, {@code http:}, ...). */
    public static BundleJar read(String location) throws IOException {
        URL url;
        try {
            url = new URI(location).toURL();
        } catch (URISyntaxException | IllegalArgumentException | MalformedURLException e) {
            throw new IOException("cannot read " + location + ": " + e.getMessage(), e);
        }
        Path file = Files.createTempFile("quiver-bundle-", ".jar");
        try {
            try (InputStream in = url.openStream()) {
                Files.copy(in, file, StandardCopyOption.REPLACE_EXISTING);
            }
            try (JarFile jar = new JarFile(file.toFile())) {
                return new BundleJar(file, jar.getManifest());
            } catch (ZipException e) {
                throw new IOException("not a jar (zip) file: " + e.getMessage(), e);
            }
        } catch (IOException | RuntimeException e) {
            Files.deleteIfExists(file);
            throw e;
        }
    }

    /** The symbolic name its manifest declares, or {@code null}. */
    public String symbolicName() {
        return manifest == null ? null : NameHolder.symbolicName(manifest.getMainAttributes().getValue("Bundle-SymbolicName"));
    }

    /** The content, for {@code BundleContext.installBundle(location, in)} or {@code Bundle.update(in)}. */
    public InputStream open() throws IOException {
        return Files.newInputStream(file);
    }

    @Override
    public void close() throws IOException {
        Files.deleteIfExists(file);
    }
}
