package io.quiver.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.felix.framework.Felix;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.framework.wiring.FrameworkWiring;

/**
 * The launcher's bundle start on a real framework: one after the other until the configuration is in
 * place, then on several threads, with every bundle that cannot start reported and the rest started.
 */
class BundleStarterTest {

    @TempDir
    Path dir;

    private Felix felix;
    private final String run = Long.toString(System.nanoTime());

    @BeforeEach
    void framework() throws Exception {
        felix = new Felix(Map.of("org.osgi.framework.storage", dir.resolve("storage").toString(),
                "org.osgi.framework.storage.clean", "onFirstInit"));
        felix.init();
        felix.start();
    }

    @AfterEach
    void stop() throws Exception {
        felix.stop();
        felix.waitForStop(10_000);
    }

    @Test
    void afterTheConfigurationTheRestStartOnSeveralThreadsAndEveryProblemIsReported() throws Exception {
        BundleContext context = felix.getBundleContext();
        List<Bundle> bundles = slowBundles(context, "test.slow", 6);
        bundles.add(3, install(context, "test.no.activator", "test.missing.Activator", null));
        bundles.add(5, install(context, "test.unresolved", null, "no.such.pkg;version=\"[9,10)\""));

        List<String> configuredAfter = new ArrayList<>();
        BundleStarter starter = new BundleStarter(felix.adapt(FrameworkWiring.class), 2);
        starter.startAll(bundles, b -> configuredAfter.add(b.getSymbolicName()), () -> configuredAfter.size() == 2);

        assertEquals(List.of("test.slow0", "test.slow1"), configuredAfter,
                "the bundles before the configuration is in place are handed to the configurer, one by one");
        Set<String> threads = new HashSet<>();
        for (Bundle b : bundles) {
            if (b.getSymbolicName().startsWith("test.slow")) {
                assertEquals(Bundle.ACTIVE, b.getState(), b.getSymbolicName());
                threads.add(System.getProperty(key(b)));
            }
        }
        assertEquals(2, starter.problems().size(), starter.problems()::toString);
        assertTrue(starter.problems().get(0).contains("test.no.activator") || starter.problems().get(1).contains("test.no.activator"),
                starter.problems()::toString);
        assertTrue(String.join("\n", starter.problems()).contains("test.unresolved"), starter.problems()::toString);
        assertTrue(String.join("\n", starter.problems()).contains("did not start"), starter.problems()::toString);
        String self = Thread.currentThread().getName();
        assertEquals(Set.of(self, "quiver-start-1"), threads,
                "the first two on the calling thread, the rest shared with one more thread");
        assertEquals(self, System.getProperty(key(bundles.get(0))));
        assertEquals(self, System.getProperty(key(bundles.get(1))));
    }

    @Test
    void oneThreadStartsEverythingInPlanOrder() throws Exception {
        BundleContext context = felix.getBundleContext();
        List<Bundle> bundles = slowBundles(context, "test.one", 4);
        List<String> handed = new ArrayList<>();
        BundleStarter starter = new BundleStarter(felix.adapt(FrameworkWiring.class), 1);
        starter.startAll(bundles, b -> handed.add(b.getSymbolicName()), () -> true);

        assertEquals(List.of("test.one0", "test.one1", "test.one2", "test.one3"), handed);
        long previous = 0;
        for (Bundle b : bundles) {
            assertEquals(Bundle.ACTIVE, b.getState());
            assertEquals(Thread.currentThread().getName(), System.getProperty(key(b)));
            long at = Long.parseLong(System.getProperty(key(b) + ".at"));
            assertTrue(at > previous, "plan order");
            previous = at;
        }
        assertEquals(List.of(), starter.problems());
    }

    /** A stop while the bundles start (a signal) is not a problem of each bundle that was not started. */
    @Test
    void aStopWhileTheBundlesStartLeavesTheRestWithoutProblems() throws Exception {
        BundleContext context = felix.getBundleContext();
        List<Bundle> bundles = slowBundles(context, "test.stopped", 12);
        // the stop comes once the fourth bundle's activator runs: the framework stops under the start
        List<String> handed = new ArrayList<>();
        BundleStarter starter = new BundleStarter(felix.adapt(FrameworkWiring.class), 1);
        starter.startAll(bundles, b -> {
            handed.add(b.getSymbolicName());
            if (handed.size() == 4) {
                try {
                    felix.stop();
                    felix.waitForStop(10_000);
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            }
        }, () -> false);

        assertEquals(List.of(), starter.problems(), "the bundles after the stop are not the problem");
        long started = bundles.stream().filter(b -> System.getProperty(key(b)) != null).count();
        assertEquals(4, started, "none is started after the stop");
    }

    private String key(Bundle b) {
        return key(b.getSymbolicName());
    }

    private String key(String symbolicName) {
        return "quiver.test." + run + "." + symbolicName;
    }

    private Bundle install(BundleContext context, String name, String activator, String imports) throws IOException,
            org.osgi.framework.BundleException {
        Map<String, String> headers = new HashMap<>();
        headers.put("Import-Package", "org.osgi.framework" + (imports == null ? "" : "," + imports));
        headers.put("Quiver-Test-Key", key(name));
        if (activator != null) {
            headers.put("Bundle-Activator", activator);
        }
        Path jar = TestBundles.write(dir.resolve(name + ".jar"), name, headers, SlowActivator.class);
        try (InputStream in = Files.newInputStream(jar)) {
            return context.installBundle("test:" + name, in);
        }
    }

    /** {@code count} bundles {@code <prefix>0..} whose activator is {@link SlowActivator}. */
    private List<Bundle> slowBundles(BundleContext context, String prefix, int count) throws Exception {
        List<Bundle> bundles = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            bundles.add(install(context, prefix + i, SlowActivator.class.getName(), null));
        }
        return bundles;
    }

    /** Takes its time to start and says on which thread, and when, in a system property its manifest names. */
    public static final class SlowActivator implements org.osgi.framework.BundleActivator {

        @Override
        public void start(BundleContext context) throws Exception {
            String key = context.getBundle().getHeaders().get("Quiver-Test-Key");
            System.setProperty(key, Thread.currentThread().getName());
            System.setProperty(key + ".at", Long.toString(System.nanoTime()));
            Thread.sleep(100);
        }

        @Override
        public void stop(BundleContext context) {
        }
    }
}
