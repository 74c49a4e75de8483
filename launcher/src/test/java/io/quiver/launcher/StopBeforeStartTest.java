package io.quiver.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A stop that comes before the start has made its framework (a SIGTERM in the first few hundred
 * milliseconds of {@code quiver run}) is not lost: the start ends without installing anything,
 * instead of finding nothing to stop and serving on. A start that fails by itself still says why.
 */
class StopBeforeStartTest {

    @TempDir
    Path dir;

    @Test
    void aStartThatAStopOvertookInstallsNothingAndSaysSo() {
        Quiver quiver = Quiver.builder().features("core").etc(dir.resolve("etc")).deploy(dir.resolve("deploy"))
                .data(dir.resolve("data")).build();
        quiver.stop();

        QuiverException e = assertThrows(QuiverException.class, quiver::start);

        assertEquals(Quiver.STOPPED_WHILE_STARTING, e.getMessage());
        assertTrue(quiver.stopRequested());
        // what the start writes once it goes on: the bundles' fingerprints, the watched folders
        assertFalse(Files.exists(dir.resolve("data").resolve(BundleInstaller.FINGERPRINTS)), "no bundle was installed");
        assertFalse(Files.exists(dir.resolve("etc")), "etc/ was not created");
        assertFalse(Files.exists(dir.resolve("deploy")), "deploy/ was not created");
        assertThrows(IllegalStateException.class, quiver::url);
    }

    /** A start that fails on its own stops the framework too, and says why: not as if it had been stopped. */
    @Test
    void aStartThatFailsOnItsOwnSaysWhy() {
        Quiver quiver = Quiver.builder().features("no-such-feature").etc(dir.resolve("etc"))
                .deploy(dir.resolve("deploy")).data(dir.resolve("data")).build();

        QuiverException e = assertThrows(QuiverException.class, quiver::start);

        assertTrue(e.getMessage().contains("no feature named 'no-such-feature'"), e.getMessage());
    }
}
