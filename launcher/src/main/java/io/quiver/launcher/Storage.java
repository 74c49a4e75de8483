package io.quiver.launcher;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileSystems;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.UserPrincipal;
import java.util.EnumSet;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.LoggerFactory;

/**
 * The framework's storage folder: either one the user chose (kept between runs, and held by one server at a
 * time) or a fresh temporary folder, deleted when Quiver stops.
 */
final class Storage {

    /** The file a chosen storage's server holds a lock on while it runs. */
    static final String LOCK = "quiver.lock";
    /**
     * The file a temporary storage's server holds a lock on while it runs: a start sweeps away the temporary storages
     * whose lock nobody holds (left by killed servers). A chosen storage never has it, so it is never swept.
     */
    static final String TEMPORARY_LOCK = "quiver-temporary.lock";

    /**
     * The lock files this process holds: Java's file locks belong to the process, and closing any channel on a
     * locked file lets go of the lock another channel of the process holds, so a file held here is never opened again.
     */
    private static final Set<Path> HELD = ConcurrentHashMap.newKeySet();

    private final Path folder;
    private final boolean temporary;
    private final FileChannel lock;

    private Storage(Path folder, boolean temporary, FileChannel lock) {
        this.folder = folder;
        this.temporary = temporary;
        this.lock = lock;
    }

    /** The file this storage's server holds its lock on. */
    private Path lockFile() {
        return folder.resolve(temporary ? TEMPORARY_LOCK : LOCK);
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
        FileChannel channel = lock(folder.resolve(LOCK));
        if (channel == null) {
            throw new IllegalStateException("another Quiver server uses the storage " + folder + " (it holds " + LOCK
                    + "); give each server its own --data folder");
        }
        return new Storage(folder, false, channel);
    }

    /**
     * A fresh temporary storage in {@code parent} (null: the JDK's temporary folder), owner-only, held too, so that a
     * later start can tell a folder left by a killed server from one in use. Where the file system cannot lock, the
     * storage works unheld (and no start sweeps it away).
     */
    static Storage temporaryIn(Path parent) throws IOException {
        Path folder = parent == null ? Files.createTempDirectory(TEMPORARY_PREFIX)
                : Files.createTempDirectory(parent, TEMPORARY_PREFIX);
        Path lockFile = folder.resolve(TEMPORARY_LOCK);
        FileChannel channel = null;
        try {
            channel = lock(lockFile);
        } catch (IOException | RuntimeException e) {
            LoggerFactory.getLogger(Storage.class).debug("The temporary storage {} is not locked: {}", folder, e.toString());
            Files.deleteIfExists(lockFile);
        }
        return new Storage(folder, true, channel);
    }

    /** The prefix of temporary storage folders' names. */
    static final String TEMPORARY_PREFIX = "quiver-";

    /**
     * The lock file, created if missing and locked by this process; null when a process (this one too) holds it
     * already.
     */
    private static FileChannel lock(Path lockFile) throws IOException {
        Path key = lockFile.toAbsolutePath().normalize();
        if (!HELD.add(key)) {
            return null; // this process holds it: opening it again would let go of that lock when closed
        }
        FileChannel channel = null;
        try {
            channel = FileChannel.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
            FileLock held;
            try {
                held = channel.tryLock();
            } catch (OverlappingFileLockException e) {
                held = null;
            }
            if (held != null) {
                return channel;
            }
            channel.close();
            HELD.remove(key);
            return null;
        } catch (IOException | RuntimeException e) {
            if (channel != null) {
                channel.close();
            }
            HELD.remove(key);
            throw e;
        }
    }

    private static void unlock(FileChannel channel, Path lockFile) throws IOException {
        try {
            channel.close();
        } finally {
            HELD.remove(lockFile.toAbsolutePath().normalize());
        }
    }

