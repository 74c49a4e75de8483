package io.quiver.itests.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** Bad input over real HTTP: each case gets the right status and JSON-RPC code, and the server stays up. */
class HttpEdgeCasesIT {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final String VERSION = "2025-11-25";
    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(5)).build();
    private static QuiverServer server;
    private static String session;

    @BeforeAll
    static void start() throws Exception {
        server = QuiverServer.start("edge-cases", "core,http,tools-default");
        session = initialize();
    }

    @AfterAll
    static void stop() throws Exception {
        server.close();
    }

    @Test
    void malformedJsonIsAParseError() throws Exception {
        HttpResponse<String> r = post("{\"jsonrpc\":", session);
        assertEquals(400, r.statusCode());
        assertEquals(-32700, code(r));
    }

    /** Batches belong to 2025-03-26 sessions alone (BatchIT); this one speaks a later revision. */
    @Test
    void anArrayBodyIsAnInvalidRequest() throws Exception {
        HttpResponse<String> r = post("[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}]", session);
        assertEquals(400, r.statusCode());
        assertEquals(-32600, code(r));
    }

    @Test
    void anUnknownMethodIsMethodNotFound() throws Exception {
        HttpResponse<String> r = post("{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"tools/destroy\"}", session);
        assertEquals(200, r.statusCode());
        assertEquals(-32601, code(r));
        assertEquals(5, JSON.readTree(r.body()).path("id").asInt());
    }

    @Test
    void aMissingSessionIdIsABadRequest() throws Exception {
        HttpResponse<String> r = post("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}", null);
        assertEquals(400, r.statusCode());
        assertEquals(-32600, code(r));
    }

    @Test
    void anUnknownOrDeletedSessionIsNotFound() throws Exception {
        assertEquals(404, post("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}", "0123456789abcdef").statusCode());
        String doomed = initialize();
        HttpResponse<String> deleted = HTTP.send(base("DELETE", HttpRequest.BodyPublishers.noBody())
                .header("Mcp-Session-Id", doomed).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, deleted.statusCode());
        HttpResponse<String> after = post("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}", doomed);
        assertEquals(404, after.statusCode());
        assertEquals(-32001, code(after));
    }

    @Test
    void anUnsupportedProtocolVersionHeaderIsABadRequest() throws Exception {
        HttpRequest request = base("POST", body("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}"))
                .header("Mcp-Session-Id", session)
                .setHeader("MCP-Protocol-Version", "1999-01-01").build();
        HttpResponse<String> r = HTTP.send(request, HttpResponse.BodyHandlers.ofString());
        assertEquals(400, r.statusCode());
        assertEquals(-32600, code(r));
    }

    @Test
    void aForeignOriginIsForbidden() throws Exception {
        HttpRequest request = base("POST", body(initializeBody())).header("Origin", "https://evil.example.com").build();
        HttpResponse<String> r = HTTP.send(request, HttpResponse.BodyHandlers.ofString());
        assertEquals(403, r.statusCode());
        assertEquals(null, r.headers().firstValue("Mcp-Session-Id").orElse(null), "no session for a forbidden caller");
    }

    @Test
    void aForeignHostIsForbidden() throws Exception {
        HttpRequest request = base("POST", body(initializeBody())).header("Host", "evil.example.com").build();
        HttpResponse<String> r = HTTP.send(request, HttpResponse.BodyHandlers.ofString());
        assertEquals(403, r.statusCode());
    }

    /**
     * The 413 reaches the client whatever the timing: the server reads (and drops) the rest of a body
     * over the limit before it answers, so the client is never cut off while it still sends.
     */
    @Test
    void anOversizedBodyGetsIts413EveryTime() throws Exception {
        String big = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"params\":{\"pad\":\"" + "x".repeat(5 << 20) + "\"}}";
        for (int i = 0; i < 200; i++) {
            HttpResponse<String> r = post(big, session);
            assertEquals(413, r.statusCode(), "attempt " + i);
            assertEquals(-32000, code(r));
        }
        assertEquals(200, post("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}", session).statusCode(),
                "the server keeps answering");
    }

    @Test
    void aChunkedBodyThatGrowsPastTheLimitGets413() throws Exception {
        byte[] big = ("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"params\":{\"pad\":\"" + "x".repeat(5 << 20)
                + "\"}}").getBytes(java.nio.charset.StandardCharsets.UTF_8);
        for (int i = 0; i < 10; i++) {
            HttpRequest request = base("POST", HttpRequest.BodyPublishers.ofInputStream(
                    () -> new ByteArrayInputStream(big))).header("Mcp-Session-Id", session)
                    .header("MCP-Protocol-Version", VERSION).build();
            assertEquals(413, HTTP.send(request, HttpResponse.BodyHandlers.ofString()).statusCode(), "attempt " + i);
        }
        Probe.normalCallAnswers(server.url());
    }

    /**
     * A client that asks before sending ({@code Expect: 100-continue}) hears 413 instead of 100 and
     * never sends the body. (A raw socket: the JDK 17 client waits forever when the answer to its
     * Expect is not 100, whatever its timeout.)
     */
    @Test
    void anOversizedBodyAnnouncedWithExpectContinueIsRefusedBeforeItIsSent() throws Exception {
        for (int i = 0; i < 10; i++) {
            try (Probe.Raw raw = new Probe.Raw(server.url())) {
                raw.send(Probe.postHead(server.url(), "Expect: 100-continue\r\nContent-Length: " + (5 << 20) + "\r\n"));
                assertEquals(413, raw.status(), "attempt " + i);
                assertTrue(raw.rest().contains("Payload Too Large"));
            }
        }
    }

    @Test
    void aChunkedBodyWhoseFramingIsBrokenIsABadRequestNotAnEmptyOk() throws Exception {
        // before, such a request got "200 OK" with no body: the client was told its message was taken
        String ping = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}";
        String[] bodies = {
            "zz\r\n" + ping + "\r\n0\r\n\r\n", // a chunk size that is not hex
            ping, // no chunk framing at all
            Integer.toHexString(ping.length()) + "\r\n" + ping + "\r\n", // no last chunk, then the client's side closes
        };
        for (String body : bodies) {
            try (Probe.Raw raw = new Probe.Raw(server.url())) {
                raw.send(Probe.postHead(server.url(), "Mcp-Session-Id: " + session + "\r\nMCP-Protocol-Version: " + VERSION
                        + "\r\nTransfer-Encoding: chunked\r\n") + body);
                raw.socket.shutdownOutput();
                int status = raw.status();
                String rest = raw.rest();
                assertEquals(400, status, body + "\n" + rest);
                assertTrue(rest.contains("-32700") || rest.contains("Bad Message") || rest.contains("Bad Request"), rest);
            }
        }
        Probe.normalCallAnswers(server.url());
    }

    @Test
    void aBodyDeclaredFarOverTheLimitIsAnsweredAtOnceAndItsConnectionClosed() throws Exception {
        try (Probe.Raw raw = new Probe.Raw(server.url())) {
            raw.send(Probe.postHead(server.url(), "Content-Length: 100000000\r\n") + "{\"jsonrpc\":");
            assertEquals(413, raw.status());
            raw.rest(); // the server closes the connection after its answer: this returns
        }
        Probe.normalCallAnswers(server.url());
    }

    @Test
    void wrongContentTypeAndAcceptAreRefused() throws Exception {
        HttpRequest text = HttpRequest.newBuilder(URI.create(server.url())).timeout(Duration.ofSeconds(10))
                .header("Content-Type", "text/plain").header("Accept", "application/json, text/event-stream")
                .POST(body(initializeBody())).build();
        assertEquals(415, HTTP.send(text, HttpResponse.BodyHandlers.ofString()).statusCode());
        HttpRequest jsonOnly = HttpRequest.newBuilder(URI.create(server.url())).timeout(Duration.ofSeconds(10))
                .header("Content-Type", "application/json").header("Accept", "application/json")
                .POST(body(initializeBody())).build();
        assertEquals(406, HTTP.send(jsonOnly, HttpResponse.BodyHandlers.ofString()).statusCode());
        // a body the server would read wrongly: another charset, or compressed (before: decoded as UTF-8, -32700)
        HttpRequest latin1 = HttpRequest.newBuilder(URI.create(server.url())).timeout(Duration.ofSeconds(10))
                .header("Content-Type", "application/json; charset=iso-8859-1")
                .header("Accept", "application/json, text/event-stream").POST(body(initializeBody())).build();
        assertEquals(415, HTTP.send(latin1, HttpResponse.BodyHandlers.ofString()).statusCode());
        HttpRequest gzip = HttpRequest.newBuilder(URI.create(server.url())).timeout(Duration.ofSeconds(10))
                .header("Content-Type", "application/json").header("Content-Encoding", "gzip")
                .header("Accept", "application/json, text/event-stream").POST(body(initializeBody())).build();
        HttpResponse<String> refused = HTTP.send(gzip, HttpResponse.BodyHandlers.ofString());
        assertEquals(415, refused.statusCode(), refused.body());
        assertEquals("identity", refused.headers().firstValue("Accept-Encoding").orElse(null));
    }

    @Test
    void notificationsAreAcceptedWithoutABody() throws Exception {
        HttpResponse<String> r = post("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}", session);
        assertEquals(202, r.statusCode());
        assertEquals("", r.body());
    }

    @Test
    void unsupportedHttpMethodsAreNotAllowed() throws Exception {
        HttpResponse<String> r = HTTP.send(base("PUT", body("{}")).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(405, r.statusCode());
    }

    @Test
    void sessionIdsAreRandomVisibleAscii() throws Exception {
        String a = initialize();
        String b = initialize();
        assertTrue(a.matches("[\\x21-\\x7E]{32,}"), a);
        assertTrue(!a.equals(b));
    }

    // -------------------------------------------------------------------------------------------

    @Test
    void aRepeatedMcpHeaderIsOneListAsHttpReadsItAndSoRefusedAmongFewOrManyHeaders() throws Exception {
        // before, the first value counted: a gateway that read the last (or the list) authorised another request
        String toolsList = "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"tools/list\",\"params\":{\"_meta\":{"
                + "\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\",\"io.modelcontextprotocol/clientCapabilities\":{}}}}";
        for (int filler : new int[] {0, 100}) { // the transport reads a request's headers one way up to 32, another beyond
            for (String[] order : new String[][] {{"tools/list", "prompts/list"}, {"prompts/list", "tools/list"},
                    {"tools/list", "tools/list"}}) {
                HttpResponse<String> refused = HTTP.send(stateless(toolsList, filler, order[0], order[1]),
                        HttpResponse.BodyHandlers.ofString());
                assertEquals(400, refused.statusCode(), filler + " " + String.join(",", order) + ": " + refused.body());
                assertEquals(-32020, code(refused), refused.body());
            }
            HttpResponse<String> once = HTTP.send(stateless(toolsList, filler, "tools/list", null),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(200, once.statusCode(), filler + ": " + once.body());
        }
        String session = initialize();
        HttpResponse<String> twoSessions = HTTP.send(base("POST", body("{\"jsonrpc\":\"2.0\",\"id\":6,\"method\":\"ping\"}"))
                .header("MCP-Protocol-Version", VERSION).header("Mcp-Session-Id", session)
                .header("Mcp-Session-Id", "bogus").build(), HttpResponse.BodyHandlers.ofString());
        assertTrue(twoSessions.statusCode() == 404 || twoSessions.statusCode() == 400, twoSessions.statusCode() + " "
                + twoSessions.body());
        assertEquals(200, post("{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"ping\"}", session).statusCode(),
                "the session itself is unharmed");
    }

    /** A 2026-07-28 request with {@code filler} extra headers and two {@code Mcp-Method} headers (or one), in that order. */
    private static HttpRequest stateless(String json, int filler, String firstMethod, String secondMethod) {
        HttpRequest.Builder b = base("POST", body(json)).header("MCP-Protocol-Version", "2026-07-28")
                .header("Mcp-Method", firstMethod);
        if (secondMethod != null) {
            b.header("Mcp-Method", secondMethod);
        }
        for (int i = 0; i < filler; i++) {
            b.header("X-Filler-" + i, "value " + i);
        }
        return b.build();
    }

    private static String initializeBody() {
        return "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"" + VERSION
                + "\",\"capabilities\":{},\"clientInfo\":{\"name\":\"edge\",\"version\":\"1\"}}}";
    }

    private static String initialize() throws Exception {
        HttpResponse<String> r = HTTP.send(base("POST", body(initializeBody())).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), r.body());
        String id = r.headers().firstValue("Mcp-Session-Id").orElse(null);
        assertNotNull(id);
        return id;
    }

    private static HttpResponse<String> post(String json, String sessionId) throws Exception {
        HttpRequest.Builder b = base("POST", body(json)).header("MCP-Protocol-Version", VERSION);
        if (sessionId != null) {
            b.header("Mcp-Session-Id", sessionId);
        }
        return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static HttpRequest.Builder base(String method, HttpRequest.BodyPublisher publisher) {
        return HttpRequest.newBuilder(URI.create(server.url())).timeout(Duration.ofSeconds(20))
                .header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream")
                .method(method, publisher);
    }

    private static HttpRequest.BodyPublisher body(String json) {
        return HttpRequest.BodyPublishers.ofString(json);
    }

    private static int code(HttpResponse<String> r) throws Exception {
        JsonNode node = JSON.readTree(r.body());
        return node.path("error").path("code").asInt();
    }
}
