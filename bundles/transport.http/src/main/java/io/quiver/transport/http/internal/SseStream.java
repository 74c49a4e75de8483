package io.quiver.transport.http.internal;

import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;

/**
 * One SSE stream: the events sent on it, a bounded buffer of them for resumption with
 * {@code Last-Event-ID}, and the connection currently carrying it (if any). Event ids are
 * {@code <stream id>-<sequence>}, so a resuming client names the stream and position at once. A stream
 * that is not resumable (a request outside a session: the 2026-07-28 revision has no resumption) sends
 * its events without ids and keeps none of them.
 */
final class SseStream {

    private static final byte[] KEEP_ALIVE = ": keep-alive\n\n".getBytes(StandardCharsets.UTF_8);
    /** The head of an event of a stream that is not resumable. */
    private static final byte[] UNNUMBERED = "event: message\ndata: ".getBytes(StandardCharsets.UTF_8);

    private final String id;
    private final int capacity;
    private final boolean resumable;
    private final Deque<Event> buffer = new ArrayDeque<>();
    private long sequence;
    /**
     * Set under this object's monitor, read without it by {@link #connected} and {@link #finished}. Nothing
     * done under the monitor waits for a client ({@link Connection} holds what the socket does not take).
     */
    private volatile Connection live;
    private volatile boolean finished;

    private record Event(long sequence, byte[] frame) {
    }

    /** {@code resumable}: numbered events, the last {@code capacity} of them kept; else neither. */
    SseStream(String id, int capacity, boolean resumable) {
        this.id = id;
        this.capacity = Math.max(1, capacity);
        this.resumable = resumable;
    }

    String id() {
        return id;
    }

    /** Attaches a fresh connection and sends the priming event (an id and empty data). */
    synchronized void open(Connection connection, int retryMs, boolean prime) {
        replace(connection);
        if (prime && resumable) {
            String frame = "id: " + id + "-" + sequence + "\nretry: " + retryMs + "\ndata: \n\n";
            live.write(frame.getBytes(StandardCharsets.UTF_8));
        }
    }

    /** Sends (or, without a connection, only buffers) one JSON-RPC message. */
    synchronized void send(byte[] json) {
        if (finished) {
            return;
        }
        sequence++;
        byte[] head = resumable ? ("id: " + id + "-" + sequence + "\nevent: message\ndata: ").getBytes(StandardCharsets.UTF_8)
                : UNNUMBERED;
        byte[] frame = new byte[head.length + json.length + 2];
        System.arraycopy(head, 0, frame, 0, head.length);
        System.arraycopy(json, 0, frame, head.length, json.length);
        frame[frame.length - 2] = '\n';
        frame[frame.length - 1] = '\n';
        if (resumable) {
            buffer.addLast(new Event(sequence, frame));
            while (buffer.size() > capacity) {
                buffer.removeFirst();
            }
        }
        if (live != null && !live.write(frame)) {
            live = null;
        }
    }

    /** Sends the last message (if any) and ends the stream; a resuming client gets the rest, then the end. */
    synchronized void finish(byte[] json) {
        if (json != null) {
            send(json);
        }
        finished = true;
        if (live != null) {
            live.close();
            live = null;
        }
    }

    /** Without the monitor, like {@link #connected}. */
    boolean finished() {
        return finished;
    }

    /** Whether a connection currently carries the stream. */
    boolean connected() {
        Connection c = live;
        return c != null && c.isOpen();
    }

    /**
     * Replays the events after {@code afterSequence} on a new connection, then keeps it attached
     * (or closes it when the stream has finished).
     */
    synchronized void resume(Connection connection, long afterSequence) {
        replace(connection);
        for (Event event : buffer) {
            if (event.sequence() > afterSequence && !live.write(event.frame())) {
                live = null;
                return;
            }
        }
        if (finished) {
            live.close();
            live = null;
        }
    }

    /**
     * A comment line that keeps proxies from closing an idle stream and finds dead connections. Skipped
     * while earlier events still wait to go out: the stream is not idle then.
     *
     * @return whether the stream is left unfinished with no connection to carry it
     */
    synchronized boolean keepAlive() {
        if (live != null && !live.writeIfIdle(KEEP_ALIVE)) {
            live = null;
        }
        return !finished && !connected();
    }

    /**
     * Ends the stream's connection if it is still {@code connection} (a client that already resumed
     * on a new one keeps it), but keeps the stream, for the client to resume.
     */
    synchronized void disconnect(Connection connection) {
        if (live != null && live == connection && !finished) {
            live.close();
            live = null;
        }
    }

    /** The connection went away (the container told us). */
    synchronized void lost(Connection connection) {
        if (live == connection) {
            connection.lost();
            live = null;
        }
    }

    /** Closes the connection and drops the buffer. */
    synchronized void close() {
        finished = true;
        buffer.clear();
        if (live != null) {
            live.close();
            live = null;
        }
    }

    private void replace(Connection connection) {
        if (live != null && live != connection) {
            live.close();
        }
        live = connection;
    }
}
