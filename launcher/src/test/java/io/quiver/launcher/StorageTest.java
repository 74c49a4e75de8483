package io.quiver.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
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
        Path killed = ownerOnly(tmp.resolve("quiver-123"));
        Files.createDirectories(killed.resolve("bundle1/version0.0"));
        Files.writeString(killed.resolve("bundle1/version0.0/bundle.jar"), "left over");
        Path justMade = ownerOnly(tmp.resolve("quiver-456")); // a start between making and locking it
        // a stopped server's chosen storage (--data) that happens to be named like a temporary one
        Path chosen = ownerOnly(tmp.resolve("quiver-mydata"));
        Files.writeString(chosen.resolve(Storage.LOCK), "");
        Files.writeString(chosen.resolve("kept"), "the user's");
        // a folder that others may write into (another user could swap a folder in it for a link while it is deleted)
        Path open = Files.createDirectories(tmp.resolve("quiver-open"));
        Files.setPosixFilePermissions(open, PosixFilePermissions.fromString("rwxrwxrwx"));
        Path noLock = ownerOnly(tmp.resolve("quiver-other")); // someone else's, or an older version's
        Files.writeString(noLock.resolve("file"), "kept");
        Path otherName = ownerOnly(tmp.resolve("other-1"));
        for (Path dir : new Path[] {killed, justMade, open, otherName}) {
            Files.writeString(dir.resolve(Storage.TEMPORARY_LOCK), "");
        }
        for (Path old : new Path[] {killed, chosen, open, otherName}) {
            Path lock = old.resolve(old.equals(chosen) ? Storage.LOCK : Storage.TEMPORARY_LOCK);
            Files.setLastModifiedTime(lock, FileTime.fromMillis(System.currentTimeMillis() - 120_000));
        }

        Storage starting = Storage.temporaryIn(tmp);
        assertEquals(1, starting.sweepLeftOvers(60_000));
        assertTrue(Files.notExists(killed), "the killed server's storage is gone");
        assertTrue(Files.exists(running.folder().resolve("bundle")), "a running server's storage is held, and kept");
        assertTrue(Files.exists(starting.folder().resolve(Storage.TEMPORARY_LOCK)), "the sweeping server's own is kept");
        assertTrue(Files.exists(justMade.resolve(Storage.TEMPORARY_LOCK)), "a lock file younger than a minute is not swept");
        assertTrue(Files.exists(chosen.resolve("kept")), "a chosen storage is never swept");
        assertTrue(Files.exists(open.resolve(Storage.TEMPORARY_LOCK)), "a folder others may write into is not swept");
        assertTrue(Files.exists(noLock.resolve("file")), "a folder without a lock file is not Quiver's to sweep");
        assertTrue(Files.exists(otherName.resolve(Storage.TEMPORARY_LOCK)), "only folders named like a storage");
        assertEquals(0, Storage.of(tmp.resolve("data")).sweepLeftOvers(0), "a chosen storage sweeps nothing");
        assertTrue(heldByAnotherProcess(running.folder().resolve(Storage.TEMPORARY_LOCK)),
                "the running storage's lock is still held after another storage of the process looked at it");
        running.release();
        starting.release();
        assertTrue(Files.notExists(running.folder()) && Files.notExists(starting.folder()));
    }

    @Test
    void twoStoragesOfOneProcessKeepEachOthersLock(@TempDir Path tmp) throws Exception {
        // Java's locks are the process's: a second channel on the file, closed, would let go of the first one's lock
        Storage first = Storage.of(tmp.resolve("data"));
        assertThrows(IllegalStateException.class, () -> Storage.of(tmp.resolve("data")));
        assertTrue(heldByAnotherProcess(tmp.resolve("data").resolve(Storage.LOCK)), "still held after the refusal");
        first.release();
        assertTrue(!heldByAnotherProcess(tmp.resolve("data").resolve(Storage.LOCK)), "free once released");
    }

    private static Path ownerOnly(Path dir) throws Exception {
        return Files.createDirectories(dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
    }

    /** Whether another process finds the file locked (POSIX record locks, as Java takes them on Linux). */
    private static boolean heldByAnotherProcess(Path file) throws Exception {
        Process p = new ProcessBuilder("python3", "-c", "import fcntl,sys\nf=open(sys.argv[1],'a')\ntry:\n"
                + "    fcntl.lockf(f, fcntl.LOCK_EX | fcntl.LOCK_NB)\n    print('free')\nexcept OSError:\n    print('held')",
                file.toString()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes()).trim();
        p.waitFor();
        assertTrue(out.equals("held") || out.equals("free"), out);
        return out.equals("held");
    }
}
