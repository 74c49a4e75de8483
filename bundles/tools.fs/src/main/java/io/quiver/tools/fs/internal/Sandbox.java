package io.quiver.tools.fs.internal;

import java.io.IOException;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SecureDirectoryStream;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;

/**
 * The roots one call may reach, and the only way the tools touch the file system.
 *
 * <p>A requested path is checked as text ({@link PathRules}), made absolute and normalized lexically, and
 * must lie inside an allowed root ({@link AllowedRoots}). It is then walked from the configured root that holds
 * it, one name at a time, each directory opened relative to the one before ({@code openat} through
 * {@link SecureDirectoryStream}) with {@code O_NOFOLLOW}: a name that is a symbolic link is never passed
 * through by the kernel. When the walk meets a link it reads the link's text, puts the target in place of
 * the walked part, checks the new path against the allowed roots and walks again from a root; more than
 * {@value #MAX_HOPS} links (a loop) end it. Files are opened, created, renamed and removed relative to the
 * directory handle the walk ends in ({@link FileAccess}), so what was checked is what is used: swapping a link
 * into the path after the check makes the open fail (and the walk start over), it never leads outside.
 */
final class Sandbox {

    /** Symbolic links one walk follows at most (Linux's own limit is 40). */
    static final int MAX_HOPS = 40;

    private final AllowedRoots roots;

    Sandbox(AllowedRoots roots) {
        this.roots = roots;
    }

    /** The roots this call may reach. */
    AllowedRoots roots() {
        return roots;
    }

    Settings settings() {
        return roots.settings();
    }

    // ----------------------------------------------------------------- the walk

    /**
     * Walks to the entry a request names, following symbolic links inside the allowed roots (all of them, or
     * all but the last name when {@code followLast} is false). The entry need not exist; its directory must.
     *
     * @throws FsException when the path or a link in it leads outside, loops, or a directory on the way is
     *     missing or not a directory
     */
    Entry locate(String requested, boolean followLast) throws FsException, IOException {
        return walk(requested, followLast, null);
    }

    /** Opens a directory a request names (links followed inside the roots). */
    Dir openDirectory(String requested) throws FsException, IOException {
        for (int attempt = 0; ; attempt++) {
            try (Entry entry = locate(requested, true)) {
                if (entry.isRoot()) {
                    return new Dir(entry.take(), entry.path());
                }
                if (!entry.exists()) {
                    throw new FsException("No such directory: " + entry.path() + ".");
                }
                if (!entry.attributes().isDirectory()) {
                    throw new FsException("Not a directory: " + entry.path() + ".");
                }
                SecureDirectoryStream<Path> dir = Handles.openChild(entry.dir(), entry.name());
                if (dir != null) {
                    return new Dir(dir, entry.path());
                }
                if (attempt >= MAX_HOPS) {
                    throw changing(requested);
                }
            }
        }
    }

    /**
     * Creates a directory and its missing parents (as {@code mkdir -p}), each one inside the allowed roots.
     *
     * <p>The JDK has no {@code mkdirat}, so a new directory is made in the configured root by its real path (which
     * no request can change) under a random name, then renamed into place relative to the walked directory
     * handle ({@code renameat}): it can only ever appear where the walk checked.
     *
     * @return where the directory is (its real path) and whether this call made it
     */
    Made createDirectories(String requested) throws FsException, IOException {
        Maker maker = new Maker(requested);
        try (Entry reached = walk(requested, true, maker)) {
            return new Made(reached.path(), maker.created);
        }
    }

    /** A directory {@link #createDirectories} reached: its real path, and whether it was made. */
    record Made(Path path, boolean created) {
    }

