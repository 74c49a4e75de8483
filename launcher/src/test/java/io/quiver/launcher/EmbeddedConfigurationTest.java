package io.quiver.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.lang.reflect.Proxy;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Hashtable;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.osgi.framework.BundleContext;
import org.osgi.framework.Constants;
import org.osgi.framework.ServiceRegistration;

/**
 * An application that embeds Quiver and whose own class path carries {@code org.osgi.service.cm} (the OSGi
 * compendium, Config Admin itself), as this test's does: the framework's Configuration Admin is another class than
 * the application's, and the launcher found none, so the server ran without {@code etc/}, its keys, grants and
 * settings. Of several, the one a feature installed is asked.
 */
class EmbeddedConfigurationTest {

    @TempDir
    Path dir;

    @Test
    void etcIsAppliedWhenTheApplicationCarriesTheConfigAdminApi() throws Exception {
        Class<?> own = Class.forName(ConfigAdminBridge.SERVICE, false, getClass().getClassLoader());
        assertNotNull(own, "the premise: the application's class path has the API");
        Path etc = Files.createDirectories(dir.resolve("etc"));
        Path audit = dir.resolve("trail").resolve("calls.jsonl");
        Files.writeString(etc.resolve("io.quiver.audit.cfg"), "file = " + audit.toString().replace("\\", "/") + "\n");

        try (Quiver quiver = Quiver.builder().features("core").port(0).etc(etc).deploy(dir.resolve("deploy")).build()
                .start()) {
            ConfigAdminBridge admin = ConfigAdminBridge.find(quiver.framework().getBundleContext()).orElseThrow();
            Map<String, Object> properties = admin.properties("io.quiver.audit");
            assertNotNull(properties, "etc/io.quiver.audit.cfg is a configuration");
            assertEquals(audit.toString().replace("\\", "/"), properties.get("file"));
            Awaiting.until(() -> Files.exists(audit), "the audit trail is where etc/ says");

            // another Configuration Admin, ranked above the features' own, from a bundle no feature installed
            BundleContext system = quiver.framework().getBundleContext();
            List<String> asked = new ArrayList<>();
            Object impostor = Proxy.newProxyInstance(own.getClassLoader(), new Class<?>[] {own}, (proxy, method, args) -> {
                asked.add(method.getName());
                return null;
            });
            ServiceRegistration<?> registration = system.registerService(ConfigAdminBridge.SERVICE, impostor,
                    new Hashtable<>(Map.of(Constants.SERVICE_RANKING, 1000)));
            try {
                Map<String, Object> again = ConfigAdminBridge.find(system).orElseThrow().properties("io.quiver.audit");
                assertNotNull(again, "the features' Configuration Admin answered");
                assertEquals(List.of(), asked, "the other one was not asked");
            } finally {
                registration.unregister();
            }
        }
    }

    /** A bounded wait for something the server does on its own threads. */
    private static final class Awaiting {
        static void until(java.util.function.BooleanSupplier condition, String what) throws InterruptedException {
            long deadline = System.nanoTime() + 10_000_000_000L;
            while (!condition.getAsBoolean()) {
                assertTrue(System.nanoTime() < deadline, what);
                Thread.sleep(20);
            }
        }
    }
}
