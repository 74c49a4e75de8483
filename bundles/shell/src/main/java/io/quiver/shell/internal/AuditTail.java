package io.quiver.shell.internal;

import java.io.IOException;
import java.lang.reflect.Array;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Dictionary;
import java.util.List;

/**
 * {@code quiver:audit}: the last lines of the audit file. The file is where the audit bundle writes it:
 * the {@code file} setting of its configuration {@code io.quiver.audit}, else its default, a relative path
 * under the server's working directory (this is the same process, so the same directory). Read from the
 * end, so a large file costs only the lines shown.
 */
final class AuditTail {

    static final String PID = "io.quiver.audit";
    /** The audit bundle's default ({@code AuditConfig.DEFAULT_FILE}); the shell does not import the bundle. */
    static final String DEFAULT_FILE = "audit/calls.jsonl";
    /** More than anyone reads in a terminal, few enough to stay small in memory. */
    static final int MAX_LINES = 10_000;

    private static final int CHUNK = 8192;

    private AuditTail() {
    }

    /** What {@code quiver:audit n} prints, given the audit configuration's properties (or null: none). */
    static String report(Dictionary<String, ?> config, int lines) {
        if (lines < 1 || lines > MAX_LINES) {
            return "Give a number of lines from 1 to " + MAX_LINES + ": quiver:audit 50\n";
        }
        Path file = file(config);
        String off = enabled(config) ? ""
                : "The audit file is off (" + PID + " enabled = false); the last lines it has:\n";
        List<String> last;
        try {
            last = last(file, lines);
        } catch (NoSuchFileException e) {
            return off.isEmpty() ? "No audit file at " + file + " yet: no call was recorded, or the audit bundle is not"
                    + " running (see quiver:problems).\n" : "The audit file is off (" + PID + " enabled = false).\n";
        } catch (IOException e) {
            return "The audit file " + file + " cannot be read: " + e + "\n";
        }
        if (last.isEmpty()) {
            return off + "The audit file " + file + " is empty: no call since it began.\n";
        }
        StringBuilder out = new StringBuilder(off);
        out.append("Last ").append(last.size()).append(last.size() == 1 ? " line of " : " lines of ").append(file)
                .append(":\n");
        last.forEach(line -> out.append(line).append('\n'));
        return out.toString();
    }

    /** The audit file the configuration names, absolute. */
    static Path file(Dictionary<String, ?> config) {
        String name = first(config == null ? null : config.get("file"));
        return Path.of(name == null || name.isBlank() ? DEFAULT_FILE : name.trim()).toAbsolutePath().normalize();
    }

    private static boolean enabled(Dictionary<String, ?> config) {
        String value = first(config == null ? null : config.get("enabled"));
        return value == null || !"false".equalsIgnoreCase(value.trim());
    }

    /** A setting's value as text: a .cfg file gives a String, a .config file may give an array or a list. */
    private static String first(Object value) {
        if (value != null && value.getClass().isArray()) {
            return Array.getLength(value) == 0 ? null : String.valueOf(Array.get(value, 0));
        }
        if (value instanceof List<?> list) {
            return list.isEmpty() ? null : String.valueOf(list.get(0));
        }
        return value == null ? null : String.valueOf(value);
    }

    /** The last {@code n} lines of a file (fewer if it has fewer), without their newlines. */
    static List<String> last(Path file, int n) throws IOException {
        try (SeekableByteChannel channel = Files.newByteChannel(file)) {
            long size = channel.size();
            long start = size;
            int newlines = 0;
            ByteBuffer chunk = ByteBuffer.allocate(CHUNK);
            scan:
            while (start > 0) {
                int length = (int) Math.min(CHUNK, start);
                start -= length;
                read(channel, chunk, start, length);
                for (int i = length - 1; i >= 0; i--) {
                    // the file's final newline ends its last line; every other one starts a line
                    if (chunk.get(i) == '\n' && start + i != size - 1 && ++newlines == n) {
                        start += i + 1;
                        break scan;
                    }
                }
            }
            ByteBuffer tail = ByteBuffer.allocate((int) (size - start));
            read(channel, tail, start, tail.capacity());
            String text = new String(tail.array(), StandardCharsets.UTF_8);
            if (text.isEmpty()) {
                return List.of();
            }
            List<String> lines = Arrays.asList(text.split("\n", -1));
            if (text.endsWith("\n")) {
                lines = lines.subList(0, lines.size() - 1);
            }
            return List.copyOf(lines.subList(Math.max(0, lines.size() - n), lines.size()));
        }
    }

    private static void read(SeekableByteChannel channel, ByteBuffer into, long position, int length)
            throws IOException {
        into.clear().limit(length);
        channel.position(position);
        while (into.hasRemaining() && channel.read(into) >= 0) {
            // a file channel reads all but at its end; the loop is for the rare short read
        }
    }
}
