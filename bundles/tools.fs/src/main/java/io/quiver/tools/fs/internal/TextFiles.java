package io.quiver.tools.fs.internal;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** Reading text from an open file: whole, its first or last lines, within a byte limit; binary detection. */
final class TextFiles {

    /** How much of a file's start is looked at for NUL bytes (as git does). */
    static final int SNIFF_BYTES = 8000;

    private TextFiles() {
    }

    /** Whether a file's start looks binary: it has a NUL byte. */
    static boolean looksBinary(SeekableByteChannel channel) throws IOException {
        long position = channel.position();
        byte[] start = read(channel, 0, (int) Math.min(SNIFF_BYTES, channel.size()));
        channel.position(position);
        return looksBinary(start, start.length);
    }

    static boolean looksBinary(byte[] bytes, int length) {
        for (int i = 0; i < Math.min(length, SNIFF_BYTES); i++) {
            if (bytes[i] == 0) {
                return true;
            }
        }
        return false;
    }

    /** Up to {@code length} bytes from a position (fewer at the end of the file). */
    static byte[] read(SeekableByteChannel channel, long position, int length) throws IOException {
        ByteBuffer buffer = ByteBuffer.allocate(length);
        channel.position(position);
        while (buffer.hasRemaining()) {
            if (channel.read(buffer) < 0) {
                break;
            }
        }
        byte[] bytes = new byte[buffer.position()];
        buffer.flip();
        buffer.get(bytes);
        return bytes;
    }

    /** The whole file, when it is at most {@code limit} bytes. */
    static byte[] readAll(SeekableByteChannel channel, long limit, String what) throws FsException, IOException {
        long size = channel.size();
        if (size > limit) {
            throw new FsException(what + " is " + size(size) + ", more than the read limit of " + size(limit)
                    + ". Read part of it with head or tail, or search it with search_file_contents.");
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream((int) size);
        ByteBuffer buffer = ByteBuffer.allocate(64 * 1024);
        channel.position(0);
        long total = 0;
        while (channel.read(buffer) >= 0) {
            total += buffer.position();
            if (total > limit) {
                throw new FsException(what + " grew past the read limit of " + size(limit) + " while it was read.");
            }
            out.write(buffer.array(), 0, buffer.position());
            buffer.clear();
        }
        return out.toByteArray();
    }

    /** UTF-8 text; bytes that are not UTF-8 become U+FFFD. */
    static String decode(byte[] bytes) {
        return new String(bytes, StandardCharsets.UTF_8);
    }

    /** A result of head or tail: the text, and whether the byte limit cut it short. */
    record Part(String text, boolean cut) {
    }

    /** The first {@code lines} lines, joined by {@code \n} (without the last line's end), reading at most {@code limit} bytes. */
    static Part head(SeekableByteChannel channel, int lines, long limit) throws IOException {
        channel.position(0);
        ByteArrayOutputStream taken = new ByteArrayOutputStream();
        ByteBuffer buffer = ByteBuffer.allocate(16 * 1024);
        int count = 0;
        long read = 0;
        boolean cut = false;
        outer:
        while (channel.read(buffer) > 0) {
            buffer.flip();
            while (buffer.hasRemaining()) {
                byte b = buffer.get();
                if (b == '\n') {
                    count++;
                    if (count >= lines) {
                        break outer;
                    }
                }
                if (++read > limit) {
                    cut = true;
                    break outer;
                }
                taken.write(b);
            }
            buffer.clear();
        }
        byte[] bytes = taken.toByteArray();
        int length = bytes.length;
        if (!cut && count < lines && length > 0 && bytes[length - 1] == '\n') {
            length--; // the end of the file: its last line end does not start another line
        }
        return new Part(stripCarriageReturns(new String(bytes, 0, length, StandardCharsets.UTF_8)), cut);
    }

    /** The last {@code lines} lines, joined by {@code \n} (a final line end is not a line), reading at most {@code limit} bytes. */
    static Part tail(SeekableByteChannel channel, int lines, long limit) throws IOException {
        long size = channel.size();
        long end = size;
        // a final line end closes the last line; it does not start an empty one
        if (end > 0 && read(channel, end - 1, 1)[0] == '\n') {
            end--;
            if (end > 0 && read(channel, end - 1, 1)[0] == '\r') {
                end--;
            }
        }
        long start = end;
        int found = 0;
        boolean cut = false;
        int chunk = 16 * 1024;
        search:
        while (start > 0) {
            long from = Math.max(0, start - chunk);
            byte[] bytes = read(channel, from, (int) (start - from));
            for (int i = bytes.length - 1; i >= 0; i--) {
                if (bytes[i] == '\n') {
                    found++;
                    if (found >= lines) {
                        start = from + i + 1;
                        break search;
                    }
                }
                if (end - (from + i) > limit) {
                    start = from + i + 1;
                    cut = true;
                    break search;
                }
            }
            start = from;
        }
        byte[] bytes = read(channel, start, (int) (end - start));
        return new Part(stripCarriageReturns(decode(bytes)), cut);
    }

    private static String stripCarriageReturns(String text) {
        if (text.indexOf('\r') < 0) {
            return text;
        }
        String lf = text.replace("\r\n", "\n");
        return lf.endsWith("\r") ? lf.substring(0, lf.length() - 1) : lf;
    }

    /** Splits text into lines (a final line end does not start another line). */
    static List<String> lines(String text) {
        List<String> lines = new ArrayList<>();
        int start = 0;
        for (int i = 0; i < text.length(); i++) {
            if (text.charAt(i) == '\n') {
                int end = i > start && text.charAt(i - 1) == '\r' ? i - 1 : i;
                lines.add(text.substring(start, end));
                start = i + 1;
            }
        }
        if (start < text.length()) {
            lines.add(text.substring(start));
        }
        return lines;
    }

    /** A size as the reference server shows it: {@code 18 B}, {@code 1.50 KB}. */
    static String size(long bytes) {
        String[] units = {"B", "KB", "MB", "GB", "TB"};
        if (bytes <= 0) {
            return "0 B";
        }
        int i = (int) Math.floor(Math.log(bytes) / Math.log(1024));
        if (i <= 0) {
            return bytes + " B";
        }
        int unit = Math.min(i, units.length - 1);
        return String.format(Locale.ROOT, "%.2f %s", bytes / Math.pow(1024, unit), units[unit]);
    }
}
