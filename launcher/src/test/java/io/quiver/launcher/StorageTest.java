package io.quiver.launcher;

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
}