    /**
     * The one walk from a root to what a request names: one name at a time, each directory opened relative to
     * the one before and never through a link; a link met is followed (the last name's only when
     * {@code followLast}) by walking its target again from a root, inside the allowed roots only.
     *
     * @param maker null to find an entry: the walk ends at the last name (the handle of the directory holding it,
     *     and the name), whether it exists or not; else every name must be under a writable root, a missing one
     *     is made, and the walk ends inside the last directory (its handle, and no name)
     */
    private Entry walk(String requested, boolean followLast, Maker maker) throws FsException, IOException {
        Path absolute = roots.absolute(requested);
        int hops = 0;
        while (true) {
            if (roots.isExcluded(absolute)) {
                throw roots.excluded(requested);
            }
            if (!roots.isAllowed(absolute)) {
                throw new FsException("Access denied: " + PathRules.show(requested)
                        + " goes through a symbolic link that leads outside the allowed roots (" + roots.rootsText()
                        + ").");
            }
            Root root = roots.governing(absolute);
            if (root == null) {
                throw roots.outside(requested);
            }
            if (maker != null) {
                roots.requireWritable(absolute, requested);
            }
            List<String> names = names(root.real(), absolute);
            SecureDirectoryStream<Path> dir = Handles.openRoot(root.real());
            Path current = root.real();
            Path restart = null;
            try {
                for (int i = 0; i < names.size(); i++) {
                    String name = names.get(i);
                    boolean last = i == names.size() - 1;
                    BasicFileAttributes attributes = Handles.stat(dir, name);
                    if (attributes == null && maker != null) {
                        attributes = maker.make(root, dir, current, name);
                    }
                    if (roots.isExcluded(attributes)) {
                        throw roots.excluded(requested); // the same directory by another spelling
                    }
                    if (attributes != null && attributes.isSymbolicLink() && (!last || followLast)) {
                        if (++hops > MAX_HOPS) {
                            throw loop(requested);
                        }
                        restart = follow(current, name, names.subList(i + 1, names.size()), requested);
                        break;
                    }
                    if (last && maker == null) {
                        Entry entry = new Entry(dir, name, current.resolve(name), attributes, requested);
                        dir = null;
                        return entry;
                    }
                    if (attributes == null) {
                        throw new FsException("Parent directory does not exist: " + current.resolve(name)
                                + " (in " + PathRules.show(requested) + ").");
                    }
                    if (!attributes.isDirectory()) {
                        Path path = current.resolve(name);
                        throw new FsException(maker == null
                                ? "Not a directory: " + path + " (in " + PathRules.show(requested) + ")."
                                : path + " exists and is not a directory.");
                    }
                    SecureDirectoryStream<Path> child = Handles.openChild(dir, name);
                    if (child == null) {
                        // it changed between the look and the open (a link swapped in): walk again
                        if (++hops > MAX_HOPS) {
                            throw changing(requested);
                        }
                        restart = absolute;
                        break;
                    }
                    dir.close();
                    dir = child;
                    current = current.resolve(name);
                }
                if (restart == null) {
                    // every name walked into: a root itself, or (making) the last directory
                    Entry entry = new Entry(dir, null, current, Handles.attributes(dir), requested);
                    dir = null;
                    return entry;
                }
            } finally {
                if (dir != null) {
                    dir.close();
                }
            }
            absolute = restart;
        }
    }

    /** What makes the missing directories of one {@link #createDirectories} walk, and whether it made any. */
    private final class Maker {
        private final String requested;
        private boolean created;

        Maker(String requested) {
            this.requested = requested;
        }

        /** Makes a missing name a directory (inside the allowed roots only); its attributes now. */
        BasicFileAttributes make(Root root, SecureDirectoryStream<Path> dir, Path current, String name)
                throws FsException, IOException {
            if (roots.isExcluded(current.resolve(name))) {
                throw roots.excluded(requested);
            }
            if (!roots.isAllowed(current.resolve(name))) {
                throw roots.outside(requested);
            }
            created |= makeDirectory(root, dir, name, current.resolve(name));
            BasicFileAttributes attributes = Handles.stat(dir, name);
            if (attributes == null) {
                throw new FsException(current.resolve(name) + " disappeared right after it was created.");
            }
            return attributes;
        }
    }

