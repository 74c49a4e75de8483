package io.quiver.transport.stdio.internal;

import io.quiver.api.CallerIdentity;
import io.quiver.api.transport.Inbound;
import io.quiver.api.transport.McpEngine;
import io.quiver.api.transport.McpSession;
import io.quiver.api.transport.MessageSink;
import io.quiver.api.transport.Receipt;
import io.quiver.api.transport.TransportErrors;
import java.io.IOException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

/**
 * One client on the other end of a pair of pipes: each line read is one message for the engine,
 * everything the engine answers or sends goes out as one line.
 *
 * <p>The session is the one the client's {@code initialize} opened; its id goes with every later
 * message, as the {@code Mcp-Session-Id} header does over HTTP. Once the {@code initialize} response is
 * out, the session's stream (list changes, resource updates) is attached here for as long as the
 * session lives; an attached stream also keeps the session from being expired as idle, which a
 * client that sits quietly for hours (a desktop application) needs. When the session ends, later
 * requests are told to initialize again.
 *
 * <p>Requests are started ({@link io.quiver.api.transport.Exchange#start}), never run on the reading
 * thread: the engine answers quick control methods at once and hands everything else to its own
 * threads, within its limits, so a slow tool call never holds up the next line (a {@code ping}, a
 * cancellation, the answer to the server's own question). The reading thread only blocks on a write
 * while the client does not read its stdout.
 *
 * <p>While the server starts, the {@code initialize} that opens the session is answered at once and the next request
 * waits (reading with it) until the start is over: a host launches the server and lists its tools straight away, and
 * the list must hold every tool of the features and of deploy/, not those that happen to be up.
 *
 * <p>Refusals are answered where JSON-RPC wants an answer: a line that is not JSON or not a valid
 * message gets its error with id null; any other refusal only when the message was a request (has
 * an id). Notifications and responses get no answer.
 */
final class StdioConnection {

    private static final Logger LOG = LoggerFactory.getLogger(StdioConnection.class);
    private static final ObjectMapper JSON = JsonMapper.builder().build();
    /** How long the end waits for the session's last messages to be written. */
    private static final long FLUSH_MS = 2_000;

    private final McpEngine engine;
    private final LineReader in;
    private final LineWriter out;
    private final CallerIdentity caller;
    private final LongSupplier maxMessageBytes;
    private final Runnable untilStarted;
    /** Where the messages of each request go: straight out, as lines. */
    private final MessageSink replies;
    /** Where the session's own messages go (list changes, resource updates). */
    private final Queued notifications;
    private volatile McpSession session;
    /**
     * The 2026-07-28 requests in progress by their id's JSON text: over stdio a client cancels one with
     * {@code notifications/cancelled} (there is no stream of its own to close).
     */
    private final Map<String, Cancellable> inProgress = new ConcurrentHashMap<>();
    private volatile AutoCloseable attached;
    private volatile boolean closed;

    /**
     * @param caller who the client is (the local caller of the default tenant: whoever could start this
     *     process)
     * @param maxMessageBytes the limit the reader applies, for the error message
     */
    StdioConnection(McpEngine engine, LineReader in, LineWriter out, CallerIdentity caller,
            LongSupplier maxMessageBytes) {
        this(engine, in, out, caller, maxMessageBytes, () -> { });
    }

    /**
     * @param untilStarted returns once the server's start is over; a request other than the {@code initialize} that
     *     opens the session waits for it on the reading thread, so that what it lists or calls is all there
     */
    StdioConnection(McpEngine engine, LineReader in, LineWriter out, CallerIdentity caller,
            LongSupplier maxMessageBytes, Runnable untilStarted) {
        this.untilStarted = untilStarted;
        this.engine = engine;
        this.in = in;
        this.out = out;
        this.caller = caller;
        this.maxMessageBytes = maxMessageBytes;
        this.replies = new Lines(out);
        this.notifications = new Queued(new Lines(out));
    }

    /**
     * Serves lines until stdin ends or {@link #close} is called; blocks meanwhile.
     *
     * @return true at the end of stdin (the client is done), false after {@link #close}
     */
    boolean serve() throws IOException {
        while (!closed) {
            LineReader.Line line = in.next();
            if (closed) {
                return false;
            }
            if (out.broken()) {
                // nothing can reach the client: a request taken now would run (a side effect, perhaps) unanswered
                LOG.warn("stdout is closed: no further request is taken, the server stops as at the end of stdin");
                return true;
            }
            if (line instanceof LineReader.Message message) {
                receive(message.bytes());
            } else if (line instanceof LineReader.TooLong tooLong) {
                LOG.warn("A message of {} bytes was refused: the limit is maxMessageBytes = {}", tooLong.length(),
                        maxMessageBytes.getAsLong());
                out.write(engine.errorResponse(TransportErrors.INVALID_REQUEST, "Invalid Request: the message is "
                        + tooLong.length() + " bytes long, over the limit of " + maxMessageBytes.getAsLong()
                        + " bytes (maxMessageBytes); it was skipped"));
            } else {
                return true;
            }
        }
        return false;
    }

