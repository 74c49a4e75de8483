package io.quiver.tools.fs.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.SecureDirectoryStream;
import java.nio.file.attribute.BasicFileAttributeView;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.FileAttributeView;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.Iterator;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Opening a file the walk found when the name changed under it: never a hang, never a descriptor left open. */
class FileAccessTest {

    @TempDir
    Path temp;

    /**
     * A regular file was looked at, and by the open the name is a FIFO: opening it would block until some process
     * writes to it. The name is looked at again right before the open, so it is refused instead. (A FIFO swapped in
     * between that last look and the open still blocks: docs/tools-fs.md, other limits.) The time bound only keeps
     * a hang from stopping the build.
     */
    @Test
    void aFifoSwappedInAfterTheLookIsRefusedWithoutOpeningIt() throws Exception {
        Path dir = temp.toRealPath();
        Path pipe = dir.resolve("pipe");
        Files.writeString(pipe, "regular\n");
        BasicFileAttributes seen = Files.readAttributes(pipe, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        Files.delete(pipe);
        assumeTrue(mkfifo(pipe), "mkfifo is available");
        try (SecureDirectoryStream<Path> handle = Handles.openRoot(dir)) {
            try {
                FsException refused = assertTimeoutPreemptively(Duration.ofSeconds(10), () -> assertThrows(
                        FsException.class, () -> FileAccess.openRead(handle, "pipe", pipe, seen, true)));
                assertTrue(refused.getMessage().contains("changed while it was opened"), refused.getMessage());
            } finally {
                // an open() blocked on the FIFO (holding the handle, which cannot close until it returns) is released
                // by a writer; opening it for reading and writing never blocks on Linux
                new RandomAccessFile(pipe.toFile(), "rw").close();
            }
        }
    }

    /** When the look after the open fails (not because the name is gone), the file opened is closed again. */
    @Test
    void aFailingLookAfterTheOpenClosesWhatWasOpened() throws Exception {
        Path dir = temp.toRealPath();
        Path file = Files.writeString(dir.resolve("f.txt"), "text\n");
        BasicFileAttributes seen = Files.readAttributes(file, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        try (FailingAfterOpen handle = new FailingAfterOpen(Handles.openRoot(dir))) {
            FileSystemException e = assertThrows(FileSystemException.class,
                    () -> FileAccess.openRead(handle, "f.txt", file, seen, true));
            assertEquals("Input/output error", e.getReason());
            assertNotNull(handle.opened, "the file was opened");
            assertFalse(handle.opened.isOpen(), "and closed again");
        }
    }

    private static boolean mkfifo(Path path) throws InterruptedException {
        try {
            Process p = new ProcessBuilder("mkfifo", path.toString()).inheritIO().start();
            return p.waitFor(10, TimeUnit.SECONDS) && p.exitValue() == 0 && Files.exists(path,
                    LinkOption.NOFOLLOW_LINKS);
        } catch (IOException e) {
            return false;
        }
    }

    /** A directory handle whose looks at a name fail with an I/O error once a file was opened through it. */
    private static final class FailingAfterOpen implements SecureDirectoryStream<Path> {
        private final SecureDirectoryStream<Path> dir;
        SeekableByteChannel opened;

        FailingAfterOpen(SecureDirectoryStream<Path> dir) {
            this.dir = dir;
        }

        @Override
        public SeekableByteChannel newByteChannel(Path path, Set<? extends OpenOption> options,
                FileAttribute<?>... attrs) throws IOException {
            opened = dir.newByteChannel(path, options, attrs);
            return opened;
        }

        @Override
        public <V extends FileAttributeView> V getFileAttributeView(Path path, Class<V> type,
                LinkOption... options) {
            V view = dir.getFileAttributeView(path, type, options);
            if (opened == null || type != BasicFileAttributeView.class) {
                return view;
            }
            return type.cast(new BasicFileAttributeView() {
                @Override
                public String name() {
                    return "basic";
                }

                @Override
                public BasicFileAttributes readAttributes() throws IOException {
                    throw new FileSystemException(path.toString(), null, "Input/output error");
                }

                @Override
                public void setTimes(FileTime modified, FileTime access, FileTime create) {
                    throw new UnsupportedOperationException();
                }
            });
        }

        @Override
        public <V extends FileAttributeView> V getFileAttributeView(Class<V> type) {
            return dir.getFileAttributeView(type);
        }

        @Override
        public SecureDirectoryStream<Path> newDirectoryStream(Path path, LinkOption... options) throws IOException {
            return dir.newDirectoryStream(path, options);
        }

        @Override
        public void deleteFile(Path path) throws IOException {
            dir.deleteFile(path);
        }

        @Override
        public void deleteDirectory(Path path) throws IOException {
            dir.deleteDirectory(path);
        }

        @Override
        public void move(Path source, SecureDirectoryStream<Path> target, Path targetPath) throws IOException {
            dir.move(source, target, targetPath);
        }

        @Override
        public Iterator<Path> iterator() {
            return dir.iterator();
        }

        @Override
        public void close() throws IOException {
            dir.close();
        }
    }
}
