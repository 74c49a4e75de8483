package io.quiver.upstream.internal;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BiConsumer;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * A remote server spoken to over MCP's Streamable HTTP transport: each message a POST, answered as
 * JSON or as an SSE stream (carrying the server's notifications and, in a session revision, its
 * requests, then the response).
 *
 * <p>In a session revision (2025-11-25 and before) the session id the server gives at
 * {@code initialize} and the agreed revision go on every later request; a GET stream carries messages
 * not tied to a request (such as {@code notifications/tools/list_changed}) where the server offers
 * one; and a response stream that ends before its response is resumed with a GET carrying
 * {@code Last-Event-ID}, after the wait the server's last {@code retry} field asked for. A request the
 * server cannot be reached for, or a session it no longer knows, ends the connection, and the
 * supervisor connects again.
 *
 * <p>In a stateless revision (2026-07-28) each request stands alone: {@code MCP-Protocol-Version} from
 * its {@code _meta}, {@code Mcp-Method}, {@code Mcp-Name} and the {@code Mcp-Param-*} headers of the
 * tool's schema; no session, no GET stream, no resumption; closing a request's stream cancels it.
 */
final class HttpConnection implements Connection {

    private static final Logger LOG = LoggerFactory.getLogger(HttpConnection.class);
    private static final JsonMapper JSON = McpClient.JSON;
    /** Headers Quiver sets itself; the configuration may not replace them. */
    private static final Set<String> OWN = Set.of("content-type", "accept", "mcp-session-id", "mcp-protocol-version",
            "mcp-method", "mcp-name", "last-event-id", "content-length", "host", "connection");
    /** The wait before resuming a stream whose server named none ({@code retry}). */
    static final long DEFAULT_RETRY_MS = 1_000;
    /** How long the start waits for the server's answer to the GET stream, at most. */
    static final long GET_WAIT_MS = 5_000;
    /** Resumptions in a row that bring no event before a response stream is given up. */
    static final int MAX_FRUITLESS_RESUMES = 3;

    private final ServerSpec spec;
    private final Duration connectTimeout;
    private final StderrTail tail;
    private final AtomicBoolean ended = new AtomicBoolean();
    private final Set<InputStream> streams = ConcurrentHashMap.newKeySet();
    private final Map<Long, Exchange> exchanges = new ConcurrentHashMap<>();
    private final ExecutorService readers;
    private final HttpClient http;
    private volatile String sessionId;
    private volatile String protocolVersion;
    private volatile boolean stateless;
    private volatile boolean closing;
    private volatile CompletableFuture<?> initializedSent;
    private Listener listener;

    /** The longest message read from the server; longer ones fail their request (as over stdio). */
    private final int maxMessageBytes;

    /** One request's exchange: its response, and the stream carrying it while one is open. */
    private static final class Exchange {
        volatile CompletableFuture<?> response;
        volatile InputStream body;
        volatile boolean abandoned;
    }

