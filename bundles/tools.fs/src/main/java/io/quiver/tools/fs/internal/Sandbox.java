package io.quiver.tools.fs.internal;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.SecureDirectoryStream;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributeView;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermission;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The roots one call may reach, and the only way the tools touch the file system.
 *
 * <p>A requested path is checked as text ({@link PathRules}), made absolute and normalized lexically, and
 * must lie inside an allowed root. It is then walked from the configured root that holds it, one name at a
 * time, each directory opened relative to the one before ({@code openat} through
 * {@link SecureDirectoryStream}) with {@code O_NOFOLLOW}: a name that is a symbolic link is never passed
 * through by the kernel. When the walk meets a link it reads the link's text, puts the target in place of
 * the walked part, checks the new path against the allowed roots and walks again from a root; more than
 * {@value #MAX_HOPS} links (a loop) end it. Files are opened, created, renamed and removed relative to the
 * directory handle the walk ends in, so what was checked is what is used: swapping a link into the path
 * after the check makes the open fail (and the walk start over), it never leads outside.
 */
final class Sandbox {

    /** Symbolic links one walk follows at most (Linux's own limit is 40). */
    static final int MAX_HOPS = 40;

    private static final LinkOption[] NOFOLLOW = {LinkOption.NOFOLLOW_LINKS};
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final Set<OpenOption> READ = Set.of(StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS);

    private final Settings settings;
    private final List<Path> allowed;
    private final Map<Path, Path> aliases;
    private final boolean narrowed;
    private final Path home;

    /**
     * @param settings the configured roots and limits
     * @param allowed the real paths of the roots this call may reach: the configured ones, or their
     *     intersection with the client's
     * @param aliases other spellings of roots (as configured or offered, with links in them) to their real paths
     * @param narrowed whether the client's roots narrowed the configured ones
     * @param home the user's home, for {@code ~}
     */
    Sandbox(Settings settings, List<Path> allowed, Map<Path, Path> aliases, boolean narrowed, Path home) {
        this.settings = settings;
        this.allowed = List.copyOf(allowed);
        this.aliases = Map.copyOf(aliases);
        this.narrowed = narrowed;
        this.home = home;
    }

    Settings settings() {
        return settings;
    }

    /** The real paths of the roots this call may reach. */
    List<Path> allowed() {
        return allowed;
    }

    /** Whether the client's roots narrowed the configured ones. */
    boolean narrowed() {
        return narrowed;
    }

    /** Whether the write tools may change a real path (by the deepest configured root holding it). */
    boolean writable(Path real) {
        Root root = governing(real);
        return root != null && root.writable();
    }

    /** Whether a normalized absolute path lies in (or is) an allowed root. */
    boolean isAllowed(Path path) {
        for (Path root : allowed) {
            if (path.startsWith(root)) {
                return true;
            }
        }
        return false;
    }

    /**
     * The absolute, lexically normalized path a request names: absolute paths as they are, relative ones
     * under the first allowed root that keeps them inside, {@code ~} as the user's home.
     *
     * @throws FsException when the text is not acceptable or the path lies outside the allowed roots
     */
    Path absolute(String requested) throws FsException {
        PathRules.check(requested);
        if (allowed.isEmpty()) {
            throw new FsException("No root is allowed: configure roots in etc/io.quiver.tools.fs.cfg.");
        }
        Path path;
        try {
            if (requested.equals("~")) {
                path = home;
            } else if (requested.startsWith("~/")) {
                path = home.resolve(requested.substring(2));
            } else {
                path = Path.of(requested);
            }
        } catch (InvalidPathException e) {
            throw new FsException("The path " + PathRules.show(requested) + " cannot be used here ("
                    + e.getReason() + ").");
        }
        Path absolute;
        if (path.isAbsolute()) {
            absolute = unalias(path.normalize());
        } else {
            absolute = null;
            for (Path root : allowed) {
                Path candidate = root.resolve(path).normalize();
                if (isAllowed(candidate)) {
                    absolute = candidate;
                    break;
                }
            }
            if (absolute == null) {
                throw outside(requested);
            }
        }
        if (!isAllowed(absolute)) {
            throw outside(requested);
        }
        return absolute;
    }

    private Path unalias(Path path) {
        for (Map.Entry<Path, Path> alias : aliases.entrySet()) {
            if (path.startsWith(alias.getKey()) && !isAllowed(path)) {
                return alias.getValue().resolve(alias.getKey().relativize(path)).normalize();
            }
        }
        return path;
    }

    private FsException outside(String requested) {
        return new FsException("Access denied: " + PathRules.show(requested) + " is outside the allowed roots ("
                + rootsText() + "). Use list_allowed_directories to see them.");
    }

    /** The allowed roots, for messages. */
    String rootsText() {
        return allowed.stream().map(Path::toString).collect(Collectors.joining(", "));
    }

    /** The deepest configured root holding a real path, or null. */
    Root governing(Path real) {
        Root best = null;
        for (Root root : settings.roots()) {
            if (root.contains(real) && (best == null || root.real().getNameCount() > best.real().getNameCount())) {
                best = root;
            }
        }
        return best;
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
        next = unalias(next.normalize()); // a link may name a root the way it was configured
        if (!isAllowed(next)) {
            throw new FsException("Access denied: " + PathRules.show(requested) + " goes through the symbolic link "
                    + directory.resolve(name) + ", which leads outside the allowed roots (" + rootsText() + ").");
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
                SecureDirectoryStream<Path> dir = openChild(entry.dir(), entry.name());
                if (dir != null) {
                    return new Dir(dir, entry.path());
                }
                if (attempt >= MAX_HOPS) {
                    throw changing(requested);
                }
            }
        }
    }

    /** Opens the root directory by its real path. */
    static SecureDirectoryStream<Path> openRoot(Path real) throws IOException, FsException {
        DirectoryStream<Path> stream = Files.newDirectoryStream(real);
        if (stream instanceof SecureDirectoryStream<Path> secure) {
            return secure;
        }
        stream.close();
        throw new FsException("This platform cannot open files relative to a directory handle (openat), which the"
                + " file tools need to stay inside their roots; they do nothing here.");
    }

    /**
     * Opens a subdirectory relative to its parent, never through a link; null when the name is no longer a
     * directory (a link or a file was swapped in since it was looked at).
     */
    static SecureDirectoryStream<Path> openChild(SecureDirectoryStream<Path> dir, String name) throws IOException {
        try {
            return dir.newDirectoryStream(Path.of(name), NOFOLLOW);
        } catch (NoSuchFileException e) {
            throw e;
        } catch (FileSystemException e) {
            return null; // ELOOP (a link now) or ENOTDIR (a file now)
        }
    }

    /** The attributes of a name in a directory, of the name itself (a link is not followed); null when absent. */
    static BasicFileAttributes stat(SecureDirectoryStream<Path> dir, String name) throws IOException {
        try {
            return dir.getFileAttributeView(Path.of(name), BasicFileAttributeView.class, NOFOLLOW).readAttributes();
        } catch (NoSuchFileException e) {
            return null;
        }
    }

    /** The attributes of an open directory itself. */
    static BasicFileAttributes attributes(SecureDirectoryStream<Path> dir) throws IOException {
        return dir.getFileAttributeView(BasicFileAttributeView.class).readAttributes();
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

    // ----------------------------------------------------------------- reading

    /**
     * Opens a regular file for reading: the entry the walk found, through its directory handle, never through a
     * link, after the hard-link rule.
     */
    SeekableByteChannel openRead(Entry entry) throws FsException, IOException {
        requireFile(entry);
        return openRead(entry.dir(), entry.name(), entry.path(), entry.attributes());
    }

    /**
     * Opens a regular file a walk found in a directory for reading, relative to the directory's handle and
     * never through a link, after the hard-link rule; the file opened must be the one that was looked at.
     */
    SeekableByteChannel openRead(SecureDirectoryStream<Path> dir, String name, Path path, BasicFileAttributes seen)
            throws FsException, IOException {
        if (!settings.readHardLinks()) {
            refuseHardLinks(dir, name, path, seen, "read");
        }
        SeekableByteChannel channel = dir.newByteChannel(Path.of(name), READ);
        BasicFileAttributes now = stat(dir, name);
        if (now == null || !Objects.equals(now.fileKey(), seen.fileKey()) || !now.isRegularFile()) {
            channel.close();
            throw new FsException(path + " changed while it was opened; try again.");
        }
        return channel;
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
    static void refuseHardLinks(SecureDirectoryStream<Path> dir, String name, Path path, BasicFileAttributes seen,
            String what) throws FsException, IOException {
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
            unix = Files.readAttributes(path, "unix:nlink,fileKey", NOFOLLOW);
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

    // ----------------------------------------------------------------- writing

    /** Fails unless a real path is under a writable root. */
    void requireWritable(Path real, String requested) throws FsException {
        Root root = governing(real);
        if (root == null || !root.writable()) {
            throw new FsException("Access denied: " + PathRules.show(requested) + " is in a read-only root ("
                    + (root == null ? rootsText() : root.real()) + "). An operator can allow writes by marking the root"
                    + " :rw in etc/io.quiver.tools.fs.cfg, e.g. roots = " + (root == null ? "/path" : root.real())
                    + ":rw");
        }
    }

    /**
     * Replaces (or creates) the entry's file with new content: written to a new file in the same directory,
     * then renamed over the name, all relative to the directory handle. A reader sees the old or the new
     * content, never a part; a hard link or a link elsewhere is never written through.
     *
     * @param expected the attributes the file had when it was read (an edit), or null: the write fails if the
     *     file changed since
     */
    void replace(Entry entry, byte[] content, BasicFileAttributes expected) throws FsException, IOException {
        Set<PosixFilePermission> permissions = null;
        if (entry.exists()) {
            requireFile(entry);
            refuseHardLinks(entry.dir(), entry.name(), entry.path(), entry.attributes(), "written");
            if (!Files.isWritable(entry.path())) {
                throw new FsException("Permission denied: " + entry.path() + " is read-only.");
            }
            try {
                permissions = entry.dir().getFileAttributeView(Path.of(entry.name()), PosixFileAttributeView.class,
                        NOFOLLOW).readAttributes().permissions();
            } catch (UnsupportedOperationException e) {
                permissions = null;
            }
        }
        Path temporary = Path.of(".quiver-" + HexFormat.of().formatHex(randomBytes()) + ".tmp");
        SecureDirectoryStream<Path> dir = entry.dir();
        Set<OpenOption> options = Set.of(StandardOpenOption.WRITE, StandardOpenOption.CREATE_NEW,
                LinkOption.NOFOLLOW_LINKS);
        boolean moved = false;
        try {
            try (SeekableByteChannel channel = dir.newByteChannel(temporary, options)) {
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
                    dir.getFileAttributeView(temporary, PosixFileAttributeView.class, NOFOLLOW)
                            .setPermissions(permissions);
                } catch (IOException | UnsupportedOperationException e) {
                    // not the owner: the new file keeps the default permissions
                }
            }
            if (expected != null) {
                BasicFileAttributes now = stat(dir, entry.name());
                if (now == null || !Objects.equals(now.fileKey(), expected.fileKey())
                        || !now.lastModifiedTime().equals(expected.lastModifiedTime()) || now.size() != expected.size()) {
                    throw new FsException(entry.path() + " changed while it was being edited; nothing was written."
                            + " Read it again and repeat the edit.");
                }
            } else if (!entry.exists() && stat(dir, entry.name()) != null) {
                // created meanwhile: check it as if it had been there
                BasicFileAttributes now = stat(dir, entry.name());
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

    /** Renames an entry to another (both walked, neither followed at its last name), relative to their handles. */
    void move(Entry source, Entry destination) throws IOException {
        source.dir().move(Path.of(source.name()), destination.dir(), Path.of(destination.name()));
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
        Path absolute = absolute(requested);
        int hops = 0;
        while (true) {
            if (!isAllowed(absolute)) {
                throw new FsException("Access denied: " + PathRules.show(requested)
                        + " goes through a symbolic link that leads outside the allowed roots (" + rootsText() + ").");
            }
            Root root = governing(absolute);
            if (root == null) {
                throw outside(requested);
            }
            if (maker != null) {
                requireWritable(absolute, requested);
            }
            List<String> names = names(root.real(), absolute);
            SecureDirectoryStream<Path> dir = openRoot(root.real());
            Path current = root.real();
            Path restart = null;
            try {
                for (int i = 0; i < names.size(); i++) {
                    String name = names.get(i);
                    boolean last = i == names.size() - 1;
                    BasicFileAttributes attributes = stat(dir, name);
                    if (attributes == null && maker != null) {
                        attributes = maker.make(root, dir, current, name);
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
                    SecureDirectoryStream<Path> child = openChild(dir, name);
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
                    Entry entry = new Entry(dir, null, current, attributes(dir), requested);
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
            if (!isAllowed(current.resolve(name))) {
                throw outside(requested);
            }
            created |= makeDirectory(root, dir, name, current.resolve(name));
            BasicFileAttributes attributes = stat(dir, name);
            if (attributes == null) {
                throw new FsException(current.resolve(name) + " disappeared right after it was created.");
            }
            return attributes;
        }
    }

    private boolean makeDirectory(Root root, SecureDirectoryStream<Path> dir, String name, Path where)
            throws FsException, IOException {
        String temporary = ".quiver-mkdir-" + HexFormat.of().formatHex(randomBytes());
        Files.createDirectory(root.real().resolve(temporary));
        try (SecureDirectoryStream<Path> rootDir = openRoot(root.real())) {
            try {
                if (stat(dir, name) != null) {
                    return false; // made meanwhile
                }
                rootDir.move(Path.of(temporary), dir, Path.of(name));
                return true;
            } catch (AtomicMoveNotSupportedException e) {
                throw new FsException("Cannot create " + where + ": it is on another file system than its root "
                        + root.real() + ". An operator can make that directory a root of its own.");
            } catch (FileSystemException e) {
                BasicFileAttributes there = stat(dir, name);
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

    private static byte[] randomBytes() {
        byte[] bytes = new byte[8];
        RANDOM.nextBytes(bytes);
        return bytes;
    }

    // ----------------------------------------------------------------- handles

    /**
     * Where a walk ended: the directory handle holding the entry and its name (or, for a root itself, the root's
     * handle and no name), the entry's real path and its attributes (null when it does not exist).
     */
    static final class Entry implements AutoCloseable {
        private SecureDirectoryStream<Path> dir;
        private final String name;
        private final Path path;
        private final BasicFileAttributes attributes;
        private final String requested;

        Entry(SecureDirectoryStream<Path> dir, String name, Path path, BasicFileAttributes attributes,
                String requested) {
            this.dir = dir;
            this.name = name;
            this.path = path;
            this.attributes = attributes;
            this.requested = requested;
        }

        SecureDirectoryStream<Path> dir() {
            return dir;
        }

        /** The entry's name in {@link #dir()}; null for a root itself. */
        String name() {
            return name;
        }

        Path path() {
            return path;
        }

        BasicFileAttributes attributes() {
            return attributes;
        }

        String requested() {
            return requested;
        }

        boolean exists() {
            return attributes != null;
        }

        boolean isRoot() {
            return name == null;
        }

        /** Hands the directory handle over to the caller (closing the entry then leaves it open). */
        SecureDirectoryStream<Path> take() {
            SecureDirectoryStream<Path> taken = dir;
            dir = null;
            return taken;
        }

        @Override
        public void close() throws IOException {
            if (dir != null) {
                dir.close();
                dir = null;
            }
        }
    }

    /** An open directory and its real path. */
    record Dir(SecureDirectoryStream<Path> stream, Path path) implements AutoCloseable {

        /** The names in it, as the directory lists them. */
        List<String> names() throws IOException {
            List<String> names = new ArrayList<>();
            try {
                for (Path entry : stream) {
                    names.add(entry.getFileName().toString());
                }
            } catch (java.nio.file.DirectoryIteratorException e) {
                throw e.getCause();
            }
            return names;
        }

        /** A name's attributes (of the name itself); null when it is gone. */
        BasicFileAttributes stat(String name) throws IOException {
            return Sandbox.stat(stream, name);
        }

        /** A subdirectory, opened relative to this one, never through a link; null when it is not one now. */
        Dir child(String name) throws IOException {
            try {
                SecureDirectoryStream<Path> child = openChild(stream, name);
                return child == null ? null : new Dir(child, path.resolve(name));
            } catch (NoSuchFileException e) {
                return null;
            }
        }

        @Override
        public void close() throws IOException {
            stream.close();
        }
    }
}