    /** One message from the client. */
    void receive(byte[] message) {
        McpSession current = session;
        String sessionId = current != null && current.isOpen() ? current.id() : null;
        Receipt receipt;
        try {
            receipt = engine.receive(message, new Inbound(sessionId, null, caller, null, null));
        } catch (RuntimeException e) {
            // the engine never throws for bad input: this is the engine stopping under us
            LOG.error("The engine failed to take a message", e);
            return;
        }
        if (!(receipt instanceof Receipt.Pending) && mayCancel(message)) {
            cancelled(message); // with or without the era's _meta, which a notification may leave out
        }
        if (receipt instanceof Receipt.Rejected rejected) {
            if (owesAnswer(rejected)) {
                out.write(rejected.body());
            }
        } else if (receipt instanceof Receipt.Pending pending) {
            MessageSink sink = replies;
            if (pending.session() == null && !pending.exchange().streamPolicy().resumable()) {
                // a request of the stateless era: cancelled by a notification naming its id
                String id = idOf(message);
                if (id != null) {
                    Cancellable own = new Cancellable(replies, pending.exchange(), id, inProgress);
                    inProgress.put(id, own);
                    sink = own;
                }
            }
            if (pending.session() != null && pending.session() != current) {
                // initialize opened a session: later messages name it, its stream is attached once it is answered
                session = pending.session();
                sink = new Opening(pending.session());
            } else {
                untilStarted.run(); // later lines wait too: the client's order is kept
            }
            pending.exchange().start(sink);
        }
    }

    /**
     * The client is done (stdin ended): the engine drains, so requests in flight still get their
     * answers out, within its grace period, and the session's stream gets its last message.
     */
    void end() {
        engine.drain();
        detach();
        notifications.flush(FLUSH_MS);
    }

    /** Stops serving (the transport stops without the server): the session's stream is detached. */
    void close() {
        closed = true;
        detach();
        notifications.flush(FLUSH_MS);
        notifications.stop();
    }

    private void detach() {
        AutoCloseable handle = attached;
        attached = null;
        if (handle != null) {
            try {
                handle.close();
            } catch (Exception e) {
                LOG.debug("Detaching the session stream failed: {}", e.toString());
            }
        }
    }

    private void attach(McpSession opened) {
        if (closed || session != opened) {
            return;
        }
        AutoCloseable handle = opened.attach(notifications);
        if (handle == null) {
            LOG.warn("Session {} already has a stream: its notifications do not reach stdout", opened.id());
            return;
        }
        AutoCloseable previous = attached;
        attached = handle;
        if (previous != null) {
            try {
                previous.close();
            } catch (Exception e) {
                LOG.debug("Detaching the previous session stream failed: {}", e.toString());
            }
        }
    }

    /** Whether JSON-RPC wants a refusal answered: malformed input always, anything else for a request only. */
    static boolean owesAnswer(Receipt.Rejected rejected) {
        if (rejected.reason() == Receipt.Reason.PARSE_ERROR || rejected.reason() == Receipt.Reason.INVALID_REQUEST) {
            return true;
        }
        try {
            JsonNode id = JSON.readTree(rejected.body()).get("id");
            return id != null && !id.isNull();
        } catch (JacksonException e) {
            return true;
        }
    }

    /** Whether a response is a result (not an error). */
    static boolean isResult(byte[] response) {
        try {
            return JSON.readTree(response).has("result");
        } catch (JacksonException e) {
            return false;
        }
    }

    /** Whether a message the engine took without an answer may be a cancellation (checked before it is read again). */
    private boolean mayCancel(byte[] message) {
        return !inProgress.isEmpty() && new String(message, java.nio.charset.StandardCharsets.UTF_8)
                .contains("notifications/cancelled");
    }

    /** A {@code notifications/cancelled} naming a stateless request in progress: it is cancelled and not answered. */
    private void cancelled(byte[] message) {
        try {
            JsonNode node = JSON.readTree(message);
            if (!"notifications/cancelled".equals(node.path("method").asString(""))) {
                return;
            }
            JsonNode requestId = node.path("params").get("requestId");
            Cancellable request = requestId == null ? null : inProgress.remove(requestId.toString());
            if (request != null) {
                request.cancel();
            }
        } catch (JacksonException e) {
            // not ours to judge: the engine took it
        }
    }

