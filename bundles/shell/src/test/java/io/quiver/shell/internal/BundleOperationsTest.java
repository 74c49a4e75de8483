package io.quiver.shell.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quiver.lib.feature.platform.PlatformLibraries;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.lang.reflect.Proxy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Hashtable;
import java.util.List;
import java.util.Map;
import java.util.jar.Attributes;
import java.util.jar.JarInputStream;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.zip.ZipEntry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.framework.FrameworkListener;
import org.osgi.framework.Version;
import org.osgi.framework.wiring.FrameworkWiring;

/**
 * {@code quiver:install} and {@code quiver:update} against the platform's names, in a framework of a few
 * bundles: the cases the in-framework test cannot make (bundles installed by the launcher under
 * {@code quiver:} locations, libraries the class path provides in place of bundles), and what the framework
 * was handed: a refused jar that reached it would be in {@link #handed}.
 */
class BundleOperationsTest {

    private static final String DATABIND = "tools.jackson.core.jackson-databind";

    @TempDir
    Path dir;

    /** A framework's bundles. */
    private final List<Bundle> bundles = new ArrayList<>();
    private final List<String> started = new ArrayList<>();
    /** Every content the framework was given to install or update: "install NAME" or "update ID NAME". */
    private final List<String> handed = new ArrayList<>();
    private long nextId;

    @Test
    void aSecondCopyOfAPlatformBundleIsRefusedBeforeTheFrameworkSeesIt() throws IOException {
        bundle("io.quiver.core", "quiver:bundles/io.quiver.core.jar");
        BundleOperations ops = new BundleOperations(context(""));
        String location = jar("drop/core.jar", "io.quiver.core;singleton:=true");

        String out = ops.install(location);

        assertTrue(out.startsWith("Refused " + location + ": io.quiver.core is part of the running platform"
                + " (bundle 0 io.quiver.core 1.0.0)"), out);
        assertEquals(List.of(), handed);
        assertEquals(List.of("quiver:bundles/io.quiver.core.jar"), locations());
        assertEquals(List.of(), started);
    }

    @Test
    void aLibraryTheClassPathProvidesIsRefusedThoughNoBundleOfItIsInstalled() throws IOException {
        BundleOperations ops = new BundleOperations(context(DATABIND + ";version=3.0.3;maven=tools.jackson.core:jackson-databind:3.0.3"));
        String location = jar("drop/databind.jar", DATABIND);

        String out = ops.install(location);

        assertEquals("Refused " + location + ": " + DATABIND + " is part of the running platform ("
                + DATABIND + " 3.0.3, from the server's class path)\n", out);
        assertEquals(List.of(), handed);
        assertEquals(List.of(), locations());
    }

    @Test
    void aNameOfItsOwnInstallsAndStarts() throws IOException {
        bundle("io.quiver.core", "quiver:bundles/io.quiver.core.jar");
        BundleOperations ops = new BundleOperations(context(DATABIND + ";version=3.0.3;maven=tools.jackson.core:jackson-databind:3.0.3"));
        String location = jar("drop/tools.jar", "com.example.tools");

        String out = ops.install(location);

        assertTrue(out.startsWith("Installed bundle 1 com.example.tools 1.0.0 from " + location), out);
        assertEquals(List.of("install com.example.tools"), handed);
        assertEquals(List.of("quiver:bundles/io.quiver.core.jar", location), locations());
        assertEquals(List.of("com.example.tools"), started);
    }

    @Test
    void aFileThatIsNotAJarIsRefusedWithItsReason() throws IOException {
        BundleOperations ops = new BundleOperations(context(""));
        Path text = Files.writeString(dir.resolve("notes.jar"), "not a zip");

        String out = ops.install(text.toString());

        assertTrue(out.startsWith("Cannot install " + text.toUri() + ": not a jar (zip) file"), out);
        assertEquals(List.of(), handed);
    }

