package io.quiver.transport.http.internal;

import static io.quiver.transport.http.internal.EndpointRefusalsTest.assertRefused;
import static io.quiver.transport.http.internal.ScriptedEngine.bytes;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quiver.api.CallerIdentity;
import io.quiver.api.auth.Authentication;
import io.quiver.api.auth.Authenticator;
import io.quiver.api.transport.Receipt;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * POSTs served on the selector lane, those that wait on nothing answered by the core handler ahead of the servlet:
 * a client must meet the same statuses, headers and answers there as through the servlet. A real Jetty with the
 * lane connector taking over its plain connector, as Felix HTTP's is, over loopback.
 */
class CoreLaneTest {

    private static final String RESULT = "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}";
    private static final CallerIdentity ALICE = new CallerIdentity("alice", CallerIdentity.DEFAULT_TENANT, Set.of(), true);

    private final LiveEndpoint endpoint = new LiveEndpoint().withLanes();

    @AfterEach
    void stop() throws Exception {
        endpoint.close();
    }

    /** Accepts {@code alice-token} as alice, checked without waiting (so on the lane). */
    private static Authenticator alice() {
        return new Authenticator() {
            @Override
            public Authentication authenticate(String token) {
                return token.equals("alice-token") ? Authentication.accepted(ALICE, Set.of())
                        : Authentication.refused("unknown");
            }

            @Override
            public boolean waitsOnNothing() {
                return true;
            }
        };
    }

    @Test
    void aRequestThatWaitsOnNothingIsAnsweredOnTheLaneAndAnInitializeToldItsSession() throws Exception {
        endpoint.start();
        ScriptedEngine.Session created = endpoint.engine.open("s-new", CallerIdentity.ANONYMOUS);
        endpoint.engine.script = (message, inbound) -> new Receipt.Pending(created, new ScriptedEngine.Scripted(
                List.of("initialize"), ScriptedEngine.SESSION, true, sink -> sink.complete(bytes(RESULT))));
        try (RawHttp answer = endpoint.post("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\"}")) {
            assertEquals(200, answer.status());
            assertEquals("application/json", answer.header("Content-Type"));
            assertEquals("s-new", answer.header("Mcp-Session-Id"));
            assertEquals(RESULT, answer.body());
        }
        assertEquals(1, endpoint.engine.receivedNow.size(), "received on the lane");
        assertEquals("127.0.0.1", endpoint.engine.receivedNow.get(0).clientAddress());
        assertEquals("application/json", endpoint.engine.receivedNow.get(0).header("Content-Type"));
    }

    @Test
    void aRequestThatMayWaitIsHandedToTheServletAndAnsweredThere() throws Exception {
        endpoint.start();
        ScriptedEngine.Session session = endpoint.engine.open("s1", CallerIdentity.ANONYMOUS);
        endpoint.engine.script = (message, inbound) -> new Receipt.Pending(session,
                new ScriptedEngine.Scripted("tools/call", ScriptedEngine.SESSION, sink -> {
                    sink.send(bytes("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\"}"));
                    sink.complete(bytes(RESULT));
                }));
        try (RawHttp answer = endpoint.post("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\"}",
                Map.of("Mcp-Session-Id", "s1"))) {
            assertEquals(200, answer.status());
            assertEquals("id: p1-0\nretry: 3000\ndata: ", answer.nextEvent());
            assertEquals("id: p1-1\nevent: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\"}",
                    answer.nextEvent());
            assertEquals("id: p1-2\nevent: message\ndata: " + RESULT, answer.nextEvent());
            assertNull(answer.nextEvent());
        }
        assertEquals(1, endpoint.engine.inbounds.size(), "received once, on the lane");
    }

    @Test
    void aMessageTheEngineTakesOnlyOffTheLaneIsReceivedThere() throws Exception {
        endpoint.start();
        endpoint.engine.receivesNow = false;
        endpoint.engine.script = (message, inbound) -> new Receipt.Pending(null, new ScriptedEngine.Scripted(
                List.of("ping"), ScriptedEngine.STATELESS, false, sink -> sink.complete(bytes(RESULT))));
        try (RawHttp answer = endpoint.post("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}")) {
            assertEquals(200, answer.status());
            assertEquals(RESULT, answer.body());
        }
        assertEquals(1, endpoint.engine.inbounds.size());
    }

