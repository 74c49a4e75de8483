package io.quiver.tools.fs.internal;

import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SecureDirectoryStream;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;

/** An open directory and its real path: what {@link Sandbox#openDirectory} hands out and {@link Walker} walks. */
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
        return Handles.stat(stream, name);
    }

    /** A subdirectory, opened relative to this one, never through a link; null when it is not one now. */
    Dir child(String name) throws IOException {
        try {
            SecureDirectoryStream<Path> child = Handles.openChild(stream, name);
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
