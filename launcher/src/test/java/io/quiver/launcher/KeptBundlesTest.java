package io.quiver.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.felix.framework.Felix;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.osgi.framework.Bundle;
import org.osgi.framework.startlevel.BundleStartLevel;

/**
 * Bundles installed at run time into a kept storage, on a real framework: held back from the framework's start and
 * started again after it, the feature bundles left alone; and a run killed between the two loses none of them.
 */
class KeptBundlesTest {

    @TempDir
    Path dir;

    @Test
    void aDeployedBundleIsHeldBackFromTheFrameworksStartAndStartedAfterItEvenAcrossAKill() throws Exception {
        Path storage = dir.resolve("storage");
        Path deployed = TestBundles.write(dir.resolve("deploy/d.jar"), "test.deployed", Map.of());
        Path feature = TestBundles.write(dir.resolve("repo/f.jar"), "test.feature", Map.of());

        Felix first = framework(storage);
        first.start();
        install(first, deployed.toUri().toString(), deployed).start();
        install(first, BundleInstaller.PREFIX + "test:feature:1.0.0", feature).start();
        stop(first);

        // the next run holds it back, and is killed before it started it again
        Felix killed = framework(storage);
        KeptBundles.holdBack(killed.getBundleContext(), storage);
        Bundle held = killed.getBundleContext().getBundle(deployed.toUri().toString());
        assertFalse(held.adapt(BundleStartLevel.class).isPersistentlyStarted(), "the framework will not start it");
        assertTrue(Files.readString(storage.resolve(KeptBundles.FILE)).contains("d.jar"));
        assertTrue(killed.getBundleContext().getBundle(BundleInstaller.PREFIX + "test:feature:1.0.0")
                .adapt(BundleStartLevel.class).isPersistentlyStarted(), "a feature bundle is the launcher's to start");
        stop(killed);

        Felix again = framework(storage);
        KeptBundles kept = KeptBundles.holdBack(again.getBundleContext(), storage);
        again.start();
        Bundle bundle = again.getBundleContext().getBundle(deployed.toUri().toString());
        assertTrue((bundle.getState() & (Bundle.INSTALLED | Bundle.RESOLVED)) != 0, "the framework's start left it alone");
        assertEquals(List.of(), kept.restart(5_000));
        assertEquals(Bundle.ACTIVE, bundle.getState(), "started again, though the killed run had held it back");
        assertTrue(bundle.adapt(BundleStartLevel.class).isPersistentlyStarted());
        assertFalse(Files.exists(storage.resolve(KeptBundles.FILE)), "nothing left to start again");
        stop(again);

        Felix stopped = framework(storage);
        stopped.start();
        Bundle stoppedOnPurpose = stopped.getBundleContext().getBundle(deployed.toUri().toString());
        stoppedOnPurpose.stop();
        stop(stopped);
        Felix last = framework(storage);
        assertEquals(List.of(), KeptBundles.holdBack(last.getBundleContext(), storage).restart(5_000));
        last.start();
        assertTrue((last.getBundleContext().getBundle(deployed.toUri().toString()).getState()
                & (Bundle.INSTALLED | Bundle.RESOLVED)) != 0, "a bundle stopped on purpose stays stopped");
        stop(last);
    }

    @Test
    void aDamagedFileDoesNotStopTheStart() throws Exception {
        Path storage = dir.resolve("damaged");
        Path deployed = TestBundles.write(dir.resolve("deploy/e.jar"), "test.damaged", Map.of());
        Felix first = framework(storage);
        first.start();
        install(first, deployed.toUri().toString(), deployed).start();
        stop(first);
        Files.write(storage.resolve(KeptBundles.FILE), new byte[] {(byte) 0xff, (byte) 0xfe, 'x', '\n'}); // not UTF-8

        Felix next = framework(storage);
        KeptBundles kept = KeptBundles.holdBack(next.getBundleContext(), storage);
        next.start();
        assertEquals(List.of(), kept.restart(5_000));
        assertEquals(Bundle.ACTIVE, next.getBundleContext().getBundle(deployed.toUri().toString()).getState(),
                "still started again: the framework had it as started");
        stop(next);
    }

    private static Felix framework(Path storage) throws Exception {
        Felix felix = new Felix(Map.of("org.osgi.framework.storage", storage.toString(),
                "org.osgi.framework.storage.clean", "none"));
        felix.init();
        return felix;
    }

    private static Bundle install(Felix felix, String location, Path jar) throws Exception {
        try (InputStream in = Files.newInputStream(jar)) {
            return felix.getBundleContext().installBundle(location, in);
        }
    }

    private static void stop(Felix felix) throws Exception {
        felix.stop();
        felix.waitForStop(10_000);
    }
}
