package io.quiver.upstream.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.OutputStream;
import java.io.StringReader;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** The Streamable HTTP side of the client against a small server of the test's own. */
class HttpConnectionTest {

    private HttpServer server;
    private HttpConnection connection;
    private final Map<String, Map<String, String>> seen = new ConcurrentHashMap<>();
    private final List<String> resumes = new CopyOnWriteArrayList<>();
    private final List<String> order = new CopyOnWriteArrayList<>();
    private volatile long streamClosedAt;
    private volatile long resumedAt;

    @AfterEach
    void stop() {
        if (connection != null) {
            connection.close();
        }
        if (server != null) {
            server.stop(0);
        }
    }

    @Test
    void sseFieldsAreReadAsTheStandardSays() throws IOException {
        String text = ": a comment\r\nid: e-1\r\nretry: 250\r\ndata: \r\n\r\n"
                + "event: message\ndata: {\"a\":\ndata: 1}\nid: e-2\n\n"
                + "data:{\"b\":2}\n\n"
                + "retry: soon\nid: with\0nul\ndata: {\"c\":3}\n"; // the last event never ends: dropped
        HttpConnection.Stream stream = new HttpConnection.Stream(null);
        List<String> data = new ArrayList<>();
        HttpConnection.read(new BufferedReader(new StringReader(text)), 1 << 20, stream, (d, s) -> data.add(d));
        assertEquals(List.of("{\"a\":\n1}", "{\"b\":2}"), data, "a priming event carries no message");
        assertEquals("e-2", stream.lastEventId, "an id with NUL is ignored");
        assertEquals(250, stream.retryMs, "a retry that is not digits is ignored");
        assertEquals(3, stream.events);
    }

    /** Neither a line nor an event's data longer than the limit is read whole: the stream ends there. */
    @Test
    void aStreamsLinesAndEventsAreBoundedByTheLimit() {
        HttpConnection.Stream stream = new HttpConnection.Stream(null);
        List<String> data = new ArrayList<>();
        String longLine = "data: " + "x".repeat(100) + "\n\n";
        assertThrows(HttpConnection.TooLarge.class, () -> HttpConnection.read(new BufferedReader(new StringReader(
                "data: {}\n\n" + longLine)), 64, stream, (d, s) -> data.add(d)));
        String manyLines = "data: " + "y".repeat(40) + "\n" + "data: " + "y".repeat(40) + "\n\n";
        assertThrows(HttpConnection.TooLarge.class, () -> HttpConnection.read(new BufferedReader(new StringReader(
                manyLines)), 64, stream, (d, s) -> data.add(d)));
        assertEquals(List.of("{}"), data, "what came before the long one was read");
    }

