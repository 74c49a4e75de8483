package io.quiver.transport.stdio.internal;

import java.io.IOException;
import java.io.OutputStream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes messages to the client, one per line, each flushed at once. Every writer (responses from the
 * request threads, notifications from the engine's timers, the reader's own answers) goes through one
 * lock, so lines never interleave and leave in the order they were written.
 *
 * <p>A write blocks while the client does not read (the pipe is full): that is the backpressure of a
 * pipe, and nothing queues up meanwhile. Once the output fails (the client closed it), every further
 * message is dropped; the client is gone, and no further request of its is taken.
 */
final class LineWriter {

    private static final Logger LOG = LoggerFactory.getLogger(LineWriter.class);

    private final OutputStream out;
    /** Read without the lock: a write blocked on a full pipe holds it, and the reader must go on taking lines. */
    private volatile boolean broken;

    LineWriter(OutputStream out) {
        this.out = out;
    }

    /**
     * Writes one message as one line. JSON from the engine is compact, so it holds no line break; a
     * message that does anyway has each one turned into a space (JSON whitespace: a line break inside a
     * string is not valid JSON in the first place), so the framing holds.
     *
     * @return false when the output is gone and the message was dropped
     */
    synchronized boolean write(byte[] message) {
        if (broken) {
            return false;
        }
        try {
            out.write(oneLine(message));
            out.write('\n');
            out.flush();
            return true;
        } catch (IOException e) {
            broken = true;
            LOG.warn("stdout is closed ({}): the client is gone, nothing more is written to it", e.toString());
            return false;
        }
    }

    /** Whether the output failed: the client closed it, and no answer can reach it any more. */
    boolean broken() {
        return broken;
    }

    static byte[] oneLine(byte[] message) {
        byte[] line = message;
        for (int i = 0; i < message.length; i++) {
            if (message[i] == '\n' || message[i] == '\r') {
                if (line == message) {
                    line = message.clone();
                }
                line[i] = ' ';
            }
        }
        return line;
    }
}
