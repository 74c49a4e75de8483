package io.quiver.transport.http.internal;

import static io.quiver.transport.http.internal.EndpointRefusalsTest.assertRefused;
import static io.quiver.transport.http.internal.ScriptedEngine.bytes;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quiver.api.CallerIdentity;
import io.quiver.api.auth.Authentication;
import io.quiver.api.transport.Receipt;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * An authenticated caller's limits as it meets them over HTTP: 429 with {@code Retry-After} beyond its request rate
 * (a JSON-RPC batch counting as the requests it holds) and beyond its tool calls in progress. Served by the servlet
 * in a real Jetty, over loopback.
 */
class CallerLimitsOverHttpTest {

    private static final CallerIdentity ALICE = new CallerIdentity("alice", CallerIdentity.DEFAULT_TENANT, Set.of(), true);
    private static final Map<String, String> AS_ALICE = Map.of("Authorization", "Bearer alice-token");

    private final LiveEndpoint endpoint = new LiveEndpoint()
            .authenticatedBy(token -> token.equals("alice-token") ? Authentication.accepted(ALICE, Set.of())
                    : Authentication.refused("unknown"));

    @AfterEach
    void stop() throws Exception {
        endpoint.close();
    }

    @Test
    void aCallerBeyondItsRequestRateIs429AndToldWhenToComeBack() throws Exception {
        endpoint.with("subjectRequestsPerSecond", "0.01").with("subjectBurst", "1").start();
        assertSecondRequestOverRate(endpoint, AS_ALICE);
        assertEquals(1, endpoint.engine.inbounds.size(), "the engine saw the first only");
        assertEquals(ALICE, endpoint.engine.inbounds.get(0).caller());
    }

    @Test
    void aBatchCountsAsTheRequestsItHolds() throws Exception {
        endpoint.with("subjectRequestsPerSecond", "0.01").with("subjectBurst", "5").start();
        ScriptedEngine.Session session = endpoint.engine.open("s1", ALICE);
        endpoint.engine.script = (message, inbound) -> new Receipt.Pending(session, new ScriptedEngine.Scripted(
                List.of("ping", "ping", "ping"), ScriptedEngine.SESSION, false, sink -> sink.complete(bytes("[]"))));
        try (RawHttp batch = endpoint.post("[]", Map.of("Authorization", "Bearer alice-token", "Mcp-Session-Id", "s1"))) {
            assertEquals(200, batch.status(), "three requests of five");
        }
        ScriptedEngine.Scripted over = new ScriptedEngine.Scripted(List.of("ping", "ping", "ping"), ScriptedEngine.SESSION, false,
                sink -> sink.complete(bytes("[]")));
        endpoint.engine.script = (message, inbound) -> new Receipt.Pending(session, over);
        try (RawHttp batch = endpoint.post("[]", Map.of("Authorization", "Bearer alice-token", "Mcp-Session-Id", "s1"))) {
            assertEquals(429, batch.status(), "three more: its first let in, the two others beyond the burst");
            assertTrue(Long.parseLong(batch.header("Retry-After")) > 1);
        }
        assertTrue(over.isAbandoned(), "the engine forgets the batch it was not let serve");
    }

    @Test
    void aCallerWithTheMostToolCallsInProgressIs429UntilOneEnds() throws Exception {
        endpoint.with("subjectRequestsPerSecond", "0").with("maxConcurrentCallsPerSubject", "1").start();
        ScriptedEngine.Session session = endpoint.engine.open("s1", ALICE);
        ScriptedEngine.Scripted running = new ScriptedEngine.Scripted("tools/call", ScriptedEngine.SESSION, null);
        endpoint.engine.script = (message, inbound) -> new Receipt.Pending(session, running);
        Map<String, String> headers = Map.of("Authorization", "Bearer alice-token", "Mcp-Session-Id", "s1");
        try (RawHttp first = endpoint.post("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\"}", headers)) {
            assertEquals(200, first.status());
            first.nextEvent(); // its stream opened: the call is in progress
            ScriptedEngine.Scripted refused = new ScriptedEngine.Scripted("tools/call", ScriptedEngine.SESSION, null);
            endpoint.engine.script = (message, inbound) -> new Receipt.Pending(session, refused);
            try (RawHttp second = endpoint.post("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\"}", headers)) {
                assertRefused(second, 429, -32000,
                        "Too Many Requests: this caller has 1 tool calls in progress, the most it may; try again shortly");
                assertEquals("1", second.header("Retry-After"));
            }
            assertTrue(refused.isAbandoned());
            running.sink().complete(bytes("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}"));
        }
        endpoint.engine.script = (message, inbound) -> new Receipt.Pending(session,
                new ScriptedEngine.Scripted("tools/call", ScriptedEngine.SESSION, sink -> sink.complete(bytes("{}"))));
        try (RawHttp third = endpoint.post("{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\"}", headers)) {
            assertEquals(200, third.status(), "the call that ended gave its place back");
        }
    }

    /**
     * Two notifications from one caller whose rate allows one: the first taken (202), the second refused with 429,
     * told when to come back, its connection closed.
     */
    static void assertSecondRequestOverRate(LiveEndpoint endpoint, Map<String, String> caller) throws Exception {
        try (RawHttp first = endpoint.post("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/x\"}", caller)) {
            assertEquals(202, first.status());
        }
        try (RawHttp second = endpoint.post("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/x\"}", caller)) {
            String wait = second.header("Retry-After");
            assertTrue(Long.parseLong(wait) > 1, wait);
            assertRefused(second, 429, -32000, "Too Many Requests: over this caller's request rate; try again in "
                    + wait + " s");
            assertEquals("close", second.header("Connection"));
        }
    }
}
