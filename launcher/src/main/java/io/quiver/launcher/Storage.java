package io.quiver.launcher;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
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
            return temporaryIn(null);
        }
        Path folder = chosen.toAbsolutePath().normalize();
        Files.createDirectories(folder);
        FileChannel channel = lock(folder);
        if (channel == null) {
            throw new IllegalStateException("another Quiver server uses the storage " + folder + " (it holds " + LOCK
                    + "); give each server its own --data folder");
        }
        return new Storage(folder, false, channel);
    }

    /**
     * A fresh temporary storage in {@code parent} (null: the JDK's temporary folder), held too, so that a later
     * start can tell a folder left by a killed server from one in use.
     */
    static Storage temporaryIn(Path parent) throws IOException {
        Path folder = parent == null ? Files.createTempDirectory(TEMPORARY_PREFIX)
                : Files.createTempDirectory(parent, TEMPORARY_PREFIX);
        return new Storage(folder, true, lock(folder));
    }

    /** The prefix of temporary storage folders' names. */
    static final String TEMPORARY_PREFIX = "quiver-";

    /** The folder's lock file, locked by this process; null when a process (this one too) holds it already. */
    private static FileChannel lock(Path folder) throws IOException {
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
            return null;
        }
        return channel;
    }

    /**
     * Deletes the temporary storages beside this one that servers killed before they could delete them left
     * behind (about 30 MB each): a folder named like one, holding a lock file no process holds, that is older than
     * {@code minAgeMs} (a server that has just made its folder has not locked it yet). Folders without a lock file
     * (made by another program, or by a version before the lock) are left alone.
     *
     * @return how many were deleted
     */
    int sweepLeftOvers(long minAgeMs) {
        if (!temporary || folder.getParent() == null) {
            return 0;
        }
        int deleted = 0;
        long before = System.currentTimeMillis() - minAgeMs;
        try (DirectoryStream<Path> siblings = Files.newDirectoryStream(folder.getParent(), TEMPORARY_PREFIX + "*")) {
            for (Path sibling : siblings) {
                try {
                    if (sweep(sibling, before)) {
                        deleted++;
                    }
                } catch (IOException | RuntimeException e) {
                    // another user's, or going away meanwhile: not ours to sweep
                    LoggerFactory.getLogger(Storage.class).debug("Left {} alone: {}", sibling, e.toString());
                }
            }
        } catch (IOException | RuntimeException e) {
            LoggerFactory.getLogger(Storage.class).debug("Looking for left-over storages beside {}: {}", folder, e.toString());
        }
        return deleted;
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
            delete(folder, LOCK);
            if (lock != null) {
                lock.close();
            }
            Files.deleteIfExists(folder.resolve(LOCK));
            Files.deleteIfExists(folder);
        } catch (IOException e) {
            LoggerFactory.getLogger(Storage.class).warn("Cannot delete {}: {}", folder, e.toString());
        }
    }

    /** Deletes one folder if it is a temporary storage whose server is gone; whether it did. */
    private boolean sweep(Path sibling, long before) throws IOException {
        Path lockFile = sibling.resolve(LOCK);
        if (sibling.equals(folder) || !Files.isDirectory(sibling, LinkOption.NOFOLLOW_LINKS)
                || !Files.isRegularFile(lockFile, LinkOption.NOFOLLOW_LINKS)
                || Files.getLastModifiedTime(lockFile).toMillis() > before) {
            return false;
        }
        FileChannel left = lock(sibling);
        if (left == null) {
            return false; // a running server's
        }
        try {
            delete(sibling, LOCK); // the lock file last: until then no other start takes the folder for its own
        } finally {
            left.close();
        }
        Files.deleteIfExists(lockFile);
        Files.deleteIfExists(sibling);
        return true;
    }

    /** Deletes everything in {@code root} but the file {@code kept} directly in it (and so {@code root} itself). */
    private static void delete(Path root, String kept) throws IOException {
        Path keep = root.resolve(kept);
        Files.walkFileTree(root, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                if (!file.equals(keep)) {
                    Files.deleteIfExists(file);
                }
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult postVisitDirectory(Path dir, IOException e) throws IOException {
                if (!dir.equals(root)) {
                    Files.deleteIfExists(dir);
                }
                return FileVisitResult.CONTINUE;
            }
        });
    }
}