    /**
     * The JSON text of a request's id, or null: read as far as the id and no further (the engine has read the whole
     * message already; its arguments may be megabytes).
     */
    static String idOf(byte[] message) {
        try (JsonParser parser = JSON.createParser(message)) {
            if (parser.nextToken() != JsonToken.START_OBJECT) {
                return null;
            }
            while (parser.nextToken() == JsonToken.PROPERTY_NAME) {
                boolean id = "id".equals(parser.currentName());
                JsonToken value = parser.nextToken();
                if (id) {
                    if (value == JsonToken.VALUE_STRING) {
                        return JSON.writeValueAsString(parser.getString()); // as JSON text: quoted, escaped
                    }
                    return value == JsonToken.VALUE_NUMBER_INT ? parser.getBigIntegerValue().toString() : null;
                }
                parser.skipChildren();
            }
            return null;
        } catch (JacksonException e) {
            return null;
        }
    }

    /**
     * The sink of a stateless request a client may cancel: once cancelled, the engine is told (the exchange is
     * abandoned, which cancels a stateless request) and nothing more of it is written.
     */
    private static final class Cancellable implements MessageSink {
        private final MessageSink lines;
        private final io.quiver.api.transport.Exchange exchange;
        private final String id;
        private final Map<String, Cancellable> inProgress;
        private volatile boolean cancelled;

        Cancellable(MessageSink lines, io.quiver.api.transport.Exchange exchange, String id,
                Map<String, Cancellable> inProgress) {
            this.lines = lines;
            this.exchange = exchange;
            this.id = id;
            this.inProgress = inProgress;
        }

        void cancel() {
            cancelled = true;
            exchange.abandon();
        }

        @Override
        public void send(byte[] message) {
            if (!cancelled) {
                lines.send(message);
            }
        }

        @Override
        public void complete(byte[] response) {
            inProgress.remove(id, this); // its own entry: a later request may have reused the id
            if (!cancelled) {
                lines.complete(response);
            }
        }
    }

    /** Messages out, one line each; the end of a stream has nothing to write unless it brings a last message. */
    private static class Lines implements MessageSink {
        private final LineWriter out;

        Lines(LineWriter out) {
            this.out = out;
        }

        @Override
        public void send(byte[] message) {
            out.write(message);
        }

        @Override
        public void complete(byte[] response) {
            if (response != null) {
                out.write(response);
            }
        }
    }

    /**
     * The session's own messages (list changes, resource updates), written by a thread of their own: the engine
     * sends them from its timer, which must never wait for a client that does not read its stdout (the timer
     * also runs the watchdog of tool timeouts and the session sweep). At most {@value #MAX_QUEUED} wait; beyond
     * them a message is dropped and the log says so once.
     */
    static final class Queued implements MessageSink {
        static final int MAX_QUEUED = 1024;
        private final MessageSink lines;
        private final AtomicBoolean dropped = new AtomicBoolean();
        /** One thread, in order; beyond the queue's room a message is dropped (said once). */
        private final ThreadPoolExecutor writer = new ThreadPoolExecutor(1, 1, 0, TimeUnit.MILLISECONDS,
                new ArrayBlockingQueue<>(MAX_QUEUED), r -> {
                    Thread t = new Thread(r, "quiver-stdio-notifications");
                    t.setDaemon(true);
                    return t;
                }, (write, pool) -> {
                    if (!pool.isShutdown() && dropped.compareAndSet(false, true)) {
                        LOG.warn("The client does not read its stdout: {} notifications wait, and the next are dropped",
                                MAX_QUEUED);
                    }
                });

        Queued(MessageSink lines) {
            this.lines = lines;
        }

        @Override
        public void send(byte[] message) {
            writer.execute(() -> write(() -> lines.send(message)));
        }

        @Override
        public void complete(byte[] response) {
            writer.execute(() -> write(() -> lines.complete(response)));
        }

        private static void write(Runnable write) {
            try {
                write.run();
            } catch (RuntimeException e) {
                LOG.warn("Writing a notification failed: {}", e.toString());
            }
        }

        /** Waits up to {@code ms} for what was taken to be written (a client that reads gets its last messages). */
        void flush(long ms) {
            try {
                writer.submit(() -> { }).get(ms, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (ExecutionException | TimeoutException e) {
                // not written within the time (or dropped with a full queue): the client does not read
            }
        }

        /** No more is written: the connection is closed while the server goes on. */
        void stop() {
            writer.shutdownNow();
        }
    }

    /** The {@code initialize} exchange: once its result is out, the new session's stream is attached. */
    private final class Opening extends Lines {
        private final McpSession opened;

        Opening(McpSession opened) {
            super(out);
            this.opened = opened;
        }

        @Override
        public void complete(byte[] response) {
            super.complete(response);
            if (response != null && isResult(response)) {
                attach(opened);
            }
        }
    }
}
