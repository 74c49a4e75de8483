package io.quiver.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StorageTest {

    @Test
    void aChosenStorageIsHeldByOneServerAtATime(@TempDir Path dir) throws Exception {
        // two servers on one --data deleted each other's bundles: Felix's own lock does not keep the second out
        Path data = dir.resolve("data");
        Storage first = Storage.of(data);
        IllegalStateException refused = assertThrows(IllegalStateException.class, () -> Storage.of(data));
        assertTrue(refused.getMessage().contains("another Quiver server uses the storage"), refused.getMessage());
        first.release();
        Storage again = Storage.of(data);
        assertTrue(Files.isDirectory(data), "a chosen storage is kept");
        again.release();
    }

    @Test
    void aTemporaryStorageIsDeletedWhenReleased() throws Exception {
        Storage temporary = Storage.of(null);
        Files.writeString(temporary.folder().resolve("x"), "x");
        temporary.release();
        assertTrue(Files.notExists(temporary.folder()));
    }

    @Test
    void aStartSweepsAwayTheTemporaryStoragesOfKilledServersAndNothingElse(@TempDir Path tmp) throws Exception {
        Storage running = Storage.temporaryIn(tmp);
        Files.writeString(running.folder().resolve("bundle"), "in use");
        // what a server killed before it could delete its storage leaves: its lock file, held by no process
        Path killed = Files.createDirectories(tmp.resolve("quiver-123"));
        Files.createDirectories(killed.resolve("bundle1/version0.0"));
        Files.writeString(killed.resolve("bundle1/version0.0/bundle.jar"), "left over");
        Files.writeString(killed.resolve(Storage.LOCK), "");
        Path justMade = Files.createDirectories(tmp.resolve("quiver-456")); // a start between making and locking it
        Files.writeString(justMade.resolve(Storage.LOCK), "");
        Path noLock = Files.createDirectories(tmp.resolve("quiver-other")); // someone else's, or an older version's
        Files.writeString(noLock.resolve("file"), "kept");
        Path otherName = Files.createDirectories(tmp.resolve("other-1"));
        Files.writeString(otherName.resolve(Storage.LOCK), "");
        for (Path old : new Path[] {killed.resolve(Storage.LOCK), otherName.resolve(Storage.LOCK)}) {
            Files.setLastModifiedTime(old, java.nio.file.attribute.FileTime.fromMillis(System.currentTimeMillis() - 120_000));
        }

        Storage starting = Storage.temporaryIn(tmp);
        assertEquals(1, starting.sweepLeftOvers(60_000));
        assertTrue(Files.notExists(killed), "the killed server's storage is gone");
        assertTrue(Files.exists(running.folder().resolve("bundle")), "a running server's storage is held, and kept");
        assertTrue(Files.exists(starting.folder().resolve(Storage.LOCK)), "the sweeping server's own is kept");
        assertTrue(Files.exists(justMade.resolve(Storage.LOCK)), "a lock file younger than a minute is not swept");
        assertTrue(Files.exists(noLock.resolve("file")), "a folder without a lock file is not Quiver's to sweep");
        assertTrue(Files.exists(otherName.resolve(Storage.LOCK)), "only folders named like a storage");
        assertEquals(0, Storage.of(tmp.resolve("chosen")).sweepLeftOvers(0), "a chosen storage sweeps nothing");
        running.release();
        starting.release();
        assertTrue(Files.notExists(running.folder()) && Files.notExists(starting.folder()));
    }
}
