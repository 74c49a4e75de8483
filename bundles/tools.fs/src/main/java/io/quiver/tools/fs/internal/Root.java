package io.quiver.tools.fs.internal;

import java.nio.file.Path;

/**
 * A configured root: a directory the tools may reach.
 *
 * @param given the path as configured, made absolute and normalized (requests may name it this way)
 * @param real its real path (symbolic links resolved when the configuration was read): where it is
 * @param writable whether the write tools may change things under it ({@code :rw})
 */
record Root(Path given, Path real, boolean writable) {

    /** Whether a normalized absolute path is this root or lies under it (by its real path). */
    boolean contains(Path path) {
        return path.startsWith(real);
    }
}
