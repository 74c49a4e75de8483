package io.quiver.transport.http.internal;

import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.locks.ReentrantLock;

/**
 * One SSE stream: the events sent on it, a bounded buffer of them for resumption with
 * {@code Last-Event-ID}, and the connection currently carrying it (if any). Event ids are
 * {@code <stream id>-<sequence>}, so a resuming client names the stream and position at once.
 */
final class SseStream {

    private static final byte[] KEEP_ALIVE = ": keep-alive\n\n".getBytes(StandardCharsets.UTF_8);

    private final String id;
    /**
     * Guards the buffer and the connection. Writes under it never wait for the client ({@link Connection}
     * holds what the socket does not take), but a timer's sweep still only tries it: a stream being
     * written to is not idle.
     */
    private final ReentrantLock lock = new ReentrantLock();
    private final int capacity;
    private final Deque<Event> buffer = new ArrayDeque<>();
    private long sequence;
    /** Set under the lock, read without it by {@link #connected} and {@link #finished}. */
    private volatile Connection live;
    private volatile boolean finished;

    private record Event(long sequence, byte[] frame) {
    }

    SseStream(String id, int capacity) {
        this.id = id;
        this.capacity = Math.max(1, capacity);
    }

    String id() {
        return id;
    }

    /** Attaches a fresh connection and sends the priming event (an id and empty data). */
    void open(Connection connection, int retryMs, boolean prime) {
        lock.lock();
        try {
            replace(connection);
            if (prime) {
                String frame = "id: " + id + "-" + sequence + "\nretry: " + retryMs + "\ndata: \n\n";
                live.write(frame.getBytes(StandardCharsets.UTF_8));
            }
        } finally {
            lock.unlock();
        }
    }

    /** Sends (or, without a connection, only buffers) one JSON-RPC message. */
    void send(byte[] json) {
        lock.lock();
        try {
            if (finished) {
                return;
            }
            sequence++;
            byte[] head = ("id: " + id + "-" + sequence + "\nevent: message\ndata: ").getBytes(StandardCharsets.UTF_8);
            byte[] frame = new byte[head.length + json.length + 2];
            System.arraycopy(head, 0, frame, 0, head.length);
            System.arraycopy(json, 0, frame, head.length, json.length);
            frame[frame.length - 2] = '\n';
            frame[frame.length - 1] = '\n';
            buffer.addLast(new Event(sequence, frame));
            while (buffer.size() > capacity) {
                buffer.removeFirst();
            }
            if (live != null && !live.write(frame)) {
                live = null;
            }
        } finally {
            lock.unlock();
        }
    }

    /** Sends the last message (if any) and ends the stream; a resuming client gets the rest, then the end. */
    void finish(byte[] json) {
        lock.lock();
        try {
            if (json != null) {
                send(json);
            }
            finished = true;
            if (live != null) {
                live.close();
                live = null;
            }
        } finally {
            lock.unlock();
        }
    }

    /** Without the lock (like {@link #connected}): asked by whoever must not wait behind a write. */
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
    void resume(Connection connection, long afterSequence) {
        lock.lock();
        try {
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
        } finally {
            lock.unlock();
        }
    }

    /**
     * A comment line that keeps proxies from closing an idle stream and finds dead connections. Skipped
     * while another thread writes to the stream, or while earlier events still wait to go out: it is not
     * idle then.
     *
     * @return whether the stream is left unfinished with no connection to carry it
     */
    boolean keepAlive() {
        if (!lock.tryLock()) {
            return false;
        }
        try {
            if (live != null && !live.writeIfIdle(KEEP_ALIVE)) {
                live = null;
            }
            return !finished && !connected();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Ends the stream's connection if it is still {@code connection} (a client that already resumed
     * on a new one keeps it), but keeps the stream, for the client to resume. Only tried (a timer asks).
     *
     * @return false, having done nothing, while another thread writes to the stream
     */
    boolean disconnect(Connection connection) {
        if (!lock.tryLock()) {
            return false;
        }
        try {
            if (live != null && live == connection && !finished) {
                live.close();
                live = null;
            }
            return true;
        } finally {
            lock.unlock();
        }
    }

    /** The connection went away (the container told us). */
    void lost(Connection connection) {
        lock.lock();
        try {
            if (live == connection) {
                connection.lost();
                live = null;
            }
        } finally {
            lock.unlock();
        }
    }

    /** Closes the connection and drops the buffer. */
    void close() {
        lock.lock();
        try {
            finished = true;
            buffer.clear();
            if (live != null) {
                live.close();
                live = null;
            }
        } finally {
            lock.unlock();
        }
    }

    private void replace(Connection connection) {
        if (live != null && live != connection) {
            live.close();
        }
        live = connection;
    }
}
