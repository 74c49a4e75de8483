package io.quiver.audit.internal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The audit file: each line goes to the operating system in one write as it comes, nothing is buffered
 * in the JVM, so a crash of the server loses no line it wrote (only what the OS had not yet put on disk
 * when the machine itself went down). Before a line would take the file past its size, or on the first
 * line of a new UTC day, the file is renamed to {@code <name>-<time of its last line>.<ext>} and a new
 * one begins; the oldest rotated files beyond the number kept are deleted.
 *
 * <p>A batch that fails part-way (a full disk) is cut off the file again, so that no half line joins the
 * next one and the batch is lost whole, as counted. A file deleted or moved away while open is noticed at
 * the next batch, and a new one begins where the settings say: lines would otherwise go on into a file no
 * one can find.
 *
 * <p>Not thread-safe: the audit log's one writer thread uses it.
 */
final class AuditFile implements AutoCloseable {

    /**
     * What the file is and how it rotates.
     *
     * @param daily also rotate when the UTC day changed since the last line
     * @param maxFiles rotated files kept besides the current one
     */
    record Settings(Path file, long maxBytes, boolean daily, int maxFiles) {
        Settings {
            file = file.toAbsolutePath().normalize();
        }

        /** @throws java.nio.file.InvalidPathException when the file is not a path on this system */
        static Settings of(AuditConfig config) {
            String file = config.file().isBlank() ? AuditConfig.DEFAULT_FILE : config.file().trim();
            return new Settings(Path.of(file), config.maxFileBytes(), "daily".equals(config.rotateEvery()),
                    config.maxFiles());
        }
    }

    /** Seconds are enough for a name; the rare second rotation within one gets {@code -2}, {@code -3}, ... */
    private static final DateTimeFormatter STAMP =
            DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'").withZone(ZoneOffset.UTC);

    private static final Logger LOG = LoggerFactory.getLogger(AuditFile.class);

    /** Writes some of the bytes to the channel, as {@link FileChannel#write(ByteBuffer)} does. */
    @FunctionalInterface
    interface Write {
        int write(FileChannel channel, ByteBuffer bytes) throws IOException;
    }

    private final Clock clock;
    /** {@link FileChannel#write(ByteBuffer)}, or a test's that fails like a full disk. */
    private final Write write;
    private Settings settings;
    private FileChannel out;
    /** The open file's identity (its inode): whether the path still leads to it; null where the system has none. */
    private Object key;
    private long size;
    /** When the current file got its last line (for a file found on disk: its modification time), or null. */
    private Instant lastLine;

    AuditFile(Settings settings, Clock clock) {
        this(settings, clock, FileChannel::write);
    }

    AuditFile(Settings settings, Clock clock, Write write) {
        this.settings = settings;
        this.clock = clock;
        this.write = write;
    }

    Settings settings() {
        return settings;
    }

    /** New settings: another file is opened at the next line; sizes and counts apply from the next line. */
    void settings(Settings changed) {
        if (!changed.file().equals(settings.file())) {
            close();
        }
        this.settings = changed;
    }

