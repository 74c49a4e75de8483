package io.quiver.transport.http.internal;

import io.quiver.api.transport.MessageSink;
import io.quiver.api.transport.Receipt;
import jakarta.servlet.AsyncContext;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The answer to one POSTed request. It starts undecided: if the response comes before anything
 * else it is sent as plain JSON; the first interim message (progress, a log message, a request to
 * the client) turns it into an SSE stream that ends with the response. Methods that usually
 * stream are SSE from the start.
 */
final class PostResponse implements MessageSink {

    private static final Logger LOG = LoggerFactory.getLogger(PostResponse.class);

    private final AsyncContext async;
    private final SessionStreams streams;
    private final StreamBudget budget;
    private final int retryMs;
    private final boolean prime;
    private final Runnable onLost;
    /** The place among open streams this response holds, once it streams (or was reserved for it). */
    private StreamBudget.Ticket ticket;
    private SseStream stream;
    /** The connection this response opened its stream on; a resuming client's later ones are not ours to close. */
    private Connection connection;
    private boolean done;
    /**
     * Once something had to leave a {@link LaneThread} (an interim message, an error), everything
     * after it goes the same way, in order: the pool thread that drains it, or null.
     */
    private Serial serial;

    /**
     * @param ticket a place among the open streams reserved for this response, or {@code null}: one
     *     is taken (whatever the limits) if it turns into a stream
     * @param onLost run when the client goes away before the exchange is over (stateless requests:
     *     that cancels them), or {@code null}
     */
    PostResponse(AsyncContext async, SessionStreams streams, StreamBudget budget, StreamBudget.Ticket ticket,
            int retryMs, boolean prime, Runnable onLost) {
        this.async = async;
        this.streams = streams;
        this.budget = budget;
        this.ticket = ticket;
        this.retryMs = retryMs;
        this.prime = prime;
        this.onLost = onLost;
    }

    @Override
    public void fail(Receipt.Reason reason, byte[] response) {
        if (!deferred(() -> failHere(reason, response))) {
            failHere(reason, response);
        }
    }

    private synchronized void failHere(Receipt.Reason reason, byte[] response) {
        if (done) {
            return;
        }
        if (stream != null) {
            complete(response);
            return;
        }
        done = true;
        releaseUnused();
        try {
            HttpErrors.send((HttpServletResponse) async.getResponse(), HttpErrors.status(reason), response);
        } catch (IOException | IllegalStateException e) {
            LOG.debug("The client left before its error was written", e);
        } finally {
            try {
                async.complete();
            } catch (IllegalStateException e) {
                // the container already completed it
            }
        }
    }

    /** Switches to SSE now. */
    synchronized void streamNow() {
        if (stream == null && !done) {
            openStream();
        }
    }

    /**
     * Closes the connection this response streams on while it still waits for its response; the
     * client reconnects with {@code Last-Event-ID} and receives the rest (SSE polling). A client that
     * already reconnected keeps its new connection.
     */
    synchronized void hangUp() {
        if (!done && stream != null) {
            stream.disconnect(connection);
        }
    }

    @Override
    public void send(byte[] message) {
        if (!deferred(() -> sendHere(message))) {
            sendHere(message);
        }
    }

    private synchronized void sendHere(byte[] message) {
        if (done) {
            return;
        }
        if (stream == null) {
            openStream();
        }
        stream.send(message);
        if (onLost != null && !stream.connected()) {
            done = true;
            onLost.run();
        }
    }

    @Override
    public void complete(byte[] response) {
        synchronized (this) {
            if (serial == null && stream == null && LaneThread.here()) {
                // the plain JSON answer, written without blocking the thread that read the request
                if (done) {
                    return;
                }
                done = true;
                releaseUnused();
                HttpServletResponse http = (HttpServletResponse) async.getResponse();
                if (response == null) {
                    http.setStatus(HttpServletResponse.SC_NO_CONTENT);
                    NonBlockingWrite.complete(async);
                } else {
                    http.setStatus(HttpServletResponse.SC_OK);
                    http.setContentType(MediaTypes.JSON);
                    http.setContentLength(response.length);
                    NonBlockingWrite.write(async, response);
                }
                return;
            }
        }
        if (!deferred(() -> completeHere(response))) {
            completeHere(response);
        }
    }

    /**
     * Whether {@code action} was left to the pool: on a lane thread (whose writes must not block), or
     * behind something that was. Off the lane, with nothing left behind, it runs here.
     */
    private boolean deferred(Runnable action) {
        Serial to;
        synchronized (this) {
            if (serial == null) {
                if (!LaneThread.here()) {
                    return false;
                }
                serial = new Serial(LaneThread.pool());
            }
            to = serial;
        }
        return to.offer(action);
    }

    private synchronized void completeHere(byte[] response) {
        if (done) {
            return;
        }
        done = true;
        if (stream != null) {
            stream.finish(response);
            return;
        }
        releaseUnused();
        HttpServletResponse http = (HttpServletResponse) async.getResponse();
        try {
            if (response == null) {
                http.setStatus(HttpServletResponse.SC_NO_CONTENT);
            } else {
                http.setStatus(HttpServletResponse.SC_OK);
                http.setContentType(MediaTypes.JSON);
                http.setContentLength(response.length);
                http.getOutputStream().write(response);
            }
        } catch (IOException | IllegalStateException e) {
            LOG.debug("The client left before its response was written", e);
        } finally {
            try {
                async.complete();
            } catch (IllegalStateException e) {
                // the container already completed it
            }
        }
    }

    /** Runs actions one after another on a pool, in the order offered. */
    private static final class Serial {
        private final java.util.concurrent.Executor pool;
        private final java.util.ArrayDeque<Runnable> queue = new java.util.ArrayDeque<>();
        private Thread draining;
        private boolean scheduled;

        Serial(java.util.concurrent.Executor pool) {
            this.pool = pool;
        }

        /** False when called from the draining thread itself: the caller runs it now, in order. */
        synchronized boolean offer(Runnable action) {
            if (draining == Thread.currentThread()) {
                return false;
            }
            queue.add(action);
            if (!scheduled) {
                scheduled = true;
                pool.execute(this::drain);
            }
            return true;
        }

        private void drain() {
            while (true) {
                Runnable next;
                synchronized (this) {
                    next = queue.poll();
                    if (next == null) {
                        scheduled = false;
                        draining = null;
                        return;
                    }
                    draining = Thread.currentThread();
                }
                try {
                    next.run();
                } catch (RuntimeException e) {
                    LOG.warn("Writing a response failed", e);
                }
            }
        }
    }

    /** A place reserved for a stream that never opened goes back. */
    private void releaseUnused() {
        if (ticket != null && stream == null) {
            ticket.release();
            ticket = null;
        }
    }

    private void openStream() {
        if (ticket == null) {
            ticket = budget.response(streams.ownerOfTickets(), Integer.MAX_VALUE, true);
        }
        HttpServletResponse http = (HttpServletResponse) async.getResponse();
        http.setStatus(HttpServletResponse.SC_OK);
        http.setContentType(MediaTypes.SSE);
        http.setCharacterEncoding("UTF-8");
        http.setHeader("Cache-Control", "no-cache, no-transform");
        http.setHeader("X-Accel-Buffering", "no");
        stream = streams.create('p');
        try {
            connection = new Connection(async, ticket);
            async.addListener(new StreamListener(stream, connection));
            stream.open(connection, retryMs, prime);
        } catch (IOException | IllegalStateException e) {
            ticket.release();
            LOG.debug("The client left before its stream opened: {}", e.toString());
        }
    }
}
