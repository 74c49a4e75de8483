package io.quiver.launcher;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;

/** Bundle jars the launcher's tests make: a manifest with the given headers and classes of the test class path. */
final class TestBundles {

    private TestBundles() {
    }

    /** Writes {@code jar}: bundle {@code symbolicName} 1.0.0 with {@code headers}, holding {@code classes}. */
    static Path write(Path jar, String symbolicName, Map<String, String> headers, Class<?>... classes) throws IOException {
        Manifest manifest = new Manifest();
        Attributes a = manifest.getMainAttributes();
        a.put(Attributes.Name.MANIFEST_VERSION, "1.0");
        a.putValue("Bundle-ManifestVersion", "2");
        a.putValue("Bundle-SymbolicName", symbolicName);
        a.putValue("Bundle-Version", "1.0.0");
        headers.forEach(a::putValue);
        Files.createDirectories(jar.getParent());
        try (OutputStream file = Files.newOutputStream(jar); JarOutputStream out = new JarOutputStream(file, manifest)) {
            for (Class<?> c : classes) {
                String resource = c.getName().replace('.', '/') + ".class";
                out.putNextEntry(new JarEntry(resource));
                try (InputStream in = c.getClassLoader().getResourceAsStream(resource)) {
                    in.transferTo(out);
                }
                out.closeEntry();
            }
        }
        return jar;
    }
}