    /**
     * An event ended by CRs alone is delivered when its blank line arrives, without waiting for a byte that might
     * be an LF (a server that then waits for the answer to that event would wait for ever).
     */
    @Test
    void anEventEndedByCarriageReturnsIsDeliveredWithoutReadingAhead() throws Exception {
        java.io.PipedWriter server = new java.io.PipedWriter();
        BufferedReader in = new BufferedReader(new java.io.PipedReader(server));
        List<String> data = new CopyOnWriteArrayList<>();
        Thread reader = new Thread(() -> {
            try {
                HttpConnection.read(in, 1 << 20, new HttpConnection.Stream(null), (d, s) -> data.add(d));
            } catch (IOException e) {
                // the pipe closed
            }
        });
        reader.start();
        server.write("data: {\"a\":1}\r\r");
        server.flush();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (data.isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertEquals(List.of("{\"a\":1}"), data, "delivered while the stream waits");
        server.write("\ndata: {\"b\":2}\r\n\r\n"); // an LF after a CR, then CRLF lines
        server.close();
        reader.join(5_000);
        assertEquals(List.of("{\"a\":1}", "{\"b\":2}"), data);
    }

    /**
     * A server that streams an event that never ends, or answers with JSON longer than {@code maxMessageBytes}, fails
     * the request with that reason: nothing past the limit is held (an endless event filled the heap before).
     */
    @Test
    void anAnswerLongerThanTheLimitFailsItsRequest() throws Exception {
        start(new Handler() {
            @Override
            public void post(HttpExchange exchange, JsonNode message) throws IOException {
                String tool = message.path("params").path("name").asString("");
                if (tool.equals("endless")) {
                    OutputStream out = sse(exchange);
                    String line = "data: " + "x".repeat(1_000) + "\n";
                    for (int i = 0; i < 1_000; i++) { // 1 MB of one event, against a limit of 16 KB
                        try {
                            event(out, line);
                        } catch (IOException e) {
                            return; // the client stopped reading
                        }
                    }
                } else if (tool.equals("big")) {
                    json(exchange, message, "{\"content\":[{\"type\":\"text\",\"text\":\"" + "z".repeat(40_000) + "\"}]}");
                } else {
                    handshake(exchange, message);
                }
            }
        }, 16 << 10);
        McpClient client = client();
        initialize(client);
        for (String tool : List.of("endless", "big")) {
            ExecutionException failed = assertThrows(ExecutionException.class, () -> client.request("tools/call",
                    FakeConnection.JSON.createObjectNode().put("name", tool)).answer().get(10, TimeUnit.SECONDS), tool);
            assertTrue(String.valueOf(failed.getCause().getMessage()).contains("longer than maxMessageBytes"),
                    tool + ": " + failed.getCause());
        }
    }

    /** The server: {@code handler} answers each POST by its JSON-RPC method. */
    private void start(Handler handler) throws IOException {
        start(handler, 16 << 20);
    }

    private void start(Handler handler, int maxMessageBytes) throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.setExecutor(Executors.newCachedThreadPool());
        server.createContext("/mcp", exchange -> {
            try {
                Map<String, String> headers = new java.util.TreeMap<>(String.CASE_INSENSITIVE_ORDER);
                exchange.getRequestHeaders().forEach((k, v) -> headers.put(k, String.join(",", v)));
                if (exchange.getRequestMethod().equals("POST")) {
                    JsonNode message = FakeConnection.JSON.readTree(exchange.getRequestBody().readAllBytes());
                    seen.put(message.path("method").asString("response"), headers);
                    order.add(message.path("method").asString("response"));
                    handler.post(exchange, message);
                } else if (exchange.getRequestMethod().equals("GET") && headers.containsKey("Last-Event-ID")) {
                    resumedAt = System.nanoTime();
                    resumes.add(headers.get("Last-Event-ID") + " " + headers.get("Mcp-Session-Id"));
                    handler.resume(exchange, headers.get("Last-Event-ID"));
                } else {
                    order.add("GET");
                    Thread.sleep(300); // a server slow to answer the GET stream
                    exchange.sendResponseHeaders(405, -1);
                }
            } catch (IOException | RuntimeException | InterruptedException e) {
                e.printStackTrace();
            } finally {
                exchange.close();
            }
        });
        server.start();
        ServerSpec spec = new ServerSpec("test", ServerSpec.Kind.HTTP, null, List.of(), Map.of(), null,
                URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/mcp"), Map.of("X-Custom", "yes"), Path.of("t"));
        connection = new HttpConnection(spec, Duration.ofSeconds(5), maxMessageBytes, new StderrTail(10));
    }

    private interface Handler {
        void post(HttpExchange exchange, JsonNode message) throws IOException;

        default void resume(HttpExchange exchange, String lastEventId) throws IOException {
            exchange.sendResponseHeaders(404, -1);
        }
    }

    private static void json(HttpExchange exchange, JsonNode message, String result) throws IOException {
        ObjectNode answer = FakeConnection.JSON.createObjectNode().put("jsonrpc", "2.0");
        answer.set("id", message.get("id"));
        answer.set("result", FakeConnection.JSON.readTree(result));
        byte[] body = FakeConnection.JSON.writeValueAsBytes(answer);
        exchange.getResponseHeaders().add("Content-Type", "application/json");
        exchange.getResponseHeaders().add("Mcp-Session-Id", "session-1");
        exchange.sendResponseHeaders(200, body.length);
        exchange.getResponseBody().write(body);
    }

    /** The session's handshake: initialize answered, notifications accepted. */
    private static void handshake(HttpExchange exchange, JsonNode message) throws IOException {
        if (message.has("id")) {
            json(exchange, message, "{\"protocolVersion\": \"2025-11-25\", \"capabilities\": {}}");
        } else {
            exchange.sendResponseHeaders(202, -1);
        }
    }

    private static OutputStream sse(HttpExchange exchange) throws IOException {
        exchange.getResponseHeaders().add("Content-Type", "text/event-stream");
        exchange.sendResponseHeaders(200, 0);
        return exchange.getResponseBody();
    }

    private static void event(OutputStream out, String text) throws IOException {
        out.write(text.getBytes(StandardCharsets.UTF_8));
        out.flush();
    }

    private McpClient client() {
        ObjectNode capabilities = FakeConnection.JSON.createObjectNode();
        McpClient client = new McpClient(connection, new McpClient.Events() {
            @Override
            public void notification(String method, JsonNode params) {
            }

            @Override
            public void closed(String why, boolean clean) {
            }
        }, McpClient.implementation("t"), capabilities);
        connection.open(client);
        return client;
    }

    private JsonNode initialize(McpClient client) throws Exception {
        JsonNode result = client.request("initialize", FakeConnection.JSON.createObjectNode().put("protocolVersion", "2025-11-25"))
                .answer().get(5, TimeUnit.SECONDS);
        client.session("2025-11-25");
        connection.negotiated("2025-11-25", false);
        return result;
    }

    @Test
    void aResponseStreamThatEndsEarlyIsResumedAfterTheRetryWaitFromItsLastEvent() throws Exception {
        start(new Handler() {
            @Override
            public void post(HttpExchange exchange, JsonNode message) throws IOException {
                if (message.path("method").asString("").equals("tools/call")) {
                    OutputStream out = sse(exchange);
                    event(out, "id: call-1\nretry: 400\ndata: \n\n");
                    event(out, "id: call-2\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\","
                            + "\"params\":{\"progressToken\":\"p\",\"progress\":1}}\n\n");
                    streamClosedAt = System.nanoTime();
                } else {
                    handshake(exchange, message);
                }
            }

            @Override
            public void resume(HttpExchange exchange, String lastEventId) throws IOException {
                OutputStream out = sse(exchange);
                event(out, "id: call-3\ndata: {\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{\"content\":[]}}\n\n");
            }
        });
        McpClient client = client();
        initialize(client);
        List<JsonNode> progress = new CopyOnWriteArrayList<>();
        client.onProgress("p", progress::add);
        JsonNode result = client.request("tools/call", FakeConnection.JSON.createObjectNode().put("name", "t"))
                .answer().get(5, TimeUnit.SECONDS);
        assertTrue(result.path("content").isArray(), result.toString());
        assertEquals(List.of("call-2 session-1"), resumes, "resumed once, from the last event, in the session");
        long waited = TimeUnit.NANOSECONDS.toMillis(resumedAt - streamClosedAt);
        assertTrue(waited >= 380, "waited " + waited + " ms of the server's 400");
        assertEquals(1, progress.size());
        assertEquals("2025-11-25", seen.get("tools/call").get("MCP-Protocol-Version"));
        assertEquals("session-1", seen.get("tools/call").get("Mcp-Session-Id"));
        assertEquals("yes", seen.get("tools/call").get("X-Custom"), "configured headers go on every request");
        assertNull(seen.get("tools/call").get("Mcp-Method"), "a session revision's requests carry no Mcp-Method");
    }

    /**
     * A server that answers on the resumed stream and then keeps it open (the conformance suite's
     * sse-retry server does): the client lets go of it once answered, where it used to read on for ever
     * on the thread that sent the call. Observed from the server: its keep-alive comments stop being taken.
     */
    @Test
    void aResumedStreamThatStaysOpenAfterItsAnswerIsLetGo() throws Exception {
        CountDownLatch letGo = new CountDownLatch(1);
        start(new Handler() {
            @Override
            public void post(HttpExchange exchange, JsonNode message) throws IOException {
                if (message.path("method").asString("").equals("tools/call")) {
                    OutputStream out = sse(exchange);
                    event(out, "id: call-1\nretry: 50\ndata: \n\n");
                    exchange.close();
                } else {
                    handshake(exchange, message);
                }
            }

            @Override
            public void resume(HttpExchange exchange, String lastEventId) throws IOException {
                OutputStream out = sse(exchange);
                event(out, "id: call-2\ndata: {\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{\"content\":[]}}\n\n");
                try {
                    for (int i = 0; i < 400; i++) { // 20 s of comments, or until the client is gone
                        Thread.sleep(50);
                        event(out, ": still here " + "x".repeat(4096) + "\n\n");
                    }
                } catch (IOException gone) {
                    letGo.countDown();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        });
        McpClient client = client();
        initialize(client);
        JsonNode result = client.request("tools/call", FakeConnection.JSON.createObjectNode().put("name", "t"))
                .answer().get(5, TimeUnit.SECONDS);
        assertTrue(result.path("content").isArray(), result.toString());
        assertTrue(letGo.await(15, TimeUnit.SECONDS), "the client stopped reading the resumed stream once answered");
    }

    @Test
    void theGetStreamIsAskedForBeforeTheFirstRequestOfTheSession() throws Exception {
        start((exchange, message) -> {
            if (message.has("id")) {
                json(exchange, message, "{\"protocolVersion\": \"2025-11-25\", \"capabilities\": {}, \"tools\": []}");
            } else {
                exchange.sendResponseHeaders(202, -1);
            }
        });
        McpClient client = client();
        initialize(client);
        client.notify("notifications/initialized", null);
        connection.initialized();
        client.request("tools/list", null).answer().get(5, TimeUnit.SECONDS);
        assertEquals(List.of("initialize", "notifications/initialized", "GET", "tools/list"), order,
                "the server answered the GET before the first request: whatever it sends there is not missed");
    }

    @Test
    void aStreamThatEndsWithoutAnEventIdFailsItsRequest() throws Exception {
        start((exchange, message) -> {
            if (message.path("method").asString("").equals("tools/call")) {
                event(sse(exchange), "data: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{}}\n\n");
            } else {
                handshake(exchange, message);
            }
        });
        McpClient client = client();
        initialize(client);
        ExecutionException e = assertThrows(ExecutionException.class, () -> client.request("tools/call",
                FakeConnection.JSON.createObjectNode().put("name", "t")).answer().get(5, TimeUnit.SECONDS));
        McpClient.RpcError error = assertInstanceOf(McpClient.RpcError.class, e.getCause());
        assertTrue(error.getMessage().contains("ended the response stream before it answered"), error.getMessage());
        assertTrue(resumes.isEmpty());
    }

    @Test
    void aStatelessRequestCarriesItsHeadersAndNoSession() throws Exception {
        start((exchange, message) -> json(exchange, message, "{\"resultType\": \"complete\", \"content\": []}"));
        McpClient client = client();
        client.request("initialize", FakeConnection.JSON.createObjectNode()).answer().get(5, TimeUnit.SECONDS);
        client.stateless("2026-07-28");
        connection.negotiated("2026-07-28", true);
        ObjectNode params = FakeConnection.JSON.createObjectNode().put("name", "zeichne ü");
        client.request("tools/call", params, Map.of("Mcp-Param-Region", "eu", "Mcp-Session-Id", "forged"), null)
                .answer().get(5, TimeUnit.SECONDS);
        Map<String, String> h = seen.get("tools/call");
        assertEquals("2026-07-28", h.get("MCP-Protocol-Version"));
        assertEquals("tools/call", h.get("Mcp-Method"));
        assertEquals(McpHeaders.encode("zeichne ü"), h.get("Mcp-Name"));
        assertTrue(h.get("Mcp-Name").startsWith("=?base64?"));
        assertEquals("eu", h.get("Mcp-Param-Region"));
        assertFalse(h.containsKey("Mcp-Session-Id"), "no session in a stateless revision, whatever the server says");
        assertEquals("yes", h.get("X-Custom"));
    }
}