    @Test
    void anUpdateToANameTheCoreHoldsIsRefusedAndTheBundleKeepsItsContent() throws IOException {
        bundle("org.apache.felix.framework", "System Bundle");
        bundle("io.quiver.core", "quiver:bundles/io.quiver.core.jar");
        String location = jar("drop/tools.jar", "com.example.tools");
        Bundle tools = bundle("com.example.tools", location);
        BundleOperations ops = new BundleOperations(context(""));
        jar("drop/tools.jar", "io.quiver.core"); // the file at its location replaced by an impostor

        String out = ops.update(Long.toString(tools.getBundleId()));

        assertEquals("Refused the update of bundle 2 com.example.tools 1.0.0 from " + location
                + ": io.quiver.core is part of the running platform (bundle 1 io.quiver.core 1.0.0)\n"
                + "The bundle is unchanged.\n", out);
        assertEquals(List.of(), handed);
    }

    @Test
    void anUpdateThatKeepsItsNameGoesThrough() throws IOException {
        bundle("org.apache.felix.framework", "System Bundle");
        String location = jar("drop/tools.jar", "com.example.tools");
        Bundle tools = bundle("com.example.tools", location);
        BundleOperations ops = new BundleOperations(context(""));
        jar("drop/tools.jar", "com.example.tools;singleton:=true");

        String out = ops.update("com.example.tools");

        assertTrue(out.startsWith("Updated bundle 1 com.example.tools 1.0.0 from " + location), out);
        assertEquals(List.of("update " + tools.getBundleId() + " com.example.tools"), handed);
    }

    @Test
    void aReferencedFolderIsCheckedWhereItLiesAndInstalledByLocation() throws IOException {
        bundle("io.quiver.core", "quiver:bundles/io.quiver.core.jar");
        BundleOperations ops = new BundleOperations(context(""));
        Path impostor = folder("impostor", "io.quiver.core");
        Path own = folder("own", "com.example.unpacked");

        String refused = ops.install("reference:" + impostor.toUri());
        String installed = ops.install("reference:" + own.toUri());

        assertTrue(refused.startsWith("Refused reference:" + impostor.toUri() + ": io.quiver.core is part of the running"
                + " platform"), refused);
        assertTrue(installed.startsWith("Installed bundle 1 com.example.unpacked 1.0.0 from reference:" + own.toUri()), installed);
        assertEquals(List.of("install in place com.example.unpacked"), handed);
    }

    @Test
    void aLocationThatIsNoStrictUriStillInstalls() throws IOException {
        BundleOperations ops = new BundleOperations(context(""));
        Path spaced = Path.of(java.net.URI.create(jar("with space/tools.jar", "com.example.spaced")));

        String out = ops.install("file:" + spaced); // "file:/tmp/.../with space/tools.jar", as Felix takes it

        assertTrue(out.startsWith("Installed bundle 0 com.example.spaced"), out);
        assertEquals(List.of("install com.example.spaced"), handed);
    }

    @Test
    void anUpdateIsCheckedAtTheUpdateLocationTheBundleDeclares() throws IOException {
        bundle("org.apache.felix.framework", "System Bundle");
        bundle("io.quiver.core", "quiver:bundles/io.quiver.core.jar");
        String location = jar("drop/tools.jar", "com.example.tools");
        String elsewhere = jar("updates/tools.jar", "io.quiver.core");
        Bundle tools = bundle("com.example.tools", location, Map.of("Bundle-UpdateLocation", elsewhere));
        BundleOperations ops = new BundleOperations(context(""));

        String out = ops.update(Long.toString(tools.getBundleId()));

        assertTrue(out.startsWith("Refused the update of bundle 2 com.example.tools 1.0.0 from " + elsewhere
                + ": io.quiver.core is part of the running platform"), out);
        assertEquals(List.of(), handed);
    }

    /** An unpacked bundle: a folder with a manifest naming {@code symbolicName}. */
    private Path folder(String name, String symbolicName) throws IOException {
        Path folder = dir.resolve(name);
        Files.createDirectories(folder.resolve("META-INF"));
        Files.writeString(folder.resolve("META-INF/MANIFEST.MF"), "Manifest-Version: 1.0\nBundle-ManifestVersion: 2\n"
                + "Bundle-SymbolicName: " + symbolicName + "\n");
        return folder;
    }

