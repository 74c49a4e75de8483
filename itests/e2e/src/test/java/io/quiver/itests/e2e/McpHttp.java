package io.quiver.itests.e2e;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * One MCP session over raw Streamable HTTP, as small as the deploy tests need: initialize, send
 * requests (the answer may come as JSON or as an SSE stream), and hold the session's GET stream
 * open while a background thread records every message on it. Thread-safe: several threads may
 * send requests on one session.
 */
final class McpHttp implements AutoCloseable {

    static final JsonMapper JSON = JsonMapper.builder().build();
    static final String VERSION = "2025-11-25";
    static final int INVALID_PARAMS = -32602;

    private final HttpClient http;
    private final String url;
    private final String session;
    private final Duration timeout;
    private final AtomicLong ids = new AtomicLong(100);
    private final List<Stream> streams = new ArrayList<>();

    private McpHttp(HttpClient http, String url, String session, Duration timeout) {
        this.http = http;
        this.url = url;
        this.session = session;
        this.timeout = timeout;
    }

    /** Opens a session: {@code initialize}, then {@code notifications/initialized}. */
    static McpHttp connect(String url, String clientName, Duration requestTimeout) throws Exception {
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        Map<String, Object> params = new LinkedHashMap<>();
        params.put("protocolVersion", VERSION);
        params.put("capabilities", Map.of());
        params.put("clientInfo", Map.of("name", clientName, "version", "1"));
        HttpRequest request = HttpRequest.newBuilder(URI.create(url)).timeout(requestTimeout)
                .header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(message(1, "initialize", params))))
                .build();
        HttpResponse<String> r = http.send(request, HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() != 200) {
            throw new IllegalStateException("initialize answered " + r.statusCode() + ": " + r.body());
        }
        String session = r.headers().firstValue("Mcp-Session-Id")
                .orElseThrow(() -> new IllegalStateException("no Mcp-Session-Id"));
        McpHttp mcp = new McpHttp(http, url, session, requestTimeout);
        mcp.notify("notifications/initialized");
        return mcp;
    }

    /**
     * Sends a request and returns its JSON-RPC response ({@code result} or {@code error}).
     *
     * @throws java.net.http.HttpTimeoutException when no answer comes within the request timeout
     */
    JsonNode request(String method, Object params) throws Exception {
        long id = ids.incrementAndGet();
        HttpResponse<InputStream> r = http.send(post(message(id, method, params)).build(),
                HttpResponse.BodyHandlers.ofInputStream());
        try (InputStream body = r.body()) {
            if (r.statusCode() != 200) {
                throw new IllegalStateException(method + " answered HTTP " + r.statusCode() + ": "
                        + new String(body.readAllBytes(), StandardCharsets.UTF_8));
            }
            String type = r.headers().firstValue("Content-Type").orElse("");
            if (!type.startsWith("text/event-stream")) {
                return JSON.readTree(body);
            }
            try (BufferedReader reader = new BufferedReader(new InputStreamReader(body, StandardCharsets.UTF_8))) {
                String data;
                while ((data = nextData(reader)) != null) {
                    if (data.isBlank()) {
                        continue;
                    }
                    JsonNode message = JSON.readTree(data);
                    if (message.path("id").asLong(-1) == id && !message.has("method")) {
                        return message;
                    }
                }
            }
            throw new IllegalStateException(method + ": the stream ended without a response");
        }
    }

    /** The session id. */
    String session() {
        return session;
    }

    /** The same session reached at another URL (the endpoint moved); its streams stay with this one. */
    McpHttp at(String otherUrl) {
        return new McpHttp(http, otherUrl, session, timeout);
    }

    /** {@code tools/call}; returns the JSON-RPC response. */
    JsonNode callTool(String name, Map<String, Object> arguments) throws Exception {
        return request("tools/call", Map.of("name", name, "arguments", arguments));
    }

    /** The names {@code tools/list} shows now. */
    List<String> toolNames() throws Exception {
        List<String> names = new ArrayList<>();
        for (JsonNode tool : toolList()) {
            names.add(tool.path("name").asString());
        }
        return names;
    }

    /** The descriptor of one tool, or null when it is not listed. */
    JsonNode tool(String name) throws Exception {
        for (JsonNode tool : toolList()) {
            if (name.equals(tool.path("name").asString())) {
                return tool;
            }
        }
        return null;
    }

    private JsonNode toolList() throws Exception {
        JsonNode response = request("tools/list", Map.of());
        if (!response.has("result")) {
            throw new IllegalStateException("tools/list failed: " + response);
        }
        return response.path("result").path("tools");
    }

    void notify(String method) throws Exception {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("jsonrpc", "2.0");
        m.put("method", method);
        HttpResponse<String> r = http.send(post(m).build(), HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() != 202) {
            throw new IllegalStateException(method + " answered " + r.statusCode());
        }
    }

    /** Opens the session's GET stream; its messages are recorded until {@link #close()}. */
    Stream openStream() throws Exception {
        HttpRequest request = HttpRequest.newBuilder(URI.create(url))
                .header("Accept", "text/event-stream")
                .header("MCP-Protocol-Version", VERSION)
                .header("Mcp-Session-Id", session)
                .GET().build();
        HttpResponse<InputStream> r = http.send(request, HttpResponse.BodyHandlers.ofInputStream());
        if (r.statusCode() != 200) {
            throw new IllegalStateException("GET stream answered " + r.statusCode());
        }
        Stream stream = new Stream(r.body());
        synchronized (streams) {
            streams.add(stream);
        }
        stream.start();
        return stream;
    }

    /**
     * A 2026-07-28 client's {@code subscriptions/listen} for tool list changes: no session, the
     * per-request {@code _meta} and the standard headers. The stream's messages start with the
     * acknowledgement.
     */
    Stream listenForToolChanges() throws Exception {
        String body = JSON.writeValueAsString(Map.of("jsonrpc", "2.0", "id", 4242, "method", "subscriptions/listen",
                "params", Map.of("notifications", Map.of("toolsListChanged", true), "_meta", Map.of(
                        "io.modelcontextprotocol/protocolVersion", "2026-07-28",
                        "io.modelcontextprotocol/clientCapabilities", Map.of(),
                        "io.modelcontextprotocol/clientInfo", Map.of("name", "listener", "version", "1")))));
        HttpRequest request = HttpRequest.newBuilder(URI.create(url))
                .header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream")
                .header("MCP-Protocol-Version", "2026-07-28")
                .header("Mcp-Method", "subscriptions/listen")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build();
        HttpResponse<InputStream> r = http.send(request, HttpResponse.BodyHandlers.ofInputStream());
        if (r.statusCode() != 200) {
            throw new IllegalStateException("subscriptions/listen answered " + r.statusCode());
        }
        Stream stream = new Stream(r.body());
        synchronized (streams) {
            streams.add(stream);
        }
        stream.start();
        return stream;
    }

    @Override
    public void close() {
        synchronized (streams) {
            streams.forEach(Stream::close);
        }
        try {
            http.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(5))
                    .header("Mcp-Session-Id", session).DELETE().build(), HttpResponse.BodyHandlers.discarding());
        } catch (Exception e) {
            // the server may be gone already
        }
    }

    private HttpRequest.Builder post(Object body) {
        return HttpRequest.newBuilder(URI.create(url)).timeout(timeout)
                .header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream")
                .header("MCP-Protocol-Version", VERSION)
                .header("Mcp-Session-Id", session)
                .POST(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body)));
    }

    private static Map<String, Object> message(long id, String method, Object params) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("jsonrpc", "2.0");
        m.put("id", id);
        m.put("method", method);
        m.put("params", params);
        return m;
    }

    /** The data of the next SSE event (comments and ids skipped); null at the end of the stream. */
    static String nextData(BufferedReader reader) throws IOException {
        StringBuilder data = null;
        String line;
        while ((line = reader.readLine()) != null) {
            if (line.isEmpty()) {
                if (data != null) {
                    return data.toString();
                }
            } else if (line.startsWith("data:")) {
                String value = line.substring(5);
                value = value.startsWith(" ") ? value.substring(1) : value;
                data = data == null ? new StringBuilder(value) : data.append('\n').append(value);
            }
        }
        return null;
    }

    /** The JSON-RPC error code of a response, or 0 when it is a result. */
    static int errorCode(JsonNode response) {
        return response.path("error").path("code").asInt(0);
    }

    /** A session's GET stream, read by a daemon thread; every message is kept with its arrival time. */
    static final class Stream implements AutoCloseable {

        /** The pseudo-method recorded when the stream ends or fails while still wanted. */
        static final String ENDED = "stream-ended";

        /** A message and when it arrived ({@link System#nanoTime()}). */
        record Received(long nanos, JsonNode message) {
            String method() {
                return message.path("method").asString("");
            }
        }

        private final InputStream body;
        private final List<Received> received = new ArrayList<>();
        private final Thread reader;
        private volatile boolean closed;

        private Stream(InputStream body) {
            this.body = body;
            this.reader = new Thread(this::read, "mcp-get-stream");
            this.reader.setDaemon(true);
        }

        private void start() {
            reader.start();
        }

        private void read() {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(body, StandardCharsets.UTF_8))) {
                String data;
                while ((data = nextData(r)) != null) {
                    if (data.isBlank()) {
                        continue;
                    }
                    record(JSON.readTree(data));
                }
                if (!closed) {
                    record(JSON.createObjectNode().put("method", ENDED).put("error", "the server ended the stream"));
                }
            } catch (IOException | UncheckedIOException e) {
                if (!closed) {
                    record(JSON.createObjectNode().put("method", ENDED).put("error", e.toString()));
                }
            }
        }

        private void record(JsonNode message) {
            synchronized (received) {
                received.add(new Received(System.nanoTime(), message));
                received.notifyAll();
            }
        }

        /** How many messages of a method arrived so far. */
        int count(String method) {
            return matching(m -> m.method().equals(method)).size();
        }

        /** The messages of a method so far, in arrival order. */
        List<Received> matching(Predicate<Received> filter) {
            synchronized (received) {
                return received.stream().filter(filter).toList();
            }
        }

        /**
         * Waits until at least {@code n} messages of a method have arrived.
         *
         * @return the n-th such message
         * @throws AssertionError when they do not come in time
         */
        Received await(String method, int n, Duration limit) throws InterruptedException {
            long deadline = System.nanoTime() + limit.toNanos();
            synchronized (received) {
                while (true) {
                    List<Received> found = received.stream().filter(m -> m.method().equals(method)).toList();
                    if (found.size() >= n) {
                        return found.get(n - 1);
                    }
                    long left = deadline - System.nanoTime();
                    if (left <= 0) {
                        throw new AssertionError("expected " + n + " " + method + " on the GET stream within "
                                + limit.toMillis() + " ms; got " + found.size() + " (all: " + all() + ")");
                    }
                    received.wait(Math.max(1, left / 1_000_000L));
                }
            }
        }

        private List<String> all() {
            return received.stream().map(r -> r.message().toString()).toList();
        }

        @Override
        public void close() {
            closed = true;
            try {
                body.close();
            } catch (IOException e) {
                // closing anyway
            }
        }
    }
}
