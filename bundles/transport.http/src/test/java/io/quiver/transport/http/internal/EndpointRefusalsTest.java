package io.quiver.transport.http.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quiver.api.transport.Receipt;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What a client is told when the endpoint refuses its request before or instead of the engine: the HTTP status, the
 * JSON-RPC error code and message, the headers that say what to do instead, and the connection closed after a
 * request whose body was not read. Served by the servlet in a real Jetty, over loopback.
 */
class EndpointRefusalsTest {

    private static final String PING = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}";

    private final LiveEndpoint endpoint = new LiveEndpoint();

    @BeforeEach
    void start() throws Exception {
        endpoint.start();
    }

    @AfterEach
    void stop() throws Exception {
        endpoint.close();
    }

    @Test
    void aForeignHostIs403AndTheConnectionCloses() throws Exception {
        try (RawHttp answer = endpoint.post(PING, Map.of("Host", "evil.example:80"))) {
            assertRefused(answer, 403, -32000, "Forbidden: Host not allowed");
            assertEquals("close", answer.header("Connection"));
        }
        assertEquals(0, endpoint.engine.inbounds.size(), "the engine saw nothing");
    }

    @Test
    void aForeignOriginIs403() throws Exception {
        try (RawHttp answer = endpoint.post(PING, Map.of("Origin", "http://evil.example"))) {
            assertRefused(answer, 403, -32000, "Forbidden: Origin not allowed");
        }
        try (RawHttp answer = endpoint.post(PING, Map.of("Origin", "http://localhost:3000"))) {
            assertEquals(202, answer.status(), "a loopback origin is let in");
        }
    }

    @Test
    void aPathThatIsNoEndpointIs404() throws Exception {
        try (RawHttp answer = RawHttp.send(endpoint.port(), "POST", "/mcp/other", LiveEndpoint.POST_HEADERS, PING)) {
            assertRefused(answer, 404, -32600, "Not Found: no MCP endpoint at this path");
        }
    }

    @Test
    void aProjectThatIsNoPlaceNameIs400AndAGoodOneReachesTheEngine() throws Exception {
        try (RawHttp answer = RawHttp.send(endpoint.port(), "POST", "/mcp?projectId=../etc", LiveEndpoint.POST_HEADERS,
                PING)) {
            assertRefused(answer, 400, -32600,
                    "Bad Request: projectId must be 1 to 64 of A-Z a-z 0-9 _ . - starting with a letter or digit");
        }
        try (RawHttp answer = RawHttp.send(endpoint.port(), "POST", "/mcp?projectId=apollo", LiveEndpoint.POST_HEADERS,
                PING)) {
            assertEquals(202, answer.status());
        }
        assertEquals("apollo", endpoint.engine.inbounds.get(0).caller().project());
    }

    @Test
    void anotherMethodIs405AndSaysWhichAreAllowed() throws Exception {
        try (RawHttp answer = RawHttp.send(endpoint.port(), "PUT", "/mcp", LiveEndpoint.POST_HEADERS, PING)) {
            assertRefused(answer, 405, -32000, "Method not allowed");
            assertEquals("GET, POST, DELETE", answer.header("Allow"));
        }
    }

    @Test
    void aPostThatDoesNotAcceptBothJsonAndEventStreamsIs406() throws Exception {
        for (String accept : new String[] {"application/json", "text/event-stream"}) {
            try (RawHttp answer = endpoint.post(PING, Map.of("Accept", accept))) {
                assertRefused(answer, 406, -32000,
                        "Not Acceptable: the client must accept both application/json and text/event-stream");
                assertEquals("close", answer.header("Connection"));
            }
        }
        assertEquals(0, endpoint.engine.inbounds.size());
    }

    @Test
    void aBodyThatIsNotJsonOrIsEncodedIs415() throws Exception {
        try (RawHttp answer = endpoint.post(PING, Map.of("Content-Type", "text/plain"))) {
            assertRefused(answer, 415, -32000, "Unsupported Media Type: the body must be application/json in UTF-8");
        }
        try (RawHttp answer = endpoint.post(PING, Map.of("Content-Encoding", "gzip"))) {
            assertRefused(answer, 415, -32000, "Unsupported Media Type: the body must be sent without a Content-Encoding");
            assertEquals("identity", answer.header("Accept-Encoding"));
        }
        assertEquals(0, endpoint.engine.inbounds.size());
    }

    @Test
    void aRequestTheEngineRefusesIsAnsweredWithTheStatusOfItsReason() throws Exception {
        for (Map.Entry<Receipt.Reason, Integer> refusal : Map.of(Receipt.Reason.SESSION_NOT_FOUND, 404,
                Receipt.Reason.PARSE_ERROR, 400, Receipt.Reason.UNAVAILABLE, 503).entrySet()) {
            byte[] error = ScriptedEngine.error(-32001, "refused for " + refusal.getKey());
            endpoint.engine.script = (message, inbound) -> new Receipt.Rejected(refusal.getKey(), error);
            try (RawHttp answer = endpoint.post(PING)) {
                assertEquals(refusal.getValue(), answer.status(), refusal.getKey().toString());
                assertEquals(new String(error, java.nio.charset.StandardCharsets.UTF_8), answer.body());
                assertEquals(refusal.getValue() == 503 ? "5" : null, answer.header("Retry-After"));
            }
        }
    }

    /** The status and the JSON-RPC error a refused request gets. */
    static void assertRefused(RawHttp answer, int status, int code, String message) throws Exception {
        assertEquals(status, answer.status());
        assertTrue(answer.header("Content-Type").startsWith("application/json"), answer.header("Content-Type"));
        String body = answer.body();
        assertTrue(body.contains("\"code\":" + code + ",") && body.contains("\"message\":\"" + message + "\""), body);
    }
}
