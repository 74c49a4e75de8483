package io.quiver.deployer.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.osgi.framework.Bundle;

/** Jars in deploy/ on a real framework, with the storage kept between runs as {@code --data} keeps it. */
class BundleDeployerTest {

    @TempDir
    Path dir;

    private final DeployProblems problems = new DeployProblems();

    private Framework framework() throws Exception {
        return new Framework(dir.resolve("storage"), dir.resolve("deploy"));
    }

    @Test
    void aJarDeletedWhileTheServerWasStoppedIsUninstalledAtTheNextStart() throws Exception {
        Path a = dir.resolve("deploy/a.jar");
        Path b = dir.resolve("deploy/b.jar");
        try (Framework framework = framework()) {
            Files.write(a, Framework.jar("test.a", "1.0"));
            Files.write(b, Framework.jar("test.b", "1.0"));
            BundleDeployer deployer = new BundleDeployer(framework.context(), problems, Map.of());
            deployer.install(a.toFile());
            deployer.install(b.toFile());
            assertEquals(Bundle.ACTIVE, framework.bundle("test.a").getState());
        }
        Files.delete(a);
        try (Framework framework = framework()) {
            new BundleDeployer(framework.context(), problems, Map.of());
            assertNull(framework.bundle("test.a"));
            assertNotNull(framework.bundle("test.b"), "a jar still there stays");
        }
    }

    @Test
    void anUpdateTheFrameworkRefusesLeavesTheOldVersionRunning() throws Exception {
        Path a = dir.resolve("deploy/a.jar");
        try (Framework framework = framework()) {
            Files.write(a, Framework.jar("test.a", "1.0"));
            BundleDeployer deployer = new BundleDeployer(framework.context(), problems, Map.of());
            deployer.install(a.toFile());
            Files.write(a, Framework.jar("test.a", "2.0", "Import-Package", "org.osgi.framework,org.osgi.framework"));
            deployer.update(a.toFile());
            assertTrue(problems.problems().toString().contains("cannot update"), problems.problems()::toString);
            Bundle bundle = framework.bundle("test.a");
            assertEquals("1.0.0", bundle.getVersion().toString());
            assertEquals(Bundle.ACTIVE, bundle.getState(), "the old version goes on serving");
        }
    }

    @Test
    void aBundleThatDoesNotFinishStartingDoesNotHoldUpTheFolder() throws Exception {
        Path slow = dir.resolve("deploy/slow.jar");
        Path next = dir.resolve("deploy/next.jar");
        try (Framework framework = framework()) {
            Files.write(slow, Framework.jar("test.slow", "1.0", "Import-Package", "org.osgi.framework",
                    "Bundle-Activator", SlowActivator.class.getName()));
            Files.write(next, Framework.jar("test.next", "1.0"));
            BundleDeployer deployer = new BundleDeployer(framework.context(), problems, Map.of("startTimeoutMs", 200L));
            long begin = System.nanoTime();
            deployer.install(slow.toFile());
            deployer.install(next.toFile());
            assertTrue(System.nanoTime() - begin < 2_000_000_000L, "the next file is not held up");
            assertEquals(Bundle.ACTIVE, framework.bundle("test.next").getState());
            assertTrue(problems.problems().toString().contains("did not finish starting within 200 ms"),
                    problems.problems()::toString);
        }
    }

    /**
     * A bundle whose stop does not return does not hold deploy/ when its file goes (before, FileInstall's thread waited
     * in its stop for good, holding the deployer, so no later file was taken): the next file is taken while the old
     * bundle is still stopping, the problem is listed, and the bundle goes once its stop returns.
     */
    @Test
    void aBundleThatDoesNotFinishStoppingDoesNotHoldUpTheFolder() throws Exception {
        Path stubborn = dir.resolve("deploy/stubborn.jar");
        Path next = dir.resolve("deploy/next.jar");
        try (Framework framework = framework()) {
            Files.write(stubborn, Framework.jar("test.stubborn", "1.0", "Import-Package", "org.osgi.framework",
                    "Bundle-Activator", SlowStopActivator.class.getName()));
            Files.write(next, Framework.jar("test.next", "1.0"));
            Path release = dir.resolve("release");
            System.setProperty(SlowStopActivator.RELEASE, release.toString());
            BundleDeployer deployer = new BundleDeployer(framework.context(), problems, Map.of("stopTimeoutMs", 200L));
            deployer.install(stubborn.toFile());
            Bundle bundle = framework.bundle("test.stubborn");
            assertEquals(Bundle.ACTIVE, bundle.getState());
            Files.delete(stubborn);
            deployer.uninstall(stubborn.toFile());
            deployer.install(next.toFile());
            assertEquals(Bundle.ACTIVE, framework.bundle("test.next").getState());
            assertEquals(Bundle.STOPPING, bundle.getState(), "taken while the other was still stopping");
            assertTrue(problems.problems().toString().contains("did not finish stopping within 200 ms"),
                    problems.problems()::toString);
            Files.createFile(release); // its stop returns
            for (int i = 0; i < 200 && (bundle.getState() != Bundle.UNINSTALLED
                    || problems.problems().toString().contains("stubborn")); i++) {
                Thread.sleep(50); // uninstalled, then its problem cleared, on the thread that waited for its stop
            }
            assertEquals(Bundle.UNINSTALLED, bundle.getState(), "gone once its stop returned");
            assertFalse(problems.problems().toString().contains("stubborn"), problems.problems()::toString);
        }
    }

    /** A wrong setting is listed with what it keeps (before, the deployer read its settings and dropped the problems). */
    @Test
    void aWrongSettingIsListedUntilItIsRight() throws Exception {
        try (Framework framework = framework()) {
            BundleDeployer deployer = new BundleDeployer(framework.context(), problems, Map.of("startTimeoutMs", "abc",
                    "maxFileBytes", -1L));
            String listed = problems.problems().toString();
            assertTrue(listed.contains("startTimeoutMs = abc") && listed.contains("maxFileBytes = -1"), listed);
            deployer.modified(Map.of("startTimeoutMs", 500L));
            assertEquals(List.of(), problems.problems());
        }
    }
}
