package io.quiver.tools.fs.internal;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.SecureDirectoryStream;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.EnumSet;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Reading, replacing and moving the files a {@link Sandbox} walk found: always relative to the directory handle
 * the walk ended in and never through a link, with the hard-link rule, and checked against what the walk saw so
 * that a file swapped in meanwhile is never used.
 */
final class FileAccess {

    private static final Set<OpenOption> READ = Set.of(StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS);

    private FileAccess() {
    }

    /**
     * Opens a regular file a walk found in a directory for reading, relative to the directory's handle and
     * never through a link, after the hard-link rule; the file opened must be the one that was looked at.
     *
     * <p>The JDK opens with a blocking {@code open()} and has no {@code O_NONBLOCK}: a FIFO at the name would block
     * the thread, uninterruptibly, until some process writes to it (and the directory handle cannot be closed
     * meanwhile). So the name is looked at again right before the open, through the handle, and must still be the
     * regular file that was seen; only a FIFO swapped in between that look and the open itself can still block
     * (docs/tools-fs.md, other limits). After the open the name must still be that file, and the opened channel
     * seekable (a pipe or a socket is not; the JDK offers no {@code fstat} of an opened channel's type). Whatever
     * fails after the open closes the channel.
     *
     * @param readHardLinks whether a file with more than one hard link may be read
     */
    static SeekableByteChannel openRead(SecureDirectoryStream<Path> dir, String name, Path path,
            BasicFileAttributes seen, boolean readHardLinks) throws FsException, IOException {
        if (!readHardLinks) {
            refuseHardLinks(path, seen, "read");
        }
        requireSame(Handles.stat(dir, name), seen, path);
        SeekableByteChannel channel = dir.newByteChannel(Path.of(name), READ);
        boolean checked = false;
        try {
            requireSame(Handles.stat(dir, name), seen, path);
            try {
                channel.position();
            } catch (IOException e) {
                throw new FsException(path + " is not a regular file now (a pipe or a socket); it was not read.");
            }
            checked = true;
            return channel;
        } finally {
            if (!checked) {
                channel.close();
            }
        }
    }

    /** Fails unless a name is (still) the regular file that was seen. */
    private static void requireSame(BasicFileAttributes now, BasicFileAttributes seen, Path path) throws FsException {
        if (now == null || !Objects.equals(now.fileKey(), seen.fileKey()) || !now.isRegularFile()) {
            throw new FsException(path + " changed while it was opened; try again.");
        }
    }

    /** Fails unless the entry is an existing regular file, with a message saying what it is instead. */
    static void requireFile(Entry entry) throws FsException {
        if (!entry.exists()) {
            throw new FsException("No such file: " + entry.path() + ".");
        }
        BasicFileAttributes a = entry.attributes();
        if (a.isDirectory()) {
            throw new FsException(entry.path() + " is a directory (use list_directory or directory_tree).");
        }
        if (!a.isRegularFile()) {
            throw new FsException(entry.path() + " is not a regular file (a device, socket or pipe).");
        }
    }

    /**
     * Refuses a regular file with more than one hard link: its other names may be outside every root, which
     * cannot be known. (The link count is read by path and tied to the entry by its file key.)
     */
    static void refuseHardLinks(Path path, BasicFileAttributes seen, String what) throws FsException, IOException {
        int n = links(path, seen);
        if (n > 1) {
            throw new FsException("Access denied: " + path + " has " + n + " hard links, and the others may"
                    + " be outside the allowed roots, so it is not " + what + " here."
                    + ("read".equals(what) ? " (An operator can allow reading such files with readHardLinks = true"
                            + " in etc/io.quiver.tools.fs.cfg.)" : ""));
        }
    }

    /**
     * The hard link count of the file a walk found (read by path, tied to the file by its key; 1 when the
     * platform has no count).
     *
     * @throws FsException when the path reaches another file than the walk found (swapped meanwhile)
     */
    static int links(Path path, BasicFileAttributes seen) throws FsException, IOException {
        Map<String, Object> unix;
        try {
            unix = Files.readAttributes(path, "unix:nlink,fileKey", Handles.NOFOLLOW);
        } catch (UnsupportedOperationException | IllegalArgumentException e) {
            return 1;
        } catch (NoSuchFileException e) {
            throw new FsException(path + " changed while it was checked; try again.");
        }
        if (!Objects.equals(unix.get("fileKey"), seen.fileKey())) {
            throw new FsException(path + " changed while it was checked; try again.");
        }
        return unix.get("nlink") instanceof Integer n ? n : 1;
    }

