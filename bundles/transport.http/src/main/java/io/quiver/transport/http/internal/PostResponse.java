package io.quiver.transport.http.internal;

import io.quiver.api.transport.MessageSink;
import io.quiver.api.transport.Receipt;
import jakarta.servlet.AsyncContext;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.ObjectReadContext;
import tools.jackson.core.json.JsonFactory;

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
    /** The exchange is over here: its answer (or error) is being written, or the client was found gone. */
    private volatile boolean done;
    /** Guards the state and the writes; a lane thread only ever tries it. */
    private final ReentrantLock lock = new ReentrantLock();
    /** Keeps this response's writes off lane threads, in order. */
    private final HandOff handOff = new HandOff();

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
        if (!handOff.defer(() -> failHere(reason, response))) {
            failHere(reason, response);
        }
    }

    private void failHere(Receipt.Reason reason, byte[] response) {
        lock.lock();
        try {
            if (done) {
                return;
            }
            if (stream != null) {
                completeHere(response);
                return;
            }
            done = true;
            releaseUnused();
            try {
                HttpErrors.sendWithoutBlocking(async, HttpErrors.status(reason), response);
            } catch (IllegalStateException e) {
                LOG.debug("The client left before its error was written", e);
                NonBlockingWrite.complete(async);
            }
        } finally {
            lock.unlock();
        }
    }

    /**
     * Whether the exchange is over for this response: its answer or error is written (or being written), or a write
     * found the client gone. A response that ends without (Jetty completed it after a write of its own failed, a
     * keep-alive's) lost its client.
     */
    boolean over() {
        return done;
    }

    /** Switches to SSE now. */
    void streamNow() {
        lock.lock();
        try {
            if (stream == null && !done) {
                openStream();
            }
        } finally {
            lock.unlock();
        }
    }

    /**
     * Closes the connection this response streams on while it still waits for its response; the
     * client reconnects with {@code Last-Event-ID} and receives the rest (SSE polling). A client that
     * already reconnected keeps its new connection.
     */
    void hangUp() {
        lock.lock();
        try {
            if (!done && stream != null) {
                stream.disconnect(connection);
            }
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void send(byte[] message) {
        if (!handOff.defer(() -> sendHere(message))) {
            sendHere(message);
        }
    }

    private void sendHere(byte[] message) {
        boolean lost = false;
        lock.lock();
        try {
            if (done) {
                return;
            }
            if (stream == null) {
                openStream();
            }
            stream.send(message);
            if (onLost != null && !stream.connected()) {
                done = true;
                lost = true;
            }
        } finally {
            lock.unlock();
        }
        if (lost) {
            onLost.run(); // outside the lock: it cancels the exchange, which takes the engine's locks
        }
    }

    @Override
    public void complete(byte[] response) {
        // on a lane thread: the plain JSON answer written without blocking, when nothing is ahead of
        // it and no other thread is busy with this response; else in order on the pool
        if (LaneThread.here() && handOff.idle() && budget.unsentRoom() && lock.tryLock()) {
            try {
                if (done) {
                    return;
                }
                if (stream == null) {
                    done = true;
                    releaseUnused();
                    plain(response);
                    return;
                }
            } finally {
                lock.unlock();
            }
        }
        if (!handOff.defer(() -> completeHere(response))) {
            completeHere(response);
        }
    }

    private void completeHere(byte[] response) {
        lock.lock();
        try {
            if (done) {
                return;
            }
            done = true;
            if (stream != null) {
                finishStream(response);
                return;
            }
            releaseUnused();
            plain(response);
        } finally {
            lock.unlock();
        }
    }

    /**
     * Ends the stream with the response. The answer to a JSON-RPC batch (2025-03-26), an array, goes out as one
     * event per response: the revision allows either, and SSE clients read one message per event.
     */
    private void finishStream(byte[] response) {
        List<byte[]> responses = response == null || response.length == 0 || response[0] != '[' ? null : elements(response);
        if (responses == null) {
            stream.finish(response);
            return;
        }
        for (byte[] one : responses) {
            stream.send(one);
        }
        stream.finish(null);
    }

    /** A parser factory, made at the first batch answered on a stream, not with the first POST. */
    private static final class Tokens {
        static final JsonFactory FACTORY = new JsonFactory();
    }

    /** The elements of a JSON array, each as the bytes it was written with; null when it is not one. */
    static List<byte[]> elements(byte[] array) {
        List<byte[]> elements = new ArrayList<>();
        try (JsonParser parser = Tokens.FACTORY.createParser(ObjectReadContext.empty(), array)) {
            if (parser.nextToken() != JsonToken.START_ARRAY) {
                return null;
            }
            for (JsonToken token = parser.nextToken(); token != JsonToken.END_ARRAY; token = parser.nextToken()) {
                if (token == null) {
                    return null;
                }
                int start = (int) parser.currentTokenLocation().getByteOffset();
                parser.skipChildren();
                int end = (int) parser.currentLocation().getByteOffset();
                elements.add(Arrays.copyOfRange(array, start, end));
            }
            return parser.nextToken() == null ? elements : null;
        } catch (JacksonException e) {
            LOG.warn("A batch's answer is not a JSON array; it goes out as one event", e);
            return null;
        }
    }

    /**
     * The plain answer, 200 with JSON or 204 for none, written without blocking: a client that does not
     * read holds its answer, not the thread that made it. When all clients together hold
     * {@code maxUnsentBytesTotal} unread, this thread writes it and waits as long as it must (never a lane
     * thread: there {@link #complete} hands the answer to the pool first).
     */
    private void plain(byte[] response) {
        try {
            HttpServletResponse http = (HttpServletResponse) async.getResponse();
            if (response == null) {
                http.setStatus(HttpServletResponse.SC_NO_CONTENT);
                NonBlockingWrite.complete(async);
                return;
            }
            http.setStatus(HttpServletResponse.SC_OK);
            http.setContentType(MediaTypes.JSON);
            http.setContentLength(response.length);
            // an output already switched to non-blocking writes cannot block any more
            if (budget.holdUnsent(response.length, LaneThread.here() || ResponseOutput.of(async) != null)) {
                NonBlockingWrite.write(async, response, () -> budget.releaseUnsent(response.length));
                return;
            }
            LOG.debug("Clients hold maxUnsentBytesTotal unread: an answer is written blocking");
            try {
                http.getOutputStream().write(response);
            } catch (IOException e) {
                LOG.debug("The client left before its response was written", e);
            } finally {
                NonBlockingWrite.complete(async);
            }
        } catch (IllegalStateException e) {
            LOG.debug("The client left before its response was written", e);
            NonBlockingWrite.complete(async);
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
        Connection.prepare((HttpServletResponse) async.getResponse());
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
