package io.quiver.deployer.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
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
}
