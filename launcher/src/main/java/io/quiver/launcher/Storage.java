package io.quiver.launcher;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import org.slf4j.LoggerFactory;

/**
 * The framework's storage folder: either one the user chose (kept between runs, and held by one server at a
 * time) or a fresh temporary folder, deleted when Quiver stops.
 */
final class Storage {

    /** The file a chosen storage's server holds a lock on while it runs. */
    static final String LOCK = "quiver.lock";

    private final Path folder;
    private final boolean temporary;
    private final FileChannel lock;

    private Storage(Path folder, boolean temporary, FileChannel lock) {
        this.folder = folder;
        this.temporary = temporary;
        this.lock = lock;
    }

    /**
     * The storage to start with: a fresh temporary one, or the chosen folder once this process holds its lock.
     * Felix's own cache lock does not keep a second server out (its failure to lock is ignored), and two servers on
     * one storage delete each other's bundles.
     *
     * @throws IllegalStateException when another server (or another Quiver of this process) holds the folder
     */
    static Storage of(Path chosen) throws IOException {
        if (chosen == null) {
            return new Storage(Files.createTempDirectory("quiver-"), true, null);
        }
        Path folder = chosen.toAbsolutePath().normalize();
        Files.createDirectories(folder);
        FileChannel channel = FileChannel.open(folder.resolve(LOCK), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        FileLock held;
        try {
            held = channel.tryLock();
        } catch (OverlappingFileLockException e) {
            held = null;
        } catch (IOException | RuntimeException e) {
            channel.close();
            throw e;
        }
        if (held == null) {
            channel.close();
            throw new IllegalStateException("another Quiver server uses the storage " + folder + " (it holds " + LOCK
                    + "); give each server its own --data folder");
        }
        return new Storage(folder, false, channel);
    }

    /** A temporary storage in a given folder (for tests). */
    static Storage temporaryAt(Path folder) {
        return new Storage(folder, true, null);
    }

    Path folder() {
        return folder;
    }

    boolean temporary() {
        return temporary;
    }

    /** Deletes a temporary folder; lets go of a chosen one (its lock), keeping it. */
    void release() {
        if (!temporary) {
            try {
                lock.close();
            } catch (IOException e) {
                // the process ends, or the next start finds it free anyway
            }
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