    /** Writes a jar whose manifest names {@code symbolicName}; its {@code file:} URI. */
    private String jar(String name, String symbolicName) throws IOException {
        Path path = dir.resolve(name);
        Files.createDirectories(path.getParent());
        Manifest manifest = new Manifest();
        manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        manifest.getMainAttributes().putValue("Bundle-ManifestVersion", "2");
        manifest.getMainAttributes().putValue("Bundle-SymbolicName", symbolicName);
        try (OutputStream out = Files.newOutputStream(path); JarOutputStream jar = new JarOutputStream(out, manifest)) {
            jar.putNextEntry(new ZipEntry("readme.txt"));
            jar.write("a bundle".getBytes());
            jar.closeEntry();
        }
        return path.toUri().toString();
    }

    private static String nameIn(InputStream content) {
        try (JarInputStream jar = new JarInputStream(content)) {
            return jar.getManifest().getMainAttributes().getValue("Bundle-SymbolicName").split(";")[0];
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private List<String> locations() {
        return bundles.stream().map(Bundle::getLocation).toList();
    }

    private Bundle bundle(String symbolicName, String location) {
        return bundle(symbolicName, location, Map.of());
    }

    private Bundle bundle(String symbolicName, String location, Map<String, String> headers) {
        long id = nextId++;
        Bundle bundle = (Bundle) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {Bundle.class},
                (self, method, args) -> switch (method.getName()) {
                    case "getSymbolicName" -> symbolicName;
                    case "getLocation" -> location;
                    case "getBundleId" -> id;
                    case "getVersion" -> new Version(1, 0, 0);
                    case "getState" -> started.contains(symbolicName) ? Bundle.ACTIVE : Bundle.RESOLVED;
                    case "getHeaders" -> new Hashtable<>(headers);
                    case "start" -> {
                        started.add(symbolicName);
                        yield null;
                    }
                    case "update" -> {
                        handed.add("update " + id + " " + nameIn((InputStream) args[0]));
                        yield null;
                    }
                    case "adapt" -> Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {FrameworkWiring.class},
                            (wiring, call, callArgs) -> {
                                if (call.getName().equals("refreshBundles")) {
                                    ((FrameworkListener[]) callArgs[1])[0].frameworkEvent(null);
                                    return null;
                                }
                                throw new UnsupportedOperationException(call.getName());
                            });
                    case "uninstall" -> {
                        bundles.remove(self);
                        yield null;
                    }
                    case "toString" -> symbolicName + " at " + location;
                    case "hashCode" -> System.identityHashCode(self);
                    case "equals" -> self == args[0];
                    default -> throw new UnsupportedOperationException(method.getName());
                });
        bundles.add(bundle);
        return bundle;
    }

    private BundleContext context(String platformLibraries) {
        return (BundleContext) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {BundleContext.class},
                (self, method, args) -> switch (method.getName()) {
                    case "getProperty" -> PlatformLibraries.PROPERTY.equals(args[0]) ? platformLibraries : null;
                    case "getBundles" -> bundles.toArray(new Bundle[0]);
                    case "getBundle" -> args[0] instanceof String location
                            ? bundles.stream().filter(b -> b.getLocation().equals(location)).findFirst().orElse(null)
                            : bundles.stream().filter(b -> b.getBundleId() == (Long) args[0]).findFirst().orElse(null);
                    case "installBundle" -> {
                        String location = (String) args[0];
                        if (args.length == 1) { // a reference: folder, read where it lies
                            String name = new Manifest(Files.newInputStream(Path.of(java.net.URI.create(
                                    location.substring("reference:".length()))).resolve("META-INF/MANIFEST.MF")))
                                    .getMainAttributes().getValue("Bundle-SymbolicName");
                            handed.add("install in place " + name);
                            yield bundle(name, location);
                        }
                        String name = nameIn((InputStream) args[1]);
                        handed.add("install " + name);
                        yield bundle(name, location);
                    }
                    default -> throw new UnsupportedOperationException(method.getName());
                });
    }
}
