package io.quiver.shell.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quiver.lib.feature.platform.PlatformLibraries;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.Hashtable;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.framework.Version;

/**
 * {@code quiver:install} against the platform's names, in a framework of a few bundles: the cases the
 * in-framework test cannot make (bundles installed by the launcher under {@code quiver:} locations,
 * libraries the class path provides in place of bundles). What the refused bundle leaves is checked
 * in the framework's own list: a bundle that stayed would be there.
 */
class BundleOperationsTest {

    private static final String DATABIND = "tools.jackson.core.jackson-databind";

    /** A framework's bundles; {@link #context} installs a new one named after the location's last part. */
    private final List<Bundle> bundles = new ArrayList<>();
    private final List<String> started = new ArrayList<>();
    private long nextId;

    @Test
    void aSecondCopyOfAPlatformBundleIsRefusedAndTakenOutAgain() {
        bundle("io.quiver.core", "quiver:bundles/io.quiver.core.jar");
        BundleOperations ops = new BundleOperations(context(""));

        String out = ops.install("file:///tmp/drop/io.quiver.core");

        assertTrue(out.startsWith("Refused file:///tmp/drop/io.quiver.core: io.quiver.core is part of the running platform"
                + " (bundle 0 io.quiver.core 1.0.0)"), out);
        assertEquals(List.of("quiver:bundles/io.quiver.core.jar"), locations());
        assertEquals(List.of(), started);
    }

    @Test
    void aLibraryTheClassPathProvidesIsRefusedThoughNoBundleOfItIsInstalled() {
        BundleOperations ops = new BundleOperations(context(DATABIND + ";version=3.0.3;maven=tools.jackson.core:jackson-databind:3.0.3"));

        String out = ops.install("file:///tmp/drop/" + DATABIND);

        assertEquals("Refused file:///tmp/drop/" + DATABIND + ": " + DATABIND + " is part of the running platform ("
                + DATABIND + " 3.0.3, from the server's class path)\n", out);
        assertEquals(List.of(), locations());
        assertEquals(List.of(), started);
    }

    @Test
    void aNameOfItsOwnInstallsAndStarts() {
        bundle("io.quiver.core", "quiver:bundles/io.quiver.core.jar");
        BundleOperations ops = new BundleOperations(context(DATABIND + ";version=3.0.3;maven=tools.jackson.core:jackson-databind:3.0.3"));

        String out = ops.install("file:///tmp/drop/com.example.tools");

        assertTrue(out.startsWith("Installed bundle 1 com.example.tools 1.0.0 from file:///tmp/drop/com.example.tools"), out);
        assertEquals(List.of("quiver:bundles/io.quiver.core.jar", "file:///tmp/drop/com.example.tools"), locations());
        assertEquals(List.of("com.example.tools"), started);
    }

    private List<String> locations() {
        return bundles.stream().map(Bundle::getLocation).toList();
    }

    private Bundle bundle(String symbolicName, String location) {
        long id = nextId++;
        Bundle bundle = (Bundle) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {Bundle.class},
                (self, method, args) -> switch (method.getName()) {
                    case "getSymbolicName" -> symbolicName;
                    case "getLocation" -> location;
                    case "getBundleId" -> id;
                    case "getVersion" -> new Version(1, 0, 0);
                    case "getState" -> started.contains(symbolicName) ? Bundle.ACTIVE : Bundle.INSTALLED;
                    case "getHeaders" -> new Hashtable<>(Map.of());
                    case "start" -> {
                        started.add(symbolicName);
                        yield null;
                    }
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
                            : null;
                    case "installBundle" -> {
                        String location = (String) args[0];
                        yield bundle(location.substring(location.lastIndexOf('/') + 1), location);
                    }
                    default -> throw new UnsupportedOperationException(method.getName());
                });
    }
}