    private static boolean makeDirectory(Root root, SecureDirectoryStream<Path> dir, String name, Path where)
            throws FsException, IOException {
        String temporary = ".quiver-mkdir-" + Handles.randomHex();
        Files.createDirectory(root.real().resolve(temporary));
        try (SecureDirectoryStream<Path> rootDir = Handles.openRoot(root.real())) {
            try {
                if (Handles.stat(dir, name) != null) {
                    return false; // made meanwhile
                }
                rootDir.move(Path.of(temporary), dir, Path.of(name));
                return true;
            } catch (AtomicMoveNotSupportedException e) {
                throw new FsException("Cannot create " + where + ": it is on another file system than its root "
                        + root.real() + ". An operator can make that directory a root of its own.");
            } catch (FileSystemException e) {
                BasicFileAttributes there = Handles.stat(dir, name);
                if (there != null) {
                    return false; // made meanwhile (the rename found it there); what it is is checked next
                }
                throw e;
            } finally {
                try {
                    rootDir.deleteDirectory(Path.of(temporary));
                } catch (IOException e) {
                    // moved into place
                }
            }
        }
    }

    /** The path a link stands for, with the rest of the walk after it, normalized. */
    private Path follow(Path directory, String name, List<String> rest, String requested)
            throws FsException, IOException {
        Path target;
        try {
            // the link's text only: whatever it says is walked again from a root, confined like any request
            target = Files.readSymbolicLink(directory.resolve(name));
        } catch (NoSuchFileException | java.nio.file.NotLinkException e) {
            target = Path.of(name); // changed meanwhile: walk the same path again
        }
        Path next = directory.resolve(target);
        for (String r : rest) {
            next = next.resolve(r);
        }
        next = roots.unalias(next.normalize()); // a link may name a root the way it was configured
        if (roots.isExcluded(next)) {
            throw roots.excluded(requested);
        }
        if (!roots.isAllowed(next)) {
            throw new FsException("Access denied: " + PathRules.show(requested) + " goes through the symbolic link "
                    + directory.resolve(name) + ", which leads outside the allowed roots (" + roots.rootsText() + ").");
        }
        return next;
    }

    private static FsException loop(String requested) {
        return new FsException("Too many levels of symbolic links in " + PathRules.show(requested)
                + " (more than " + MAX_HOPS + "; a loop?).");
    }

    private static FsException changing(String requested) {
        return new FsException(PathRules.show(requested) + " kept changing while it was opened; try again.");
    }

    private static List<String> names(Path root, Path absolute) {
        List<String> names = new ArrayList<>();
        if (absolute.equals(root)) {
            return names;
        }
        for (Path name : root.relativize(absolute)) {
            names.add(name.toString());
        }
        return names;
    }

    // ----------------------------------------------------------------- files the walk found

    /**
     * Opens a regular file for reading: the entry the walk found, through its directory handle, never through a
     * link, after the hard-link rule.
     */
    SeekableByteChannel openRead(Entry entry) throws FsException, IOException {
        FileAccess.requireFile(entry);
        return openRead(entry.dir(), entry.name(), entry.path(), entry.attributes());
    }

    /**
     * Opens a regular file a walk found in a directory for reading, relative to the directory's handle and
     * never through a link, after the hard-link rule; the file opened must be the one that was looked at.
     */
    SeekableByteChannel openRead(SecureDirectoryStream<Path> dir, String name, Path path, BasicFileAttributes seen)
            throws FsException, IOException {
        return FileAccess.openRead(dir, name, path, seen, settings().readHardLinks());
    }

    /** Replaces (or creates) the entry's file with new content: see {@link FileAccess#replace}. */
    void replace(Entry entry, byte[] content, BasicFileAttributes expected) throws FsException, IOException {
        FileAccess.replace(entry, content, expected);
    }

    /** Renames an entry to another (both walked, neither followed at its last name), relative to their handles. */
    void move(Entry source, Entry destination) throws IOException {
        FileAccess.move(source, destination);
    }
}