    /**
     * Deletes the temporary storages beside this one that servers killed before they could delete them left
     * behind (about 30 MB each): a folder named like one, owned by this user and closed to everyone else, holding a
     * temporary storage's lock file that no process holds and that is older than {@code minAgeMs} (a server that
     * has just made its folder has not locked it yet). Chosen storages ({@code --data}), other users' folders and
     * folders without that file are left alone.
     *
     * @return how many were deleted
     */
    int sweepLeftOvers(long minAgeMs) {
        // without POSIX owners and permissions nothing tells this user's own folders, closed to others, apart
        if (!temporary || folder.getParent() == null
                || !FileSystems.getDefault().supportedFileAttributeViews().contains("posix")) {
            return 0;
        }
        int deleted = 0;
        long before = System.currentTimeMillis() - minAgeMs;
        try (DirectoryStream<Path> siblings = Files.newDirectoryStream(folder.getParent(), TEMPORARY_PREFIX + "*")) {
            UserPrincipal me = Files.getOwner(folder); // this process made it
            for (Path sibling : siblings) {
                try {
                    if (sweep(sibling, me, before)) {
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

    /** Deletes one folder if it is a temporary storage of this user whose server is gone; whether it did. */
    private boolean sweep(Path sibling, UserPrincipal me, long before) throws IOException {
        Path lockFile = sibling.resolve(TEMPORARY_LOCK);
        if (sibling.equals(folder) || !ownedAlone(sibling, me) || !Files.isRegularFile(lockFile, LinkOption.NOFOLLOW_LINKS)
                || Files.getLastModifiedTime(lockFile, LinkOption.NOFOLLOW_LINKS).toMillis() > before) {
            return false;
        }
        FileChannel left = lock(lockFile);
        if (left == null) {
            return false; // a running server's
        }
        deleteHeld(sibling, left, lockFile);
        return true;
    }

    /**
     * Whether a folder (not a link) belongs to {@code me} and nobody else may change what is in it, as the temporary
     * storages this launcher makes: no other user can then swap a folder inside it for a link while it is deleted.
     */
    private static boolean ownedAlone(Path dir, UserPrincipal me) throws IOException {
        PosixFileAttributes attributes = Files.readAttributes(dir, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        return attributes.isDirectory() && attributes.owner().equals(me)
                && attributes.permissions().stream().noneMatch(OTHERS::contains);
    }

    private static final Set<PosixFilePermission> OTHERS = EnumSet.of(PosixFilePermission.GROUP_WRITE,
            PosixFilePermission.GROUP_READ, PosixFilePermission.GROUP_EXECUTE, PosixFilePermission.OTHERS_WRITE,
            PosixFilePermission.OTHERS_READ, PosixFilePermission.OTHERS_EXECUTE);

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
                unlock(lock, lockFile());
            } catch (IOException e) {
                // the process ends, or the next start finds it free anyway
            }
            return;
        }
        try {
            deleteHeld(folder, lock, lockFile());
        } catch (IOException e) {
            LoggerFactory.getLogger(Storage.class).warn("Cannot delete {}: {}", folder, e.toString());
        }
    }

    /**
     * Deletes a temporary storage whose lock this process holds ({@code held}, or none): the lock file last, let go of
     * only once the rest is gone, so that until then no other start takes the folder for its own.
     */
    private static void deleteHeld(Path root, FileChannel held, Path lockFile) throws IOException {
        try {
            delete(root, lockFile);
        } finally {
            if (held != null) {
                unlock(held, lockFile);
            }
        }
        Files.deleteIfExists(lockFile);
        Files.deleteIfExists(root);
    }

    /** Deletes a folder and everything in it, never following a link. */
    static void deleteTree(Path root) throws IOException {
        delete(root, null);
        Files.deleteIfExists(root);
    }

    /** Deletes everything in {@code root} (never following a link) but the file {@code kept} directly in it, if any. */
    private static void delete(Path root, Path kept) throws IOException {
        Files.walkFileTree(root, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                if (!file.equals(kept)) {
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
