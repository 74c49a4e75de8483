package io.quiver.tools.fs.internal;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SecureDirectoryStream;
import java.nio.file.attribute.BasicFileAttributeView;
import java.nio.file.attribute.BasicFileAttributes;
import java.security.SecureRandom;
import java.util.HexFormat;

/**
 * The directory-handle operations everything else is built from: a root opened by its real path, a subdirectory
 * opened relative to its parent and never through a link ({@code openat} with {@code O_NOFOLLOW}), and the
 * attributes of a name itself, never of what a link points to.
 */
final class Handles {

    /** Not following the last name when it is a symbolic link. */
    static final LinkOption[] NOFOLLOW = {LinkOption.NOFOLLOW_LINKS};

    private static final SecureRandom RANDOM = new SecureRandom();

    private Handles() {
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

    /** Sixteen random hex digits, for the name of a temporary file or directory no request can guess. */
    static String randomHex() {
        byte[] bytes = new byte[8];
        RANDOM.nextBytes(bytes);
        return HexFormat.of().formatHex(bytes);
    }
}