    @Test
    void aForeignHostIsRefusedOnTheLaneAsByTheServlet() throws Exception {
        endpoint.start();
        try (RawHttp answer = endpoint.post("{}", Map.of("Host", "evil.example"))) {
            assertRefused(answer, 403, -32000, "Forbidden: Host not allowed");
            assertEquals("close", answer.header("Connection"));
        }
        try (RawHttp answer = endpoint.post("{}", Map.of("Accept", "application/json"))) {
            assertRefused(answer, 406, -32000,
                    "Not Acceptable: the client must accept both application/json and text/event-stream");
            assertEquals("close", answer.header("Connection"));
        }
        assertEquals(0, endpoint.engine.inbounds.size());
    }

    @Test
    void aRequestWithoutItsTokenIsChallengedOnTheLaneWithTheResourceMetadata() throws Exception {
        endpoint.authenticatedBy(alice()).start();
        CredentialsOverHttpTest.assertChallenged(endpoint);
    }

    @Test
    void aCallerBeyondItsRateIs429OnTheLane() throws Exception {
        endpoint.authenticatedBy(alice()).with("subjectRequestsPerSecond", "0.01").with("subjectBurst", "1").start();
        Map<String, String> asAlice = Map.of("Authorization", "Bearer alice-token");
        CallerLimitsOverHttpTest.assertSecondRequestOverRate(endpoint, asAlice);
        assertEquals(List.of(ALICE), endpoint.engine.receivedNow.stream().map(i -> i.caller()).toList());
    }

    @Test
    void aBodyThatComesInPartsIsServedOnceWholeAndOneTooSlowIs408() throws Exception {
        endpoint.with("bodyTimeoutMs", "300").start();
        endpoint.engine.script = (message, inbound) -> new Receipt.Rejected(Receipt.Reason.PARSE_ERROR,
                bytes("{\"got\":\"" + new String(message).replace("\"", "'") + "\"}"));
        String body = "{\"jsonrpc\":\"2.0\",\"id\":1}";
        Map<String, String> headers = Map.of("Accept", "application/json, text/event-stream", "Content-Type",
                "application/json", "Content-Length", Integer.toString(body.length()));
        try (RawHttp answer = RawHttp.sendOnly(endpoint.port(), "POST", "/mcp", headers, null)) {
            answer.sendMore(body.substring(0, 10));
            answer.sendMore(body.substring(10));
            answer.readHead();
            assertEquals(400, answer.status());
            assertEquals("{\"got\":\"" + body.replace("\"", "'") + "\"}", answer.body());
        }
        try (RawHttp answer = RawHttp.sendOnly(endpoint.port(), "POST", "/mcp", headers, null)) {
            answer.sendMore(body.substring(0, 10));
            answer.readHead();
            assertRefused(answer, 408, -32000, "Request Timeout: the body did not arrive within 300 ms");
            assertEquals("close", answer.header("Connection"));
        }
        assertEquals(1, endpoint.engine.inbounds.size());
    }

    @Test
    void thePostsLimitsAndMediaTypesHoldOnTheLaneAsThroughTheServlet() throws Exception {
        endpoint.with("maxBodyBytes", "100").with("maxDrainBytes", "1000").start();
        String over = "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/x\",\"params\":{\"p\":\"" + "p".repeat(50) + "\"}}";
        try (RawHttp answer = endpoint.post(over)) {
            assertRefused(answer, 413, -32000, "Payload Too Large: the limit is 100 bytes");
        }
        try (RawHttp answer = endpoint.post("{}", Map.of("Content-Type", "text/plain"))) {
            assertRefused(answer, 415, -32000, "Unsupported Media Type: the body must be application/json in UTF-8");
        }
        try (RawHttp answer = endpoint.post("{}", Map.of("Content-Encoding", "gzip"))) {
            assertRefused(answer, 415, -32000, "Unsupported Media Type: the body must be sent without a Content-Encoding");
        }
        try (RawHttp answer = endpoint.post("{}", Map.of("Accept", "text/event-stream"))) {
            assertRefused(answer, 406, -32000,
                    "Not Acceptable: the client must accept both application/json and text/event-stream");
        }
        assertEquals(0, endpoint.engine.inbounds.size(), "the engine saw none of them");
    }

    @Test
    void aStatelessCallWhoseClientClosesItsConnectionIsCancelledAtOnce() throws Exception {
        endpoint.start();
        ScriptedEngine.Scripted call = new ScriptedEngine.Scripted("tools/call", ScriptedEngine.STATELESS, null);
        endpoint.engine.script = (message, inbound) -> new Receipt.Pending(null, call);
        try (RawHttp answer = RawHttp.sendOnly(endpoint.port(), "POST", "/mcp", LiveEndpoint.POST_HEADERS,
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\"}")) {
            call.sink(); // the tool runs, nothing written yet
        }
        assertTrue(call.abandonedWithin10s(), "the engine is told at once, not at the next write");
    }
}
