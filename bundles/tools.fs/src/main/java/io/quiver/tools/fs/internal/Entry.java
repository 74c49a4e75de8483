package io.quiver.tools.fs.internal;

import java.io.IOException;
import java.nio.file.Path;
import java.nio.file.SecureDirectoryStream;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * Where a {@link Sandbox} walk ended: the directory handle holding the entry and its name (or, for a root itself,
 * the root's handle and no name), the entry's real path and its attributes (null when it does not exist).
 */
final class Entry implements AutoCloseable {
    private SecureDirectoryStream<Path> dir;
    private final String name;
    private final Path path;
    private final BasicFileAttributes attributes;
    private final String requested;

    Entry(SecureDirectoryStream<Path> dir, String name, Path path, BasicFileAttributes attributes, String requested) {
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
