package io.quiver.transport.stdio.internal;

import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import java.util.function.LongSupplier;

/**
 * Splits a byte stream into lines, the framing of MCP over stdio: one message per line, ended by
 * {@code \n} (a {@code \r} before it is dropped too). Blank lines are skipped. A line longer than the
 * limit is never held in memory: its bytes are dropped as they come and it is reported once, so the
 * reader goes on with the next line. A last line without its newline still counts.
 */
final class LineReader {

    /** What the next read found. */
    sealed interface Line {
    }

    /** A line: one message, without its line end. */
    record Message(byte[] bytes) implements Line {
    }

    /** A line over the limit, skipped; {@code length} bytes long (at least; counted up to its end). */
    record TooLong(long length) implements Line {
    }

    /** The end of the stream. */
    record End() implements Line {
    }

    private static final End END = new End();

    private final InputStream in;
    private final LongSupplier limit;
    private final byte[] buffer = new byte[64 * 1024];
    private int position;
    private int filled;
    private boolean ended;
    /** The line being read (the first {@code length} bytes). */
    private byte[] line = new byte[8 * 1024];
    private int length;
    /** Bytes of the line being skipped, or -1 while the line is within the limit. */
    private long skipped = -1;

    /** @param limit the longest line taken, read again for each line (so a new setting applies at once) */
    LineReader(InputStream in, LongSupplier limit) {
        this.in = in;
        this.limit = limit;
    }

    /** The next non-blank line, a line over the limit, or the end of the stream. Blocks until one of them. */
    Line next() throws IOException {
        while (true) {
            if (position == filled) {
                if (ended || !fill()) {
                    ended = true;
                    Line last = take();
                    return last != null ? last : END;
                }
            }
            int newline = indexOf(buffer, (byte) '\n', position, filled);
            int end = newline < 0 ? filled : newline;
            append(position, end);
            position = newline < 0 ? filled : newline + 1;
            if (newline >= 0) {
                Line taken = take();
                if (taken != null) {
                    return taken;
                }
            }
        }
    }

    /** Reads more bytes; false at the end of the stream. */
    private boolean fill() throws IOException {
        int n;
        do {
            n = in.read(buffer, 0, buffer.length);
        } while (n == 0);
        if (n < 0) {
            return false;
        }
        position = 0;
        filled = n;
        return true;
    }

    private void append(int from, int to) {
        int n = to - from;
        if (n == 0) {
            return;
        }
        if (skipped >= 0) {
            skipped += n;
            return;
        }
        long max = limit.getAsLong();
        if (length + (long) n > max + 1) { // + 1: a \r before the \n is not part of the message
            skipped = length + (long) n;
            length = 0;
            if (line.length > 64 * 1024) {
                line = new byte[8 * 1024]; // a long line does not keep its buffer
            }
            return;
        }
        if (length + n > line.length) {
            line = Arrays.copyOf(line, (int) Math.min(Math.max((long) line.length * 2, length + n), max + 1));
        }
        System.arraycopy(buffer, from, line, length, n);
        length += n;
    }

    /** The line read so far as a result (null for a blank one), and a fresh start for the next. */
    private Line take() {
        if (skipped >= 0) {
            long n = skipped;
            skipped = -1;
            return new TooLong(n);
        }
        int n = length;
        length = 0;
        if (n > 0 && line[n - 1] == '\r') {
            n--;
        }
        if (n > limit.getAsLong()) {
            return new TooLong(n);
        }
        for (int i = 0; i < n; i++) {
            byte b = line[i];
            if (b != ' ' && b != '\t' && b != '\r') {
                byte[] message = Arrays.copyOf(line, n);
                if (line.length > 64 * 1024) {
                    line = new byte[8 * 1024];
                }
                return new Message(message);
            }
        }
        return null;
    }

    private static int indexOf(byte[] bytes, byte b, int from, int to) {
        for (int i = from; i < to; i++) {
            if (bytes[i] == b) {
                return i;
            }
        }
        return -1;
    }
}