    /** @param maxMessageBytes the longest message (a JSON body, an event's data, one line of a stream) read */
    HttpConnection(ServerSpec spec, Duration connectTimeout, int maxMessageBytes, StderrTail tail) {
        this.maxMessageBytes = maxMessageBytes;
        this.spec = spec;
        this.connectTimeout = connectTimeout;
        this.tail = tail;
        this.readers = Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "quiver-upstream-" + spec.name() + "-http");
            t.setDaemon(true);
            return t;
        });
        this.http = HttpClient.newBuilder().connectTimeout(connectTimeout).executor(readers)
                .followRedirects(HttpClient.Redirect.NEVER).build();
    }

    @Override
    public void open(Listener listener) {
        this.listener = listener;
    }

    @Override
    public void negotiated(String version, boolean stateless) {
        this.stateless = stateless;
        if (!stateless) {
            protocolVersion = version;
        }
    }

    /**
     * Opens the GET stream and waits (a little) for the server's answer to it, so the stream is there
     * before the first request: a server may send what is not tied to a request (a list change, or a
     * response it replays when a stream is resumed) on whichever GET stream it has.
     */
    @Override
    public void initialized() {
        if (stateless) {
            return;
        }
        long wait = Math.min(connectTimeout.toMillis(), GET_WAIT_MS);
        CompletableFuture<?> notified = initializedSent;
        try {
            if (notified != null) {
                notified.get(wait, TimeUnit.MILLISECONDS); // the session is live for the server first
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
        } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException
                | CancellationException e) {
            // the GET goes out anyway
        }
        CountDownLatch answered = new CountDownLatch(1);
        readers.execute(() -> listen(answered));
        try {
            answered.await(wait, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public boolean http() {
        return true;
    }

    /** A request with the configured headers, and the session's where there is one. */
    private HttpRequest.Builder request(boolean session) {
        HttpRequest.Builder b = HttpRequest.newBuilder(spec.url());
        for (Map.Entry<String, String> h : spec.headers().entrySet()) {
            if (!OWN.contains(h.getKey().toLowerCase(Locale.ROOT))) {
                b.header(h.getKey(), h.getValue());
            }
        }
        if (session) {
            String id = sessionId;
            if (id != null) {
                b.header("Mcp-Session-Id", id);
            }
            String version = protocolVersion;
            if (version != null) {
                b.header("MCP-Protocol-Version", version);
            }
        }
        return b;
    }

    @Override
    public void send(ObjectNode message, Map<String, String> headers) throws IOException {
        if (ended.get()) {
            throw new IOException("the connection to " + spec.shownUrl() + " has ended");
        }
        JsonNode id = message.get("id");
        String method = message.path("method").isString() ? message.get("method").asString() : null;
        boolean isRequest = id != null && !id.isNull() && method != null;
        JsonNode params = message.get("params");
        JsonNode version = params == null ? null : params.path("_meta").get(McpClient.META_VERSION);
        HttpRequest.Builder b;
        if (version != null && version.isString() && method != null) {
            // a stateless revision's request: everything it needs is in it and its headers
            b = request(false).header("MCP-Protocol-Version", version.asString()).header("Mcp-Method", method);
            String name = McpHeaders.name(method, params);
            if (name != null) {
                b.header("Mcp-Name", McpHeaders.encode(name));
            }
            headers.forEach((k, v) -> {
                if (!OWN.contains(k.toLowerCase(Locale.ROOT))) {
                    b.header(k, v);
                }
            });
        } else {
            b = request(true);
        }
        HttpRequest post = b.header("Content-Type", "application/json").header("Accept", "application/json, text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofByteArray(JSON.writeValueAsBytes(message))).build();
        Exchange exchange = new Exchange();
        Long key = isRequest && id.canConvertToLong() ? id.asLong() : null;
        if (key != null) {
            exchanges.put(key, exchange);
        }
        boolean initialize = "initialize".equals(method);
        CompletableFuture<HttpResponse<InputStream>> response = http.sendAsync(post, HttpResponse.BodyHandlers.ofInputStream());
        exchange.response = response;
        if ("notifications/initialized".equals(method)) {
            initializedSent = response;
        }
        BiConsumer<HttpResponse<InputStream>, Throwable> receive = (r, failure) -> {
            try {
                if (failure != null) {
                    if (!exchange.abandoned && !(unwrap(failure) instanceof CancellationException)) {
                        end("cannot reach " + spec.shownUrl() + ": " + describe(failure));
                    }
                    return;
                }
                if (exchange.abandoned) {
                    close(r.body());
                    return;
                }
                answered(r, isRequest ? id : null, initialize, exchange);
            } catch (RuntimeException e) {
                LOG.warn("Upstream {}: reading an answer failed", spec.name(), e);
            } finally {
                if (key != null) {
                    exchanges.remove(key, exchange);
                }
            }
        };
        // on a reader thread, never the sending one: a response already complete when the callback is
        // attached would otherwise be read (its stream, and any resumption of it) inside this method
        Thread sender = Thread.currentThread();
        response.whenComplete((r, failure) -> {
            if (Thread.currentThread() == sender) {
                readers.execute(() -> receive.accept(r, failure));
            } else {
                receive.accept(r, failure);
            }
        });
    }

    private void answered(HttpResponse<InputStream> response, JsonNode requestId, boolean initialize, Exchange exchange) {
        if (initialize && sessionId == null) {
            response.headers().firstValue("mcp-session-id").ifPresent(s -> sessionId = s);
        }
        int status = response.statusCode();
        String type = response.headers().firstValue("content-type").orElse("").toLowerCase(Locale.ROOT);
        InputStream body = response.body();
        if (status == 404 && sessionId != null && !stateless) {
            close(body);
            end("the server no longer knows the session (HTTP 404)");
            return;
        }
        if (status / 100 != 2) {
            String text = read(body);
            text = text == null ? "(a body longer than maxMessageBytes)" : text;
            tail.add("[http] " + status + " " + text.substring(0, Math.min(200, text.length())));
            if (requestId != null) {
                JsonNode parsed = parse(text);
                if (parsed != null && parsed.path("error").isObject()) {
                    answer(requestId, (ObjectNode) parsed.get("error"));
                } else {
                    fail(requestId, "the server answered HTTP " + status);
                }
            }
            return;
        }
        if (type.startsWith("text/event-stream")) {
            Stream stream = new Stream(requestId);
            exchange.body = body;
            events(body, stream);
            if (requestId != null) {
                finish(stream, exchange);
            }
        } else if (type.startsWith("application/json")) {
            String text = read(body);
            if (text == null) {
                tail.add("[http] an answer longer than maxMessageBytes (" + maxMessageBytes + ")");
                if (requestId != null) {
                    fail(requestId, "the server's answer is longer than maxMessageBytes (" + maxMessageBytes + " bytes)");
                }
                return;
            }
            JsonNode parsed = parse(text);
            if (parsed instanceof ObjectNode object) {
                listener.message(object, requestId);
            } else if (parsed != null && parsed.isArray()) {
                parsed.forEach(m -> {
                    if (m instanceof ObjectNode o) {
                        listener.message(o, requestId);
                    }
                });
            } else if (requestId != null) {
                fail(requestId, "the server answered HTTP " + status + " with a body that is not a JSON-RPC message");
            }
        } else {
            close(body);
            if (requestId != null) {
                fail(requestId, "the server answered HTTP " + status + " without a response ("
                        + (type.isEmpty() ? "no content type" : type) + ")");
            }
        }
    }

    /**
     * A request's response stream ended. Without its response, a session revision's stream that named
     * an event id is resumed (a GET with {@code Last-Event-ID}, after the server's {@code retry} wait),
     * for as long as resuming brings events; otherwise the request fails (it is not sent again).
     */
    private void finish(Stream stream, Exchange exchange) {
        int fruitless = 0;
        while (!stream.answered && !exchange.abandoned && !closing && !ended.get() && !stateless
                && stream.lastEventId != null && fruitless < MAX_FRUITLESS_RESUMES && stream.failure == null) {
            try {
                Thread.sleep(stream.retryMs >= 0 ? stream.retryMs : DEFAULT_RETRY_MS);
            } catch (InterruptedException e) {
                return;
            }
            if (exchange.abandoned || closing || ended.get()) {
                return;
            }
            int before = stream.events;
            try {
                HttpResponse<InputStream> resumed = http.send(request(true).header("Accept", "text/event-stream")
                        .header("Last-Event-ID", stream.lastEventId).GET().build(), HttpResponse.BodyHandlers.ofInputStream());
                if (resumed.statusCode() != 200 || !resumed.headers().firstValue("content-type").orElse("")
                        .toLowerCase(Locale.ROOT).startsWith("text/event-stream")) {
                    close(resumed.body());
                    break;
                }
                exchange.body = resumed.body();
                if (exchange.abandoned) {
                    close(resumed.body());
                    return;
                }
                stream.resumed = true; // read until its answer, not until the server ends it (it may not)
                events(resumed.body(), stream);
            } catch (IOException e) {
                // counted as fruitless below
            } catch (InterruptedException e) {
                return;
            }
            fruitless = stream.events > before ? 0 : fruitless + 1;
        }
        if (!stream.answered && !exchange.abandoned && !closing && !ended.get()) {
            fail(stream.requestId, stream.failure != null ? stream.failure : stream.lastEventId == null || stateless
                    ? "the server ended the response stream before it answered"
                    : "the server ended the response stream before it answered, and resuming it brought nothing");
        }
    }

    /**
     * The lines of a stream, ended by CR, LF or CRLF as the SSE standard has it, none longer than {@code max}
     * characters. A CR ends its line at once (no read ahead for an LF, which could wait for the server's next
     * bytes while the event it ends is due now); an LF right after it is skipped with the next line.
     */
    private static final class LineReader {
        private final BufferedReader in;
        private final int max;
        private final StringBuilder buffer = new StringBuilder();
        private boolean afterCr;

        LineReader(BufferedReader in, int max) {
            this.in = in;
            this.max = max;
        }

        /** The next line, null at the stream's end; {@link TooLarge} past the limit. */
        String next() throws IOException {
            buffer.setLength(0);
            int c;
            while ((c = in.read()) >= 0) {
                boolean skip = afterCr && c == '\n' && buffer.length() == 0;
                afterCr = false;
                if (skip) {
                    continue;
                }
                if (c == '\n') {
                    return buffer.toString();
                }
                if (c == '\r') {
                    afterCr = true;
                    return buffer.toString();
                }
                if (buffer.length() >= max) {
                    throw new TooLarge("a line of the server's stream is longer than maxMessageBytes (" + max + ")");
                }
                buffer.append((char) c);
            }
            return buffer.length() == 0 ? null : buffer.toString();
        }
    }

    /** The position in one SSE stream (across its resumptions) and whether it carried its response. */
    static final class Stream {
        final JsonNode requestId;
        volatile String lastEventId;
        volatile long retryMs = -1;
        volatile boolean answered;
        volatile int events;
        /** Read from a resumption (a GET for this request alone): done once answered. */
        volatile boolean resumed;
        /** Why the stream was given up (a message longer than the limit), or null. */
        volatile String failure;

        Stream(JsonNode requestId) {
            this.requestId = requestId;
        }
    }

    /**
     * The GET stream of messages not tied to a request; reopened (from its last event) while it ends
     * cleanly. {@code answered} is counted down once the server first answered (or could not be reached).
     */
    private void listen(CountDownLatch answered) {
        Stream stream = new Stream(null);
        int failures = 0;
        try {
            while (!closing && !ended.get() && failures < 3) {
                HttpRequest.Builder get = request(true).header("Accept", "text/event-stream");
                if (stream.lastEventId != null) {
                    get.header("Last-Event-ID", stream.lastEventId);
                }
                try {
                    HttpResponse<InputStream> response = http.send(get.GET().build(), HttpResponse.BodyHandlers.ofInputStream());
                    answered.countDown();
                    if (response.statusCode() != 200) {
                        close(response.body());
                        return; // 405: the server offers no such stream
                    }
                    events(response.body(), stream);
                    if (stream.failure != null) {
                        return; // a server that sends more than it may is not listened to again
                    }
                    failures = 0;
                } catch (IOException e) {
                    answered.countDown();
                    failures++;
                } catch (InterruptedException e) {
                    return;
                }
                try {
                    Thread.sleep(stream.retryMs >= 0 ? stream.retryMs : 500);
                } catch (InterruptedException e) {
                    return;
                }
            }
        } finally {
            answered.countDown();
        }
    }

    /**
     * Reads an SSE stream to its end: each event's data is one message; {@code id} and {@code retry}
     * fields are kept for resuming; comments and an event without data (a priming event) carry no message.
     */
    void events(InputStream body, Stream stream) {
        streams.add(body);
        try (BufferedReader in = new BufferedReader(new InputStreamReader(body, StandardCharsets.UTF_8))) {
            read(in, maxMessageBytes, stream, this::dispatch);
        } catch (TooLarge e) {
            stream.failure = e.getMessage();
            tail.add("[http] " + e.getMessage());
        } catch (IOException e) {
            // the stream ended
        } finally {
            streams.remove(body);
        }
    }

    /** Where the data of each complete event goes. */
    interface Sink {
        void event(String data, Stream stream);
    }

    /** A line or an event's data longer than the limit: what was read of it is dropped, and the stream ends. */
    static final class TooLarge extends IOException {
        private static final long serialVersionUID = 1L;

        TooLarge(String message) {
            super(message);
        }
    }

    /**
     * Parses SSE lines into events (the line parsing of the SSE standard), neither a line nor an event's data
     * longer than {@code max} characters.
     *
     * @throws TooLarge past that limit
     */
    static void read(BufferedReader in, int max, Stream stream, Sink sink) throws IOException {
        StringBuilder data = new StringBuilder();
        LineReader lines = new LineReader(in, max);
        boolean hasData = false;
        boolean any = false;
        String line;
        while ((line = lines.next()) != null) {
            if (line.isEmpty()) {
                if (any) {
                    stream.events++;
                }
                if (hasData && data.length() > 0) {
                    sink.event(data.toString(), stream);
                    if (stream.resumed && stream.answered) {
                        return; // a resumed request's stream has nothing more for it
                    }
                }
                data.setLength(0);
                hasData = false;
                any = false;
                continue;
            }
            if (line.startsWith(":")) {
                continue;
            }
            int colon = line.indexOf(':');
            String field = colon < 0 ? line : line.substring(0, colon);
            String value = colon < 0 ? "" : line.substring(colon + 1);
            if (value.startsWith(" ")) {
                value = value.substring(1);
            }
            any = true;
            switch (field) {
                case "data" -> {
                    if (data.length() + 1L + value.length() > max) {
                        throw new TooLarge("an event of the server's stream is longer than maxMessageBytes (" + max + ")");
                    }
                    if (hasData) {
                        data.append('\n');
                    }
                    data.append(value);
                    hasData = true;
                }
                case "id" -> {
                    if (value.indexOf('\0') < 0) {
                        stream.lastEventId = value;
                    }
                }
                case "retry" -> {
                    if (!value.isEmpty() && value.chars().allMatch(c -> c >= '0' && c <= '9') && value.length() < 10) {
                        stream.retryMs = Long.parseLong(value);
                    }
                }
                default -> {
                    // "event" and unknown fields: the message's JSON-RPC shape says what it is
                }
            }
        }
    }

    private void dispatch(String data, Stream stream) {
        if (parse(data) instanceof ObjectNode message) {
            JsonNode id = message.get("id");
            if (stream.requestId != null && id != null && !message.has("method") && sameId(id, stream.requestId)) {
                stream.answered = true;
            }
            listener.message(message, stream.requestId);
        }
    }

    /** JSON-RPC ids compare by value: 7 and 7L are the same id. */
    static boolean sameId(JsonNode a, JsonNode b) {
        if (a.isNumber() && b.isNumber()) {
            return a.canConvertToLong() && b.canConvertToLong() ? a.asLong() == b.asLong() : a.asString().equals(b.asString());
        }
        return a.equals(b);
    }

    /** The request fails with this error of the server's. */
    private void answer(JsonNode requestId, ObjectNode error) {
        ObjectNode message = JSON.createObjectNode().put("jsonrpc", "2.0");
        message.set("id", requestId);
        message.set("error", error);
        listener.message(message, requestId);
    }

    /** The request fails: the transport got no response for it. */
    private void fail(JsonNode requestId, String why) {
        tail.add("[http] " + why);
        answer(requestId, JSON.createObjectNode().put("code", -32603).put("message", why));
    }

    @Override
    public boolean abandon(JsonNode requestId) {
        Exchange exchange = requestId != null && requestId.canConvertToLong() ? exchanges.remove(requestId.asLong()) : null;
        if (exchange == null) {
            return false;
        }
        exchange.abandoned = true;
        InputStream body = exchange.body;
        if (body != null) {
            close(body);
            return true;
        }
        CompletableFuture<?> response = exchange.response;
        return response != null && response.cancel(true);
    }

    private static JsonNode parse(String text) {
        try {
            return text.isBlank() ? null : JSON.readTree(text);
        } catch (JacksonException e) {
            return null;
        }
    }

    /** A JSON body, whole; null when it is longer than {@code maxMessageBytes} (what was read of it dropped). */
    private String read(InputStream body) {
        try (body) {
            byte[] bytes = body.readNBytes(maxMessageBytes == Integer.MAX_VALUE ? maxMessageBytes : maxMessageBytes + 1);
            return bytes.length > maxMessageBytes ? null : new String(bytes, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "";
        }
    }

    private static void close(InputStream body) {
        try {
            body.close();
        } catch (IOException e) {
            // nothing to do
        }
    }

    private static Throwable unwrap(Throwable failure) {
        return failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
    }

    private static String describe(Throwable failure) {
        Throwable t = unwrap(failure);
        return t.getMessage() != null ? t.getMessage() : t.getClass().getSimpleName();
    }

    private void end(String why) {
        if (ended.compareAndSet(false, true)) {
            tail.add("[quiver] " + why);
            listener.closed(why, false);
        }
    }

    @Override
    public void close() {
        closing = true;
        String session = sessionId;
        if (session != null && !ended.get() && !stateless) {
            try {
                http.send(request(true).timeout(connectTimeout).DELETE().build(), HttpResponse.BodyHandlers.discarding());
            } catch (IOException | InterruptedException e) {
                // the server is gone or slow: the session expires there
            }
        }
        streams.forEach(HttpConnection::close);
        exchanges.values().forEach(e -> {
            e.abandoned = true;
            CompletableFuture<?> r = e.response;
            if (r != null) {
                r.cancel(true);
            }
        });
        if (ended.compareAndSet(false, true)) {
            listener.closed("Quiver stopped it", true);
        }
        readers.shutdownNow();
    }

    @Override
    public String detail() {
        return spec.shownUrl();
    }
}