    /**
     * Replaces (or creates) the entry's file with new content: written to a new file in the same directory,
     * then renamed over the name, all relative to the directory handle. A reader sees the old or the new
     * content, never a part; a hard link or a link elsewhere is never written through.
     *
     * @param expected the attributes the file had when it was read (an edit), or null: the write fails if the
     *     file changed since
     */
    static void replace(Entry entry, byte[] content, BasicFileAttributes expected) throws FsException, IOException {
        Set<PosixFilePermission> permissions = null;
        if (entry.exists()) {
            requireFile(entry);
            refuseHardLinks(entry.path(), entry.attributes(), "written");
            if (!Files.isWritable(entry.path())) {
                throw new FsException("Permission denied: " + entry.path() + " is read-only.");
            }
            try {
                permissions = entry.dir().getFileAttributeView(Path.of(entry.name()), PosixFileAttributeView.class,
                        Handles.NOFOLLOW).readAttributes().permissions();
            } catch (UnsupportedOperationException e) {
                permissions = null;
            }
        }
        Path temporary = Path.of(".quiver-" + Handles.randomHex() + ".tmp");
        SecureDirectoryStream<Path> dir = entry.dir();
        Set<OpenOption> options = Set.of(StandardOpenOption.WRITE, StandardOpenOption.CREATE_NEW,
                LinkOption.NOFOLLOW_LINKS);
        boolean moved = false;
        try {
            // owner-only until the file's own permissions are set: a file of 0600 is never readable by others as its
            // new content is written (nor after a crash, which leaves the temporary file behind)
            FileAttribute<?>[] ownerOnly = permissions == null ? new FileAttribute<?>[0] : new FileAttribute<?>[] {
                PosixFilePermissions.asFileAttribute(EnumSet.of(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE))};
            try (SeekableByteChannel channel = dir.newByteChannel(temporary, options, ownerOnly)) {
                java.nio.ByteBuffer buffer = java.nio.ByteBuffer.wrap(content);
                while (buffer.hasRemaining()) {
                    channel.write(buffer);
                }
                if (channel instanceof FileChannel file) {
                    file.force(true);
                }
            }
            if (permissions != null) {
                try {
                    dir.getFileAttributeView(temporary, PosixFileAttributeView.class, Handles.NOFOLLOW)
                            .setPermissions(permissions);
                } catch (IOException | UnsupportedOperationException e) {
                    // not the owner: the new file keeps the default permissions
                }
            }
            if (expected != null) {
                BasicFileAttributes now = Handles.stat(dir, entry.name());
                if (now == null || !Objects.equals(now.fileKey(), expected.fileKey())
                        || !now.lastModifiedTime().equals(expected.lastModifiedTime()) || now.size() != expected.size()) {
                    throw new FsException(entry.path() + " changed while it was being edited; nothing was written."
                            + " Read it again and repeat the edit.");
                }
            } else if (!entry.exists() && Handles.stat(dir, entry.name()) != null) {
                // created meanwhile: check it as if it had been there
                BasicFileAttributes now = Handles.stat(dir, entry.name());
                if (now != null && !now.isRegularFile()) {
                    throw new FsException(entry.path() + " appeared meanwhile and is not a regular file; nothing"
                            + " was written.");
                }
            }
            dir.move(temporary, dir, Path.of(entry.name()));
            moved = true;
        } finally {
            if (!moved) {
                try {
                    dir.deleteFile(temporary);
                } catch (IOException e) {
                    // never created, or gone
                }
            }
        }
    }

    /**
     * Renames an entry to another (both walked, neither followed at its last name), relative to their handles.
     *
     * <p>{@code renameat} replaces what is at the destination: the caller looks that nothing is there first, and
     * an entry created in between is replaced (a directory source can replace only an empty directory). Java 17
     * offers no move that refuses to replace through directory handles (no {@code renameat2(RENAME_NOREPLACE)}, no
     * {@code linkat} relative to a handle; {@code Files.createLink} works by path, which a swapped link could
     * redirect outside the roots): docs/tools-fs.md, other limits.
     */
    static void move(Entry source, Entry destination) throws IOException {
        source.dir().move(Path.of(source.name()), destination.dir(), Path.of(destination.name()));
    }
}
