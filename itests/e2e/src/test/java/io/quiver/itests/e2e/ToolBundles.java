package io.quiver.itests.e2e;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Enumeration;
import java.util.Map;
import java.util.function.UnaryOperator;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;

/**
 * The example tool bundle ({@code examples/greeting-tool}) in its two versions, and the ways the
 * tests put a bundle into a watched folder.
 *
 * <p>Version 2 is made from the built jar at test time: the same classes, a different greeting in
 * its phrasebook resource, a different tool description (so the tool list visibly changes) and a
 * higher {@code Bundle-Version}. One build, no second project to keep in step.
 */
final class ToolBundles {

    static final String TOOL = "greet";
    /** The example bundle's tool class: every revision of the bundle defines it in a loader of its own. */
    static final String TOOL_CLASS = "io.quiver.examples.greeting.GreetTool";
    static final String GREETING_V1 = "Hello, Ada!";
    static final String GREETING_V2 = "Howdy, Ada!";
    static final String DESCRIPTION_V2_PREFIX = "(version 2) ";

    private static final String PHRASEBOOK = "io/quiver/examples/greeting/greetings.properties";
    private static final String COMPONENT = "OSGI-INF/io.quiver.examples.greeting.GreetTool.xml";

    private ToolBundles() {
    }

    /** The example jar the build made (copied to {@code target/examples/} by the e2e pom). */
    static Path exampleJar() {
        String path = System.getProperty("example.jar");
        if (path == null || !Files.isRegularFile(Path.of(path))) {
            throw new IllegalStateException("the example tool bundle is missing (" + path
                    + "): build examples/greeting-tool first (mvn install)");
        }
        return Path.of(path);
    }

    /** Writes version 2 of the example bundle to {@code target}; returns it. */
    static Path version2(Path v1, Path target) throws IOException {
        Files.createDirectories(target.toAbsolutePath().getParent());
        try (JarFile in = new JarFile(v1.toFile());
             OutputStream file = Files.newOutputStream(target)) {
            Manifest manifest = new Manifest(in.getManifest());
            manifest.getMainAttributes().put(new Attributes.Name("Bundle-Version"), "1.0.1");
            boolean phrasebook = false;
            boolean component = false;
            try (JarOutputStream out = new JarOutputStream(file, manifest)) {
                for (Enumeration<JarEntry> entries = in.entries(); entries.hasMoreElements();) {
                    JarEntry entry = entries.nextElement();
                    if (entry.getName().equals(JarFile.MANIFEST_NAME)) {
                        continue;
                    }
                    byte[] bytes;
                    try (InputStream data = in.getInputStream(entry)) {
                        bytes = data.readAllBytes();
                    }
                    if (entry.getName().equals(PHRASEBOOK)) {
                        bytes = replace(bytes, "ENGLISH=Hello, {name}!", "ENGLISH=Howdy, {name}!");
                        phrasebook = true;
                    } else if (entry.getName().equals(COMPONENT)) {
                        bytes = replace(bytes, "name=\"mcp.tool.description\" type=\"String\" value=\"",
                                "name=\"mcp.tool.description\" type=\"String\" value=\"" + DESCRIPTION_V2_PREFIX);
                        component = true;
                    }
                    out.putNextEntry(new JarEntry(entry.getName()));
                    out.write(bytes);
                    out.closeEntry();
                }
            }
            if (!phrasebook || !component) {
                throw new IllegalStateException(v1 + " lacks " + (phrasebook ? COMPONENT : PHRASEBOOK));
            }
        }
        return target;
    }

    /**
     * The example bundle under another symbolic name whose tool declares an input schema that is not
     * valid JSON Schema ({@code "type": "strng"}): the server must refuse the tool, not list it.
     */
    static Path badSchema(Path v1, Path target) throws IOException {
        return rewrite(v1, target, BAD_SCHEMA_BUNDLE, BAD_SCHEMA_TOOL,
                bytes -> replace(replace(bytes, "value=\"io.quiver.examples.greeting.GreetingArgs\"", "value=\"java.lang.Void\""),
                        "value=\"{&quot;type&quot;:&quot;object&quot;}\"", "value=\"{&quot;type&quot;:"
                        + "&quot;object&quot;,&quot;properties&quot;:{&quot;x&quot;:{&quot;type&quot;:&quot;strng&quot;}}}\""));
    }

    /** The example bundle whose component also needs a service nobody provides: it waits, and its tool never shows. */
    static Path waiting(Path v1, Path target) throws IOException {
        return rewrite(v1, target, WAITING_BUNDLE, "greet_waiting", bytes -> replace(bytes, "<implementation",
                "<reference name=\"database\" interface=\"com.example.Database\"/><implementation"));
    }

    static final String WAITING_BUNDLE = "io.quiver.examples.waiting";

    /** The example bundle whose component names a class the bundle does not have. */
    static Path classless(Path v1, Path target) throws IOException {
        return rewrite(v1, target, CLASSLESS_BUNDLE, "greet_classless", bytes -> replace(bytes, "<implementation class=\"",
                "<implementation class=\"no.such."));
    }

    static final String CLASSLESS_BUNDLE = "io.quiver.examples.classless";

    /** The example bundle under another symbolic name, its tool under another name: a second, independent tool bundle. */
    static Path renamed(Path v1, Path target, String symbolicName, String toolName) throws IOException {
        return rewrite(v1, target, symbolicName, toolName, bytes -> bytes);
    }

