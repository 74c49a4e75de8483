package io.quiver.itests.client;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * The test suites' one MCP client: a 2025-11-25 session over Streamable HTTP on {@link HttpClient}.
 * It opens the session, sends requests (the answer may come as JSON or as an SSE stream), and holds
 * response and GET streams open while a thread of each records every message ({@link MessageStream}).
 * Thread-safe: several threads may send requests on one session. The in-framework tests
 * ({@code itests/paxexam}) and the end-to-end tests ({@code itests/e2e}) compile this same source.
 */
public final class McpClient implements AutoCloseable {

    public static final JsonMapper JSON = JsonMapper.builder().build();
    public static final String VERSION = "2025-11-25";
    /** The default bound of every wait. */
    public static final Duration TIMEOUT = Duration.ofSeconds(10);
    public static final int INVALID_PARAMS = -32602;

    private static final String SESSION_HEADER = "Mcp-Session-Id";

    private final HttpClient http;
    private final URI endpoint;
    private final Duration timeout;
    private final AtomicLong ids;
    private final List<MessageStream> streams;
    /** Headers every request carries (a credential). */
    private final Map<String, String> headers;
    private volatile String session;

    private McpClient(HttpClient http, URI endpoint, String session, Duration timeout, AtomicLong ids,
            List<MessageStream> streams, Map<String, String> headers) {
        this.headers = Map.copyOf(headers);
        this.http = http;
        this.endpoint = endpoint;
        this.session = session;
        this.timeout = timeout;
        this.ids = ids;
        this.streams = streams;
    }

    /** Opens a session with the default client name and {@link #TIMEOUT}. */
    public static McpClient connect(URI endpoint) throws Exception {
        return connect(endpoint.toString(), "quiver-tests", TIMEOUT);
    }

    /** Opens a session: {@code initialize}, then {@code notifications/initialized}. */
    public static McpClient connect(String url, String clientName, Duration requestTimeout) throws Exception {
        return connect(url, clientName, requestTimeout, Map.of());
    }

