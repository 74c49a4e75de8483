package io.quiver.tools.fs.internal;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The roots one call may reach, as paths: whether a path lies inside them, the absolute path a request names, the
 * configured root that governs a path and whether it may be written. Path arithmetic only, nothing here touches
 * the file system: the {@link Sandbox} walk does, and asks this at every step.
 */
final class AllowedRoots {

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
    AllowedRoots(Settings settings, List<Path> allowed, Map<Path, Path> aliases, boolean narrowed, Path home) {
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

    /** Whether a normalized absolute path lies in (or is) an allowed root, and not in an excluded folder. */
    boolean isAllowed(Path path) {
        if (isExcluded(path)) {
            return false;
        }
        for (Path root : allowed) {
            if (path.startsWith(root)) {
                return true;
            }
        }
        return false;
    }

    /** Whether a normalized absolute path lies in (or is) a folder no tool reaches (the server's own, or excluded). */
    boolean isExcluded(Path path) {
        for (Path folder : settings.excluded()) {
            if (path.startsWith(folder)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether an entry (its path, and its own attributes, links not followed) is, or holds, a folder no tool reaches:
     * moved, it would take that folder with it, or (a link on the way to it) leave the way free for another.
     */
    boolean holdsExcluded(Path path, BasicFileAttributes own) {
        if (own != null && own.fileKey() != null && settings.holderKeys().contains(own.fileKey())) {
            return true;
        }
        for (Path folder : settings.excluded()) {
            if (folder.startsWith(path)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether an entry's attributes (as the walk looked at it, links not followed) are those of a folder no tool
     * reaches: the same directory by another spelling (a letter's case on a file system that ignores it, say).
     */
    boolean isExcluded(BasicFileAttributes attributes) {
        return attributes != null && attributes.fileKey() != null && settings.excludedKeys().contains(attributes.fileKey());
    }

    /** The failure of a request whose path (or a link on its way) leads into an excluded folder. */
    FsException excluded(String requested) {
        return new FsException("Access denied: " + PathRules.show(requested) + " is in a folder the file tools never"
                + " reach (the server's own configuration, deploy folder, storage or audit trail, or one an operator"
                + " excluded).");
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
            Path underHome = PathRules.underHome(requested, home);
            path = underHome != null ? underHome : Path.of(requested);
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
                if (candidate.startsWith(root)) {
                    absolute = candidate;
                    break;
                }
            }
            if (absolute == null) {
                throw outside(requested);
            }
        }
        if (isExcluded(absolute)) {
            throw excluded(requested);
        }
        if (!isAllowed(absolute)) {
            throw outside(requested);
        }
        return absolute;
    }

    /** A normalized absolute path outside the allowed roots that names one by another spelling, as its real path. */
    Path unalias(Path path) {
        for (Map.Entry<Path, Path> alias : aliases.entrySet()) {
            if (path.startsWith(alias.getKey()) && !isAllowed(path)) {
                return alias.getValue().resolve(alias.getKey().relativize(path)).normalize();
            }
        }
        return path;
    }

    /** The failure of a request that names a path outside the allowed roots. */
    FsException outside(String requested) {
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
}