    private static Path rewrite(Path v1, Path target, String symbolicName, String toolName,
            UnaryOperator<byte[]> component) throws IOException {
        Files.createDirectories(target.toAbsolutePath().getParent());
        try (JarFile in = new JarFile(v1.toFile());
             OutputStream file = Files.newOutputStream(target)) {
            Manifest manifest = new Manifest(in.getManifest());
            manifest.getMainAttributes().put(new Attributes.Name("Bundle-SymbolicName"), symbolicName);
            try (JarOutputStream out = new JarOutputStream(file, manifest)) {
                for (Enumeration<JarEntry> entries = in.entries(); entries.hasMoreElements();) {
                    JarEntry entry = entries.nextElement();
                    if (entry.getName().equals(JarFile.MANIFEST_NAME)) {
                        continue;
                    }
                    byte[] bytes;
                    try (InputStream data = in.getInputStream(entry)) {
                        bytes = data.readAllBytes();
                    }
                    if (entry.getName().equals(COMPONENT)) {
                        bytes = component.apply(replace(bytes, "name=\"mcp.tool.name\" type=\"String\" value=\"greet\"",
                                "name=\"mcp.tool.name\" type=\"String\" value=\"" + toolName + "\""));
                    }
                    out.putNextEntry(new JarEntry(entry.getName()));
                    out.write(bytes);
                    out.closeEntry();
                }
            }
        }
        return target;
    }

    static final String BAD_SCHEMA_BUNDLE = "io.quiver.examples.greeting.badschema";
    static final String BAD_SCHEMA_TOOL = "greet_badly";

    /** A bundle of one class, its activator (a class of these tests that needs only {@code org.osgi.framework}). */
    static Path activatorJar(Path target, String symbolicName, Class<?> activator) throws IOException {
        Manifest manifest = bundleManifest(Map.of("Bundle-SymbolicName", symbolicName, "Bundle-Version", "1.0.0",
                "Bundle-Activator", activator.getName(), "Import-Package", "org.osgi.framework"));
        String entry = activator.getName().replace('.', '/') + ".class";
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(target), manifest);
                java.io.InputStream in = activator.getClassLoader().getResourceAsStream(entry)) {
            out.putNextEntry(new JarEntry(entry));
            in.transferTo(out);
            out.closeEntry();
        }
        return target;
    }

    /** A jar with nothing but a manifest of these headers (an impostor, a bundle that cannot start, ...). */
    static Path manifestOnly(Path target, Map<String, String> headers) throws IOException {
        Files.createDirectories(target.toAbsolutePath().getParent());
        try (OutputStream file = Files.newOutputStream(target);
             JarOutputStream out = new JarOutputStream(file, bundleManifest(headers))) {
            out.putNextEntry(new JarEntry("readme.txt"));
            out.write("a test bundle".getBytes(StandardCharsets.UTF_8));
            out.closeEntry();
        }
        return target;
    }

    /** A bundle manifest (version 2) with these headers. */
    private static Manifest bundleManifest(Map<String, String> headers) {
        Manifest manifest = new Manifest();
        Attributes main = manifest.getMainAttributes();
        main.put(Attributes.Name.MANIFEST_VERSION, "1.0");
        main.putValue("Bundle-ManifestVersion", "2");
        headers.forEach(main::putValue);
        return manifest;
    }

    private static byte[] replace(byte[] bytes, String from, String to) {
        String text = new String(bytes, StandardCharsets.UTF_8);
        if (!text.contains(from)) {
            throw new IllegalStateException("the example bundle changed: '" + from + "' not found in\n" + text);
        }
        return text.replace(from, to).getBytes(StandardCharsets.UTF_8);
    }

    /**
     * Puts a jar into a watched folder in one step: written under a name the watcher ignores, then
     * renamed over the target. The watcher never sees half a jar, whatever its poll interval.
     */
    static void place(Path jar, Path target) throws IOException {
        Path part = target.resolveSibling("." + target.getFileName() + ".part");
        Files.copy(jar, part, StandardCopyOption.REPLACE_EXISTING);
        Files.move(part, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }

    /** Overwrites a jar in place, as {@code cp new.jar deploy/x.jar} does (same file, new contents). */
    static void overwrite(Path jar, Path target) throws IOException {
        Files.write(target, Files.readAllBytes(jar));
    }

    /**
     * A FileInstall factory configuration for {@code etc/}: one more watched bundle folder with its
     * own poll interval, next to {@code deploy/} (whose interval the launcher fixes at 1 s).
     */
    static void watchFolder(Path etc, String name, Path folder, long pollMs) throws IOException {
        Files.createDirectories(folder);
        String cfg = "# an extra bundle folder for the tests, watched by FileInstall\n"
                + "felix.fileinstall.dir=" + escape(folder.toAbsolutePath().normalize().toString()) + "\n"
                + "felix.fileinstall.filter=.*\\\\.jar\n"
                + "felix.fileinstall.poll=" + pollMs + "\n"
                + "felix.fileinstall.noInitialDelay=true\n"
                + "felix.fileinstall.bundles.new.start=true\n"
                + "felix.fileinstall.log.default=jul\n"
                + "felix.fileinstall.log.level=2\n";
        Files.writeString(etc.resolve("org.apache.felix.fileinstall-" + name + ".cfg"), cfg);
    }

    private static String escape(String path) {
        return path.replace("\\", "\\\\");
    }
}