    /** Opens a session whose every request carries the given headers (an {@code Authorization}, say). */
    public static McpClient connect(String url, String clientName, Duration requestTimeout, Map<String, String> headers)
            throws Exception {
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(5)).build();
        McpClient client = new McpClient(http, URI.create(url), null, requestTimeout, new AtomicLong(),
                new CopyOnWriteArrayList<>(), headers);
        try {
            client.initialize(clientName);
            return client;
        } catch (Exception | AssertionError e) {
            client.close();
            throw e;
        }
    }

    private void initialize(String clientName) throws Exception {
        Map<String, Object> params = new LinkedHashMap<>();
        params.put("protocolVersion", VERSION);
        params.put("capabilities", Map.of());
        params.put("clientInfo", Map.of("name", clientName, "version", "1.0.0"));
        Call call = send("initialize", params);
        try {
            if (call.stream().status() != 200) {
                throw new IllegalStateException("initialize answered HTTP " + call.stream().status());
            }
            String id = call.stream().header(SESSION_HEADER);
            if (id == null || id.isBlank()) {
                throw new IllegalStateException("initialize answered without an " + SESSION_HEADER + " header");
            }
            JsonNode response = call.response(timeout);
            require(response.has("result"), "initialize failed: " + response);
            require(VERSION.equals(response.path("result").path("protocolVersion").asString()),
                    "the server negotiated another protocol version: " + response);
            session = id;
        } finally {
            call.stream().close();
            streams.remove(call.stream());
        }
        int status = notify("notifications/initialized", null);
        require(status == 202, "notifications/initialized answered HTTP " + status + " (expected 202)");
    }

    /** The session id. */
    public String session() {
        return session;
    }

    /** The same session reached at another URL (the endpoint moved); its streams stay with this one. */
    public McpClient at(String otherUrl) {
        return new McpClient(http, URI.create(otherUrl), session, timeout, ids, new CopyOnWriteArrayList<>(), headers);
    }

    /** A request on its way: its response stream, read as it comes. */
    public record Call(long id, MessageStream stream) {
        /** Waits for the JSON-RPC response (result or error). */
        public JsonNode response(Duration limit) throws InterruptedException {
            return stream.awaitResponse(id, limit);
        }
    }

    /** POSTs a request and returns as soon as the response headers are in. */
    public Call send(String method, Object params) throws Exception {
        long id = ids.incrementAndGet();
        Map<String, Object> message = new LinkedHashMap<>();
        message.put("jsonrpc", "2.0");
        message.put("id", id);
        message.put("method", method);
        if (params != null) {
            message.put("params", params);
        }
        MessageStream stream = new MessageStream(exchange(post(message)), method + " #" + id);
        streams.add(stream);
        return new Call(id, stream);
    }

    /**
     * Sends a request and returns its JSON-RPC response ({@code result} or {@code error}).
     *
     * @throws IllegalStateException when the server answers with another HTTP status than 200
     * @throws HttpTimeoutException when no answer comes within the request timeout
     */
    public JsonNode request(String method, Object params) throws Exception {
        Call call = send(method, params);
        try {
            if (call.stream().status() != 200) {
                throw new IllegalStateException(method + " answered HTTP " + call.stream().status() + ": "
                        + call.stream().body(timeout));
            }
            try {
                return call.response(timeout);
            } catch (AssertionError e) {
                throw new HttpTimeoutException(method + ": " + e.getMessage());
            }
        } finally {
            call.stream().close();
            streams.remove(call.stream());
        }
    }

    /** Sends a request and returns its result; a JSON-RPC error fails. */
    public JsonNode result(String method, Object params) throws Exception {
        JsonNode response = request(method, params);
        require(response.has("result"), method + " failed: " + response);
        return response.path("result");
    }

    /** {@code tools/call}; returns the JSON-RPC response. */
    public JsonNode callTool(String name, Map<String, ?> arguments) throws Exception {
        return request("tools/call", toolCall(name, arguments, null));
    }

    /** The params of a {@code tools/call}, with a progress token or none. */
    public ObjectNode toolCall(String name, Map<String, ?> arguments, String progressToken) {
        ObjectNode params = JSON.createObjectNode();
        params.put("name", name);
        params.set("arguments", JSON.valueToTree(arguments == null ? Map.of() : arguments));
        if (progressToken != null) {
            params.putObject("_meta").put("progressToken", progressToken);
        }
        return params;
    }

    /** Every tool of {@code tools/list} (all pages), by name, in the listed order. */
    public Map<String, JsonNode> listTools() throws Exception {
        Map<String, JsonNode> tools = new LinkedHashMap<>();
        String cursor = null;
        for (int page = 0; page < 100; page++) {
            Map<String, Object> params = cursor == null ? Map.of() : Map.of("cursor", cursor);
            JsonNode result = result("tools/list", params);
            for (JsonNode tool : result.path("tools")) {
                tools.put(tool.path("name").asString(), tool);
            }
            JsonNode next = result.get("nextCursor");
            if (next == null || next.isNull() || next.asString().isEmpty()) {
                return tools;
            }
            cursor = next.asString();
        }
        throw new AssertionError("tools/list did not end after 100 pages");
    }

    /** The names {@code tools/list} shows now. */
    public List<String> toolNames() throws Exception {
        return new ArrayList<>(listTools().keySet());
    }

    /** The descriptor of one tool, or null when it is not listed. */
    public JsonNode tool(String name) throws Exception {
        return listTools().get(name);
    }

    /** {@code ping}: true when the server answers with a result. */
    public boolean ping() throws Exception {
        return request("ping", null).has("result");
    }

    /** POSTs a notification; returns the HTTP status (202 when accepted). */
    public int notify(String method, Object params) throws Exception {
        Map<String, Object> message = new LinkedHashMap<>();
        message.put("jsonrpc", "2.0");
        message.put("method", method);
        if (params != null) {
            message.put("params", params);
        }
        HttpResponse<InputStream> response = exchange(post(message));
        response.body().close();
        return response.statusCode();
    }

    /** Opens the session's GET stream; its messages are recorded until {@link #close()}. */
    public MessageStream openEventStream() throws Exception {
        HttpRequest request = withHeaders(HttpRequest.newBuilder(endpoint))
                .header("Accept", "text/event-stream")
                .header("MCP-Protocol-Version", VERSION)
                .header(SESSION_HEADER, session)
                .GET().build();
        return stream(request, "GET stream of session " + session);
    }

    /**
     * A 2026-07-28 client's {@code subscriptions/listen} for tool list changes (request id 4242): no
     * session, the per-request {@code _meta} and the standard headers. The stream's messages start
     * with the acknowledgement.
     */
    public MessageStream listenForToolChanges() throws Exception {
        String body = JSON.writeValueAsString(Map.of("jsonrpc", "2.0", "id", 4242, "method", "subscriptions/listen",
                "params", Map.of("notifications", Map.of("toolsListChanged", true), "_meta", Map.of(
                        "io.modelcontextprotocol/protocolVersion", "2026-07-28",
                        "io.modelcontextprotocol/clientCapabilities", Map.of(),
                        "io.modelcontextprotocol/clientInfo", Map.of("name", "listener", "version", "1")))));
        HttpRequest request = withHeaders(HttpRequest.newBuilder(endpoint))
                .header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream")
                .header("MCP-Protocol-Version", "2026-07-28")
                .header("Mcp-Method", "subscriptions/listen")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build();
        return stream(request, "subscriptions/listen");
    }

    private MessageStream stream(HttpRequest request, String description) throws Exception {
        MessageStream stream = new MessageStream(exchange(request), description);
        if (stream.status() != 200 || !stream.isEventStream()) {
            stream.close();
            throw new IllegalStateException(description + " answered HTTP " + stream.status() + " "
                    + stream.header("Content-Type"));
        }
        streams.add(stream);
        return stream;
    }

    /** Closes every stream still open and ends the session (DELETE). */
    @Override
    public void close() {
        streams.forEach(MessageStream::close);
        streams.clear();
        if (session != null) {
            try {
                HttpRequest request = withHeaders(HttpRequest.newBuilder(endpoint)).timeout(Duration.ofSeconds(5))
                        .header(SESSION_HEADER, session)
                        .header("MCP-Protocol-Version", VERSION)
                        .DELETE().build();
                http.send(request, HttpResponse.BodyHandlers.discarding());
            } catch (Exception e) {
                // the server may be gone already
            }
        }
    }

    private HttpRequest post(Object message) {
        HttpRequest.Builder request = withHeaders(HttpRequest.newBuilder(endpoint)).timeout(timeout)
                .header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream")
                .header("MCP-Protocol-Version", VERSION)
                .POST(HttpRequest.BodyPublishers.ofByteArray(JSON.writeValueAsBytes(message)));
        if (session != null) {
            request.header(SESSION_HEADER, session);
        }
        return request.build();
    }

    private HttpRequest.Builder withHeaders(HttpRequest.Builder request) {
        headers.forEach(request::header);
        return request;
    }

    private HttpResponse<InputStream> exchange(HttpRequest request) throws Exception {
        try {
            return http.sendAsync(request, HttpResponse.BodyHandlers.ofInputStream())
                    .get(timeout.toMillis() + 1_000, TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            throw new AssertionError(request.method() + " " + request.uri() + ": no response headers within "
                    + timeout.toMillis() + " ms", e);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof Exception cause ? cause : e;
        }
    }

    /** The data of the next SSE event (comments and other fields skipped); null at the end of the stream. */
    public static String nextData(BufferedReader reader) throws IOException {
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
        return data == null ? null : data.toString();
    }

    /** Reads an SSE body to its end, one event's data at a time. */
    static void readEvents(InputStream body, Consumer<String> each) throws IOException {
        BufferedReader reader = new BufferedReader(new InputStreamReader(body, StandardCharsets.UTF_8));
        String data;
        while ((data = nextData(reader)) != null) {
            if (!data.isBlank()) {
                each.accept(data);
            }
        }
    }

    /** The JSON-RPC error code of a response, or 0 when it is a result. */
    public static int errorCode(JsonNode response) {
        return response.path("error").path("code").asInt(0);
    }

    private static void require(boolean condition, String message) {
        if (!condition) {
            throw new AssertionError(message);
        }
    }
}