    /**
     * Opens the file for appending (creating its folder) if it is not open yet. A file that does not end with a
     * newline (its last line was torn: the machine went down, a cut failed) gets one first, so that the next
     * line is a line of its own.
     *
     * @throws IOException when it cannot be: the caller says where and why
     */
    void open() throws IOException {
        if (out != null) {
            return;
        }
        Path file = settings.file();
        Files.createDirectories(file.getParent());
        // a plain channel: every write() is one system call, nothing waits in a buffer of ours
        out = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.APPEND, StandardOpenOption.WRITE);
        try {
            key = Files.readAttributes(file, BasicFileAttributes.class).fileKey();
            size = out.size();
            lastLine = size == 0 ? null : Files.getLastModifiedTime(file).toInstant();
            if (size > 0 && !endsWithNewline(file, size)) {
                writeFully(ByteBuffer.wrap(new byte[] {'\n'}));
                size++;
            }
        } catch (IOException e) {
            close();
            throw e;
        }
    }

    private static boolean endsWithNewline(Path file, long size) throws IOException {
        try (FileChannel in = FileChannel.open(file, StandardOpenOption.READ)) {
            ByteBuffer last = ByteBuffer.allocate(1);
            return in.read(last, size - 1) == 1 && last.get(0) == '\n';
        }
    }

    /**
     * Whether the path no longer leads to the open file: it was deleted, moved away or replaced. One
     * {@code stat} per batch; where the system gives files no key, only a file gone is noticed.
     */
    private boolean replaced() {
        try {
            Object now = Files.readAttributes(settings.file(), BasicFileAttributes.class).fileKey();
            return key != null && !key.equals(now);
        } catch (IOException e) {
            return true; // gone, or cannot be looked at: opening it anew says which
        }
    }

    /**
     * Appends whole lines (each with its newline), rotating first when it is time: a batch of lines
     * goes into one file, so a file may exceed its size by one batch.
     */
    void append(byte[] line) throws IOException {
        append(line, line.length);
    }

    /**
     * Appends the first {@code length} bytes of {@code lines}, whole lines. When the write fails, the file is cut
     * back to where the batch began: none of its lines is in the file, and the next batch starts a line.
     */
    void append(byte[] lines, int length) throws IOException {
        if (out != null && replaced()) {
            LOG.warn("The audit file {} was deleted or moved away while it was written: a new one begins there",
                    settings.file());
            close();
        }
        open();
        Instant now = clock.instant();
        if (size > 0 && (size + length > settings.maxBytes() || settings.daily() && newDay(now))) {
            rotate();
            open();
        }
        long before = out.size(); // not size: that counts only our own lines
        try {
            writeFully(ByteBuffer.wrap(lines, 0, length));
        } catch (IOException e) {
            try {
                out.truncate(before);
            } catch (IOException | RuntimeException f) {
                e.addSuppressed(f); // then open() ends the torn line before the next one
            }
            close(); // opened again at the next line: the disk may have room by then
            throw e;
        }
        size += length;
        lastLine = now;
    }

    private void writeFully(ByteBuffer bytes) throws IOException {
        while (bytes.hasRemaining()) {
            write.write(out, bytes);
        }
    }

    private boolean newDay(Instant now) {
        return lastLine != null
                && !LocalDate.ofInstant(lastLine, ZoneOffset.UTC).equals(LocalDate.ofInstant(now, ZoneOffset.UTC));
    }

    /** Renames the current file after the time of its last line, then deletes the oldest beyond the count kept. */
    private void rotate() throws IOException {
        close();
        Path file = settings.file();
        String stamp = STAMP.format(lastLine != null ? lastLine : clock.instant());
        // after the last of that second, not in the first free name: pruning may have freed an earlier one
        int sequence = 1 + rotated().stream().filter(r -> r.stamp().equals(stamp)).mapToInt(Rotated::sequence)
                .max().orElse(0);
        Files.move(file, file.resolveSibling(rotatedName(file, stamp, sequence)));
        prune();
    }

    /** Deletes the oldest rotated files beyond {@code maxFiles}; other files in the folder are not touched. */
    void prune() throws IOException {
        List<Rotated> rotated = rotated();
        for (int i = 0; i < rotated.size() - settings.maxFiles(); i++) {
            Files.deleteIfExists(rotated.get(i).path());
        }
    }

    /** The rotated files of the current file, oldest first. */
    List<Rotated> rotated() throws IOException {
        Path file = settings.file();
        String[] parts = split(file.getFileName().toString());
        Pattern name = Pattern.compile(
                Pattern.quote(parts[0]) + "-(\\d{8}T\\d{6}Z)(?:-(\\d+))?" + Pattern.quote(parts[1]));
        List<Rotated> found = new ArrayList<>();
        try (Stream<Path> siblings = Files.list(file.getParent())) {
            siblings.forEach(p -> {
                Matcher m = name.matcher(p.getFileName().toString());
                if (m.matches()) {
                    found.add(new Rotated(p, m.group(1), m.group(2) == null ? 1 : Integer.parseInt(m.group(2))));
                }
            });
        }
        found.sort(Comparator.comparing(Rotated::stamp).thenComparingInt(Rotated::sequence));
        return found;
    }

    /** A rotated file: the time of its last line, and which of the files rotated within that second. */
    record Rotated(Path path, String stamp, int sequence) {
    }

    static String rotatedName(Path file, String stamp, int sequence) {
        String[] parts = split(file.getFileName().toString());
        return parts[0] + "-" + stamp + (sequence > 1 ? "-" + sequence : "") + parts[1];
    }

    /** {@code calls.jsonl}: {@code calls} and {@code .jsonl}; a name without an extension has an empty one. */
    private static String[] split(String name) {
        int dot = name.lastIndexOf('.');
        return dot > 0 ? new String[] {name.substring(0, dot), name.substring(dot)} : new String[] {name, ""};
    }

    @Override
    public void close() {
        if (out != null) {
            try {
                out.close();
            } catch (IOException e) {
                // every line was written as it came: nothing is lost by a failing close
            }
            out = null;
        }
    }
}
