package io.quiver.itests.paxexam.mcp;

import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * A minimal MCP client for the 2025-11-25 Streamable HTTP transport, on {@link HttpClient}
 * (loopback only). Every wait is bounded by {@link #TIMEOUT} unless the caller gives its own.
 */
public final class McpClient implements AutoCloseable {

    public static final String PROTOCOL_VERSION = "2025-11-25";
    public static final Duration TIMEOUT = Duration.ofSeconds(10);

    private static final String SESSION_HEADER = "Mcp-Session-Id";

    private final HttpClient http = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5))
            .build();
    private final ObjectMapper json = JsonMapper.builder().build();
    private final URI endpoint;
    private final AtomicLong ids = new AtomicLong();
    private final List<MessageStream> streams = new CopyOnWriteArrayList<>();
    private String sessionId;
    private JsonNode serverInfo;

    private McpClient(URI endpoint) {
        this.endpoint = endpoint;
    }

    /** Opens a session: {@code initialize}, then {@code notifications/initialized}. */
    public static McpClient connect(URI endpoint) throws Exception {
        McpClient client = new McpClient(endpoint);
        try {
            client.initialize();
            return client;
        } catch (Exception | AssertionError e) {
            client.close();
            throw e;
        }
    }

    private void initialize() throws Exception {
        ObjectNode params = json.createObjectNode();
        params.put("protocolVersion", PROTOCOL_VERSION);
        params.putObject("capabilities");
        ObjectNode clientInfo = params.putObject("clientInfo");
        clientInfo.put("name", "quiver-paxexam");
        clientInfo.put("version", "1.0.0");
        Call call = send("initialize", params);
        require(call.stream().status() == 200, "initialize answered HTTP " + call.stream().status());
        String id = call.stream().header(SESSION_HEADER);
        require(id != null && !id.isBlank(), "initialize answered without an " + SESSION_HEADER + " header");
        JsonNode response = call.response(TIMEOUT);
        require(response.has("result"), "initialize failed: " + response);
        require(PROTOCOL_VERSION.equals(response.path("result").path("protocolVersion").asString()),
                "the server negotiated another protocol version: " + response);
        sessionId = id;
        serverInfo = response.path("result");
        int status = notify("notifications/initialized", null);
        require(status == 202, "notifications/initialized answered HTTP " + status + " (expected 202)");
    }

    /** The {@code initialize} result. */
    public JsonNode serverInfo() {
        return serverInfo;
    }

    public String sessionId() {
        return sessionId;
    }

    public ObjectMapper json() {
        return json;
    }

    /** A request in flight: its id and the response that carries its messages. */
    public record Call(long id, MessageStream stream) {
        /** Waits for the JSON-RPC response (result or error). */
        public JsonNode response(Duration timeout) throws InterruptedException {
            return stream.awaitResponse(id, timeout);
        }
    }

    /** POSTs a request and returns as soon as the response headers are in. */
    public Call send(String method, ObjectNode params) throws Exception {
        long id = ids.incrementAndGet();
        ObjectNode message = json.createObjectNode();
        message.put("jsonrpc", "2.0");
        message.put("id", id);
        message.put("method", method);
        if (params != null) {
            message.set("params", params);
        }
        HttpResponse<InputStream> response = post(message);
        MessageStream stream = new MessageStream(response, json, method + " #" + id);
        streams.add(stream);
        return new Call(id, stream);
    }

    /** Sends a request and waits for its response (a result or a JSON-RPC error). */
    public JsonNode request(String method, ObjectNode params) throws Exception {
        Call call = send(method, params);
        try {
            return call.response(TIMEOUT);
        } finally {
            call.stream().close();
            streams.remove(call.stream());
        }
    }

    /** Sends a request and returns its result; a JSON-RPC error fails. */
    public JsonNode result(String method, ObjectNode params) throws Exception {
        JsonNode response = request(method, params);
        require(response.has("result"), method + " failed: " + response);
        return response.path("result");
    }

    /** POSTs a notification; returns the HTTP status (202 when accepted). */
    public int notify(String method, ObjectNode params) throws Exception {
        ObjectNode message = json.createObjectNode();
        message.put("jsonrpc", "2.0");
        message.put("method", method);
        if (params != null) {
            message.set("params", params);
        }
        HttpResponse<InputStream> response = post(message);
        response.body().close();
        return response.statusCode();
    }

    /** {@code ping}: true when the server answers with a result. */
    public boolean ping() throws Exception {
        return request("ping", null).has("result");
    }

    /** Every tool of {@code tools/list} (all pages), by name. */
    public Map<String, JsonNode> listTools() throws Exception {
        Map<String, JsonNode> tools = new LinkedHashMap<>();
        String cursor = null;
        for (int page = 0; page < 100; page++) {
            ObjectNode params = json.createObjectNode();
            if (cursor != null) {
                params.put("cursor", cursor);
            }
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

    /** The params of a {@code tools/call}. */
    public ObjectNode toolCall(String name, Map<String, ?> arguments, String progressToken) {
        ObjectNode params = json.createObjectNode();
        params.put("name", name);
        params.set("arguments", json.valueToTree(arguments == null ? Map.of() : arguments));
        if (progressToken != null) {
            params.putObject("_meta").put("progressToken", progressToken);
        }
        return params;
    }

    /** Opens the session's standalone SSE stream (GET); returns once the server has answered. */
    public MessageStream openEventStream() throws Exception {
        HttpRequest request = HttpRequest.newBuilder(endpoint)
                .timeout(TIMEOUT)
                .header("Accept", "text/event-stream")
                .header("MCP-Protocol-Version", PROTOCOL_VERSION)
                .header(SESSION_HEADER, sessionId)
                .GET()
                .build();
        HttpResponse<InputStream> response = exchange(request);
        MessageStream stream = new MessageStream(response, json, "GET stream of session " + sessionId);
        streams.add(stream);
        require(response.statusCode() == 200 && stream.isEventStream(),
                "GET answered HTTP " + response.statusCode() + " " + stream.header("Content-Type"));
        return stream;
    }

    /** Ends the session (DELETE) and closes every response still open. */
    @Override
    public void close() {
        if (sessionId != null) {
            try {
                HttpRequest request = HttpRequest.newBuilder(endpoint)
                        .timeout(TIMEOUT)
                        .header(SESSION_HEADER, sessionId)
                        .header("MCP-Protocol-Version", PROTOCOL_VERSION)
                        .DELETE()
                        .build();
                exchange(request).body().close();
            } catch (Exception e) {
                // best effort: the framework goes away after the class anyway
            }
            sessionId = null;
        }
        streams.forEach(MessageStream::close);
        streams.clear();
    }

    private HttpResponse<InputStream> post(ObjectNode message) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(endpoint)
                .timeout(TIMEOUT)
                .header("Accept", "application/json, text/event-stream")
                .header("Content-Type", "application/json")
                .header("MCP-Protocol-Version", PROTOCOL_VERSION)
                .POST(HttpRequest.BodyPublishers.ofByteArray(json.writeValueAsBytes(message)));
        if (sessionId != null) {
            request.header(SESSION_HEADER, sessionId);
        }
        return exchange(request.build());
    }

    private HttpResponse<InputStream> exchange(HttpRequest request) throws Exception {
        try {
            return http.sendAsync(request, HttpResponse.BodyHandlers.ofInputStream())
                    .get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            throw new AssertionError(request.method() + " " + request.uri() + ": no response headers within "
                    + TIMEOUT.toMillis() + " ms", e);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof Exception cause ? cause : e;
        }
    }

    private static void require(boolean condition, String message) {
        if (!condition) {
            throw new AssertionError(message);
        }
    }
}
