package io.quiver.transport.http.internal;

import static io.quiver.transport.http.internal.EndpointRefusalsTest.assertRefused;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.quiver.api.auth.Authentication;
import io.quiver.api.transport.Receipt;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A page in a browser of an origin allowedOrigins names (the MCP Inspector's, on localhost) reaches the endpoint directly: its
 * preflight is answered, and every answer, errors and challenges included, tells the browser the page may read it.
 * Before, a preflight got 405 and no answer said so, so the browser kept every answer from the page. A page of
 * another origin still gets 403 and nothing that lets it read. Over the servlet and over the lanes (whose core lane
 * leaves a page's POST to the servlet).
 */
class CorsTest {

    private static final String PAGE = "http://localhost:6274";
    private static final String PING = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}";
    private LiveEndpoint endpoint;

    @AfterEach
    void stop() throws Exception {
        endpoint.close();
    }

    private void start(boolean lanes) throws Exception {
        endpoint = new LiveEndpoint().with("allowedOrigins", PAGE);
        if (lanes) {
            endpoint.withLanes();
        }
        endpoint.start();
        endpoint.engine.script = (message, inbound) -> new Receipt.Pending(null, new ScriptedEngine.Scripted(
                List.of("ping"), ScriptedEngine.STATELESS, true, sink -> sink.complete(ScriptedEngine.bytes(
                        "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}"))));
    }

    @Test
    void aPageOfAnAllowedOriginIsAnsweredOverTheServlet() throws Exception {
        start(false);
        assertAPageOfAnAllowedOriginIsAnswered();
    }

    @Test
    void aPageOfAnAllowedOriginIsAnsweredOverTheLanes() throws Exception {
        start(true);
        assertAPageOfAnAllowedOriginIsAnswered();
    }

    private void assertAPageOfAnAllowedOriginIsAnswered() throws Exception {
        Map<String, String> preflight = new LinkedHashMap<>();
        preflight.put("Origin", PAGE);
        preflight.put("Access-Control-Request-Method", "POST");
        preflight.put("Access-Control-Request-Headers", "content-type, mcp-session-id, mcp-protocol-version, authorization");
        try (RawHttp answer = RawHttp.send(endpoint.port(), "OPTIONS", "/mcp", preflight, null)) {
            assertEquals(204, answer.status());
            assertEquals(PAGE, answer.header("Access-Control-Allow-Origin"));
            assertEquals("GET, POST, DELETE", answer.header("Access-Control-Allow-Methods"));
            assertEquals("content-type, mcp-session-id, mcp-protocol-version, authorization",
                    answer.header("Access-Control-Allow-Headers"));
        }
        try (RawHttp answer = endpoint.post(PING, Map.of("Origin", PAGE))) {
            assertEquals(200, answer.status());
            assertEquals(PAGE, answer.header("Access-Control-Allow-Origin"));
            assertEquals("Mcp-Session-Id, MCP-Protocol-Version, WWW-Authenticate, Retry-After",
                    answer.header("Access-Control-Expose-Headers"));
            assertEquals("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}", answer.body());
        }
        try (RawHttp answer = endpoint.post(PING, Map.of())) {
            assertEquals(200, answer.status());
            assertNull(answer.header("Access-Control-Allow-Origin"), "not a page: nothing to say");
        }
        Map<String, String> foreign = new LinkedHashMap<>(preflight);
        foreign.put("Origin", "https://evil.example");
        try (RawHttp answer = RawHttp.send(endpoint.port(), "OPTIONS", "/mcp", foreign, null)) {
            assertRefused(answer, 403, -32000, "Forbidden: Origin not allowed");
            assertNull(answer.header("Access-Control-Allow-Origin"));
        }
        try (RawHttp answer = endpoint.post(PING, Map.of("Origin", "https://evil.example"))) {
            assertRefused(answer, 403, -32000, "Forbidden: Origin not allowed");
            assertNull(answer.header("Access-Control-Allow-Origin"));
        }
        try (RawHttp answer = RawHttp.send(endpoint.port(), "OPTIONS", "/mcp", Map.of(), null)) {
            assertEquals(405, answer.status(), "an OPTIONS that is no preflight");
        }
        // a page of another port on localhost: its requests come in (a loopback name), but it may not read the answers,
        // or any page served on this machine would act as the loopback server's operator
        Map<String, String> local = new LinkedHashMap<>(preflight);
        local.put("Origin", "http://localhost:8080");
        try (RawHttp answer = RawHttp.send(endpoint.port(), "OPTIONS", "/mcp", local, null)) {
            assertRefused(answer, 403, -32000, "Forbidden: Origin not allowed");
        }
        try (RawHttp answer = endpoint.post(PING, Map.of("Origin", "http://localhost:8080"))) {
            assertEquals(200, answer.status());
            assertNull(answer.header("Access-Control-Allow-Origin"), "not listed in allowedOrigins: not readable");
        }
    }

    /** A challenge is readable by the page, so that it can find where to get a token (WWW-Authenticate). */
    @Test
    void aPagesChallengeIsReadable() throws Exception {
        endpoint = new LiveEndpoint().with("allowedOrigins", PAGE).authenticatedBy(token -> Authentication.refused("unknown"));
        endpoint.start();
        try (RawHttp answer = endpoint.post(PING, Map.of("Origin", PAGE))) {
            assertEquals(401, answer.status());
            assertEquals(PAGE, answer.header("Access-Control-Allow-Origin"));
            assertEquals("Bearer resource_metadata=\"http://127.0.0.1:" + endpoint.port()
                    + "/.well-known/oauth-protected-resource/mcp\"", answer.header("WWW-Authenticate"));
        }
    }
}
