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
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.framework.BundleException;

/**
 * A bundle jar read once from its location into a temporary file (deleted on close), so that what is
 * checked (its manifest, its symbolic name) is what the framework installs: {@code quiver:install},
 * {@code quiver:update} and {@code bundle_install} look at it, then {@link #install} or {@link #update}
 * hand the framework that copy instead of the location, which could change in between or be fetched twice.
 *
 * <p>A {@code reference:} location (Felix's own: the bundle is used where it lies, a jar or a folder,
 * never copied) is read in place: its manifest is looked at, and the framework reads it again itself.
 */
public final class BundleJar implements AutoCloseable {

    private static final String REFERENCE = "reference:";

    /** The copy, or {@code null} for a {@code reference:} location. */
    private final Path file;
    private final Manifest manifest;

    private BundleJar(Path file, Manifest manifest) {
        this.file = file;
        this.manifest = manifest;
    }

    /** Reads the bundle at {@code location}, a URL ({@code file:}, {@code http:}, ..., {@code reference:file:}). */
    public static BundleJar read(String location) throws IOException {
        if (location.startsWith(REFERENCE)) {
            return new BundleJar(null, manifestInPlace(location.substring(REFERENCE.length())));
        }
        URL url = url(location);
        Path file = Files.createTempFile("quiver-bundle-", ".jar");
        try {
            try (InputStream in = url.openStream()) {
                Files.copy(in, file, StandardCopyOption.REPLACE_EXISTING);
            }
            return new BundleJar(file, manifestOf(file));
        } catch (IOException | RuntimeException e) {
            Files.deleteIfExists(file);
            throw e;
        }
    }

    /** A URL as the framework would take it: a URI when it is one, else what {@code java.net.URL} accepts. */
    private static URL url(String location) throws IOException {
        try {
            return new URI(location).toURL();
        } catch (URISyntaxException | IllegalArgumentException | MalformedURLException e) {
            try {
                return new URL(location);
            } catch (MalformedURLException again) {
                throw new IOException("cannot read " + location + ": " + again.getMessage(), again);
            }
        }
    }

    private static Manifest manifestInPlace(String fileUrl) throws IOException {
        Path path;
        try {
            path = Path.of(url(fileUrl).toURI());
        } catch (URISyntaxException | IllegalArgumentException e) {
            throw new IOException("a reference: location names a file: URL, not " + fileUrl, e);
        }
        if (Files.isDirectory(path)) {
            Path mf = path.resolve("META-INF/MANIFEST.MF");
            if (!Files.isRegularFile(mf)) {
                return null;
            }
            try (InputStream in = Files.newInputStream(mf)) {
                return new Manifest(in);
            }
        }
        return manifestOf(path);
    }

    private static Manifest manifestOf(Path jarFile) throws IOException {
        try (JarFile jar = new JarFile(jarFile.toFile())) {
            return jar.getManifest();
        } catch (ZipException e) {
            throw new IOException("not a jar (zip) file: " + e.getMessage(), e);
        }
    }

    /** The jar's manifest, or {@code null} when it has none. */
    public Manifest manifest() {
        return manifest;
    }

    /** The symbolic name its manifest declares, or {@code null}. */
    public String symbolicName() {
        return manifest == null ? null : NameHolder.symbolicName(manifest.getMainAttributes().getValue("Bundle-SymbolicName"));
    }

    /** Installs this content at {@code location} (the location it was read from). */
    public Bundle install(BundleContext context, String location) throws BundleException, IOException {
        if (file == null) {
            return context.installBundle(location); // reference: the framework reads it where it lies
        }
        try (InputStream in = Files.newInputStream(file)) {
            return context.installBundle(location, in);
        }
    }

    /** Makes this content the new content of {@code bundle} (read from its update location). */
    public void update(Bundle bundle) throws BundleException, IOException {
        if (file == null) {
            bundle.update(); // reference: the framework reads it where it lies
            return;
        }
        try (InputStream in = Files.newInputStream(file)) {
            bundle.update(in);
        }
    }

    /** Deletes the copy; a copy that cannot be deleted is left to the temporary folder's cleaning. */
    @Override
    public void close() {
        if (file != null) {
            try {
                Files.deleteIfExists(file);
            } catch (IOException e) {
                file.toFile().deleteOnExit();
            }
        }
    }
}
