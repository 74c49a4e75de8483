package io.quiver.launcher;

import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import org.slf4j.LoggerFactory;

/**
 * The framework's storage folder: either one the user chose (kept between runs) or a fresh
 * temporary folder, deleted when Quiver stops.
 */
record Storage(Path folder, boolean temporary) {

    static Storage of(Path chosen) throws IOException {
        if (chosen == null) {
            return new Storage(Files.createTempDirectory("quiver-"), true);
        }
        Path folder = chosen.toAbsolutePath().normalize();
        Files.createDirectories(folder);
        return new Storage(folder, false);
    }

    /** Deletes a temporary folder; keeps a chosen one. */
    void release() {
        if (!temporary) {
            return;
        }
        try {
            Files.walkFileTree(folder, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                    Files.deleteIfExists(file);
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult postVisitDirectory(Path dir, IOException e) throws IOException {
                    Files.deleteIfExists(dir);
                    return FileVisitResult.CONTINUE;
                }
            });
        } catch (IOException e) {
            LoggerFactory.getLogger(Storage.class).warn("Cannot delete {}: {}", folder, e.toString());
        }
    }
}
