package io.quiver.tools.fs.internal;

import io.quiver.api.RequestContext;
import java.io.IOException;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Comparator;
import java.util.List;

/**
 * Walks a directory tree depth first, names in order, through directory handles only: a subdirectory is
 * opened relative to its parent and never through a link, so a walk stays inside the directory it started
 * in. Links are reported, not followed. Entries in folders no tool reaches (the server's own, the excluded) are
 * neither visited nor entered. It stops at a depth, at a number of entries, and when the call is cancelled.
 */
final class Walker {

    /** Deepest a walk goes, whatever is asked (each level holds a directory handle open). */
    static final int MAX_DEPTH = 256;

    /** Names as listings show them: case-insensitively, then exactly. */
    static final Comparator<String> ORDER = String.CASE_INSENSITIVE_ORDER.thenComparing(Comparator.naturalOrder());

    /** What a walk does with each entry. */
    @FunctionalInterface
    interface Visitor {
        /**
         * @param relative the path from the walk's start, '/'-separated
         * @param depth 1 for the start's own entries
         * @return whether to walk into it, when it is a directory
         */
        boolean visit(Dir dir, String name, String relative, BasicFileAttributes attributes, int depth)
                throws FsException, IOException;
    }

    private final RequestContext context;
    private final int maxScanned;
    private final AllowedRoots roots;
    private int scanned;
    private boolean limited;
    /** Whether a directory lay deeper than {@link #MAX_DEPTH}, and was not walked. */
    private boolean tooDeep;
    /** Whether the walk's own bound, not the caller's depth, decides how deep it goes. */
    private boolean capped;
    private boolean stopped;

    Walker(RequestContext context, int maxScanned, AllowedRoots roots) {
        this.context = context;
        this.maxScanned = maxScanned;
        this.roots = roots;
    }

    /** Walks the entries under a directory, to {@code maxDepth} levels (0: no limit but {@link #MAX_DEPTH}). */
    void walk(Dir start, int maxDepth, Visitor visitor) throws FsException, IOException {
        capped = maxDepth <= 0 || maxDepth > MAX_DEPTH;
        walk(start, "", 1, capped ? MAX_DEPTH : maxDepth, visitor);
    }

    private void walk(Dir dir, String prefix, int depth, int maxDepth, Visitor visitor)
            throws FsException, IOException {
        List<String> names = dir.names();
        names.sort(ORDER);
        for (String name : names) {
            if (stopped) {
                return;
            }
            if (context != null && context.isCancelled()) {
                throw new FsException("Cancelled.");
            }
            if (++scanned > maxScanned) {
                limited = true;
                stopped = true;
                return;
            }
            if (roots.isExcluded(dir.path().resolve(name))) {
                continue;
            }
            BasicFileAttributes attributes = dir.stat(name);
            if (attributes == null || roots.isExcluded(attributes)) {
                continue; // gone meanwhile, or a folder no tool reaches by another spelling
            }
            String relative = prefix.isEmpty() ? name : prefix + "/" + name;
            boolean into = visitor.visit(dir, name, relative, attributes, depth);
            if (into && attributes.isDirectory() && depth < maxDepth && !stopped) {
                try (Dir child = dir.child(name)) {
                    if (child != null) {
                        walk(child, relative, depth + 1, maxDepth, visitor);
                    }
                }
            } else if (into && attributes.isDirectory() && capped && !stopped) {
                tooDeep = true; // not what the caller asked for: the walk's own bound, said so
            }
        }
    }

    /** Ends the walk after the current entry (a result limit was reached). */
    void stop() {
        stopped = true;
    }

    /** Whether the walk left entries out by its own bounds: the entries it may visit, or the deepest level. */
    boolean limited() {
        return limited || tooDeep;
    }

    /** Which of its bounds the walk met, for the message that says the result is incomplete. */
    String bound() {
        return limited ? "the scan limit of " + maxScanned + " entries"
                : "the deepest level a walk goes (" + MAX_DEPTH + " below the path)";
    }

    /** The type of an entry as the tools name it. */
    static String type(BasicFileAttributes attributes) {
        if (attributes.isDirectory()) {
            return "directory";
        }
        if (attributes.isSymbolicLink()) {
            return "symlink";
        }
        return attributes.isRegularFile() ? "file" : "other";
    }
}
