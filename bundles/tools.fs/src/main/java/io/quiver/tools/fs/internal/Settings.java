package io.quiver.tools.fs.internal;

import io.quiver.lib.config.TypedConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.Locale;

/**
 * The file tools' configuration as they use it: the roots, resolved to real directories, and the limits.
 *
 * @param roots the configured roots that exist, in the configured order
 * @param excluded the paths of the directories no tool reaches, inside the roots or not (the configured ones and
 *     the server's own), as named and as real paths
 * @param excludedKeys their file keys (device and inode): the same directories by any spelling, on a file system
 *     that ignores case too
 * @param holderKeys the file keys of each of them and of every directory (or link) on the way to it, as named and
 *     as real: what may not be moved, since it would take an excluded directory with it
 * @param keysPending whether an excluded directory did not exist yet (audit/ before the first audit line, say):
 *     its identity is read again once it does
 * @param problems why configured roots were not taken (one line each), for the operator
 */
record Settings(List<Root> roots, List<Path> excluded, Set<Object> excludedKeys, Set<Object> holderKeys,
        boolean keysPending, boolean clientRoots, long maxReadBytes, long maxMediaBytes, long maxWriteBytes, int maxEdits, int maxResults,
        long maxSearchFileBytes, long maxSearchOutputBytes, int maxScannedEntries, long regexTimeoutMs,
        boolean readHardLinks, long maxDiffBytes, List<String> problems) {

    /** The audit trail's folder (its default), under the working directory: always excluded. */
    static final String AUDIT = "audit";

    Settings {
        roots = List.copyOf(roots);
        excluded = List.copyOf(excluded);
        excludedKeys = Set.copyOf(excludedKeys);
        holderKeys = Set.copyOf(holderKeys);
        problems = List.copyOf(problems);
    }

    /**
     * The settings of a configuration, with roots resolved against a working directory and a home, and the
     * server's own folders ({@code etc/}, {@code deploy/}, the framework storage; {@code audit/}) excluded besides
     * the configured ones.
     */
    static Settings of(FsConfig config, Path workingDirectory, Path home, List<Path> serverFolders) {
        List<Path> named = new ArrayList<>();
        for (Path folder : serverFolders) {
            named.add(workingDirectory.resolve(folder).toAbsolutePath().normalize());
        }
        named.add(workingDirectory.resolve(AUDIT).toAbsolutePath().normalize());
        List<Root> roots = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        for (String spec : TypedConfig.list(config.exclude())) {
            String text = spec.trim();
            if (text.isEmpty()) {
                continue;
            }
            try {
                named.add(path(text, workingDirectory, home));
            } catch (InvalidPathException e) {
                problems.add("exclude: " + spec + " is not a valid path (skipped)");
            }
        }
        List<Path> excluded = new ArrayList<>();
        Set<Object> excludedKeys = new HashSet<>();
        Set<Object> holderKeys = new HashSet<>();
        boolean keysPending = false;
        for (Path path : named) {
            Path real = real(path);
            for (Path spelling : real.equals(path) ? List.of(path) : List.of(path, real)) {
                excluded.add(spelling);
                for (Path on = spelling; on != null; on = on.getParent()) {
                    addKey(holderKeys, on, LinkOption.NOFOLLOW_LINKS);
                }
            }
            keysPending |= !addKey(excludedKeys, real);
        }
        for (String spec : TypedConfig.list(config.roots())) {
            try {
                Root root = root(spec, workingDirectory, home);
                if (roots.stream().anyMatch(r -> r.real().equals(root.real()))) {
                    problems.add("roots: " + spec + " is listed twice (the first one counts)");
                } else {
                    roots.add(root);
                }
            } catch (IllegalArgumentException e) {
                problems.add("roots: " + e.getMessage());
            }
        }
        for (Root root : roots) {
            if (excluded.stream().anyMatch(x -> root.real().startsWith(x))) {
                problems.add("roots: " + root.given() + " lies in a folder the tools never reach (exclude, or the server's"
                        + " own configuration, deploy folder or storage): nothing in it can be reached");
            }
        }
        return new Settings(roots, excluded, excludedKeys, holderKeys, keysPending, config.clientRoots(),
                config.maxReadBytes(), config.maxMediaBytes(), config.maxWriteBytes(), config.maxEdits(), config.maxResults(),
                config.maxSearchFileBytes(), config.maxSearchOutputBytes(), config.maxScannedEntries(),
                config.regexTimeoutMs(), config.readHardLinks(), config.maxDiffBytes(), problems);
    }

    /**
     * Adds the file key of what a path names.
     *
     * @return false when it does not exist (yet): the paths alone guard it meanwhile
     */
    private static boolean addKey(Set<Object> keys, Path path, LinkOption... options) {
        try {
            Object key = Files.readAttributes(path, BasicFileAttributes.class, options).fileKey();
            if (key != null) {
                keys.add(key);
            }
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * The real path of a directory, or, while it does not exist, that of its nearest existing ancestor with the
     * rest of the names after it.
     */
    static Path real(Path absolute) {
        try {
            return absolute.toRealPath();
        } catch (IOException e) {
            Path parent = absolute.getParent();
            return parent == null ? absolute : real(parent).resolve(absolute.getFileName());
        }
    }

    /** A configured path as absolute: relative ones under the working directory, {@code ~} the home; normalized. */
    private static Path path(String text, Path workingDirectory, Path home) {
        Path underHome = PathRules.underHome(text, home);
        return (underHome != null ? underHome : workingDirectory.resolve(text)).toAbsolutePath().normalize();
    }

    /**
     * One root of the configuration: {@code path}, {@code path:rw} or {@code path:ro}.
     *
     * @throws IllegalArgumentException saying why it is not taken
     */
    static Root root(String spec, Path workingDirectory, Path home) {
        String text = spec.trim();
        boolean writable = false;
        String lower = text.toLowerCase(Locale.ROOT);
        if (lower.endsWith(":rw") || lower.endsWith(":ro")) {
            writable = lower.endsWith(":rw");
            text = text.substring(0, text.length() - 3).trim();
        }
        if (text.isEmpty()) {
            throw new IllegalArgumentException(spec + " names no directory (skipped)");
        }
        Path given;
        try {
            given = path(text, workingDirectory, home);
        } catch (InvalidPathException e) {
            throw new IllegalArgumentException(spec + " is not a valid path (skipped)");
        }
        Path real;
        try {
            real = given.toRealPath();
        } catch (IOException e) {
            throw new IllegalArgumentException(given + " does not exist or cannot be reached (skipped until it does"
                    + " and the configuration is read again)");
        }
        if (!Files.isDirectory(real)) {
            throw new IllegalArgumentException(given + " is not a directory (skipped)");
        }
        return new Root(given, real, writable);
    }
}
