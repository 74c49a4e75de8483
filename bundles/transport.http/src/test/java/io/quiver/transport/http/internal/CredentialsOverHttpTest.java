package io.quiver.transport.http.internal;

import static io.quiver.transport.http.internal.EndpointRefusalsTest.assertRefused;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.quiver.api.CallerIdentity;
import io.quiver.api.auth.Authentication;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What a caller's credential lets it reach over HTTP, as someone holding the wrong one would try: a request without a
 * token is challenged with where to get one, a token for another tenant is refused, and a session is found only by
 * the principal that opened it. Served by the servlet in a real Jetty, over loopback.
 */
class CredentialsOverHttpTest {

    private static final CallerIdentity ALICE = new CallerIdentity("alice", CallerIdentity.DEFAULT_TENANT, Set.of(), true);
    private static final CallerIdentity BOB = new CallerIdentity("bob", CallerIdentity.DEFAULT_TENANT, Set.of(), true);
    private static final CallerIdentity MALLORY = new CallerIdentity("mallory", "acme", Set.of(), true);

    private final ScheduledExecutorService ticker = Executors.newSingleThreadScheduledExecutor();
    /** Tokens revoked since they were issued. */
    private final Set<String> revoked = ConcurrentHashMap.newKeySet();
    private final LiveEndpoint endpoint = new LiveEndpoint().authenticatedBy(token -> revoked.contains(token)
            ? Authentication.refused("revoked") : switch (token) {
        case "alice-token" -> Authentication.accepted(ALICE, Set.of("mcp:tools"));
        case "alice-unscoped-token" -> Authentication.accepted(ALICE, Set.of());
        case "bob-token" -> Authentication.accepted(BOB, Set.of("mcp:tools"));
        case "acme-token" -> Authentication.accepted(MALLORY, Set.of("mcp:tools"));
        default -> Authentication.refused("unknown");
    });

    @BeforeEach
    void start() throws Exception {
        endpoint.with("subjectRequestsPerSecond", "0").with("requiredScopes", "mcp:tools").start();
    }

    @AfterEach
    void stop() throws Exception {
        ticker.shutdownNow();
        endpoint.close();
    }

    @Test
    void aRequestWithoutATokenIsChallengedWithWhereToGetOne() throws Exception {
        CredentialsOverHttpTest.assertChallenged(endpoint);
    }

    /**
     * A request without its token is refused with 401 and told where the protected resource's metadata is (RFC 9728),
     * and the engine never hears of it.
     */
    static void assertChallenged(LiveEndpoint endpoint) throws Exception {
        try (RawHttp answer = endpoint.post("{}")) {
            assertRefused(answer, 401, -32000, "Unauthorized: this endpoint needs an Authorization: Bearer token");
            assertEquals("Bearer resource_metadata=\"http://127.0.0.1:" + endpoint.port()
                    + "/.well-known/oauth-protected-resource/mcp\"", answer.header("WWW-Authenticate"));
            assertEquals("close", answer.header("Connection"));
        }
        assertEquals(0, endpoint.engine.inbounds.size());
    }

    /**
     * A path parameter a URI may not hold raw ({@code /mcp;"}) still reaches the endpoint and gets its challenge,
     * naming the endpoint's metadata: building that URL from the raw path failed with a 500 and an ERROR stack trace
     * in the log for every such request, before any credential was asked for.
     */
    @Test
    void aPathParameterThatNoUriMayHoldIsChallengedAsThePath() throws Exception {
        for (String method : new String[] {"POST", "GET"}) {
            try (RawHttp answer = RawHttp.send(endpoint.port(), method, "/mcp;\"", LiveEndpoint.POST_HEADERS, "{}")) {
                assertRefused(answer, 401, -32000, "Unauthorized: this endpoint needs an Authorization: Bearer token");
                assertEquals("Bearer resource_metadata=\"http://127.0.0.1:" + endpoint.port()
                        + "/.well-known/oauth-protected-resource/mcp\"", answer.header("WWW-Authenticate"), method);
            }
        }
        assertEquals(0, endpoint.engine.inbounds.size());
    }

    @Test
    void aTokenForAnotherTenantIsRefused() throws Exception {
        try (RawHttp answer = endpoint.post("{}", Map.of("Authorization", "Bearer acme-token"))) {
            assertRefused(answer, 403, -32000, "Forbidden: the token is for tenant acme, not default");
            assertEquals("Bearer error=\"insufficient_scope\", error_description=\"The access token is not for this"
                    + " tenant\", resource_metadata=\"http://127.0.0.1:" + endpoint.port()
                    + "/.well-known/oauth-protected-resource/mcp\"", answer.header("WWW-Authenticate"));
        }
        assertEquals(0, endpoint.engine.inbounds.size());
    }

    @Test
    void aSessionIsNotFoundByAnotherPrincipal() throws Exception {
        endpoint.engine.open("alices", ALICE);
        try (RawHttp answer = endpoint.get(Map.of("Accept", "text/event-stream", "Mcp-Session-Id", "alices",
                "Authorization", "Bearer bob-token"))) {
            assertRefused(answer, 404, -32001, "Session not found");
        }
        try (RawHttp answer = RawHttp.send(endpoint.port(), "DELETE", "/mcp", Map.of("Mcp-Session-Id", "alices",
                "Authorization", "Bearer bob-token"), null)) {
            assertRefused(answer, 404, -32001, "Session not found");
        }
        assertEquals(true, endpoint.engine.sessions.get("alices").isOpen(), "bob could not end it");
        try (RawHttp answer = endpoint.get(Map.of("Accept", "text/event-stream", "Mcp-Session-Id", "alices",
                "Authorization", "Bearer alice-token"))) {
            assertEquals(200, answer.status(), "its own principal finds it");
        }
    }

    @Test
    void theEngineIsToldTheCallerTheRequestsHeadersAndItsSession() throws Exception {
        try (RawHttp answer = endpoint.post("{}", Map.of("Authorization", "Bearer alice-token", "Mcp-Session-Id",
                " s1 ", "MCP-Protocol-Version", "2025-11-25", "Mcp-Name", "echo\r\nMcp-Name: rm"))) {
            assertEquals(202, answer.status());
        }
        io.quiver.api.transport.Inbound inbound = endpoint.engine.inbounds.get(0);
        assertEquals(ALICE, inbound.caller());
        assertEquals("s1", inbound.sessionId());
        assertEquals("2025-11-25", inbound.protocolVersion());
        assertEquals("127.0.0.1", inbound.clientAddress());
        assertEquals("echo, rm", inbound.header("Mcp-Name"), "a repeated header is read whole, as HTTP lists it");
        assertEquals("application/json", inbound.header("content-type"));
    }

    @Test
    void anOpenStreamWhoseTokenIsRevokedEndsAtTheNextCheckAndOthersGoOn() throws Exception {
        endpoint.engine.open("alices", ALICE);
        ScriptedEngine.Session bobs = endpoint.engine.open("bobs", BOB);
        try (RawHttp alice = endpoint.get(Map.of("Accept", "text/event-stream", "Mcp-Session-Id", "alices",
                "Authorization", "Bearer alice-token"));
                RawHttp bob = endpoint.get(Map.of("Accept", "text/event-stream", "Mcp-Session-Id", "bobs",
                        "Authorization", "Bearer bob-token"))) {
            alice.nextEvent();
            bob.nextEvent();
            revoked.add("alice-token");
            // what the transport runs every sseKeepAliveMs
            ticker.scheduleWithFixedDelay(endpoint.servlet::keepAlive, 0, 20, TimeUnit.MILLISECONDS);
            assertNull(nextMessage(alice), "the stream of the revoked token ended");
            bobs.nextAttached().send(ScriptedEngine.bytes("{\"n\":1}"));
            assertEquals("id: g1-1\nevent: message\ndata: {\"n\":1}", nextMessage(bob), "the other goes on");
        }
    }

    @Test
    void aTokenWithoutTheRequiredScopeIs403() throws Exception {
        try (RawHttp answer = endpoint.post("{}", Map.of("Authorization", "Bearer alice-unscoped-token"))) {
            assertRefused(answer, 403, -32000, "Forbidden: the token lacks the scope mcp:tools");
            assertEquals("Bearer error=\"insufficient_scope\", scope=\"mcp:tools\", resource_metadata=\"http://127.0.0.1:"
                    + endpoint.port() + "/.well-known/oauth-protected-resource/mcp\"", answer.header("WWW-Authenticate"));
        }
        assertEquals(0, endpoint.engine.inbounds.size());
    }

    @Test
    void aResumedStreamWhoseTokenIsRevokedEndsToo() throws Exception {
        ScriptedEngine.Session session = endpoint.engine.open("alices", ALICE);
        Map<String, String> headers = new java.util.HashMap<>(Map.of("Accept", "text/event-stream", "Mcp-Session-Id",
                "alices", "Authorization", "Bearer alice-token"));
        try (RawHttp stream = endpoint.get(headers)) {
            stream.nextEvent();
        }
        session.nextAttached().send(ScriptedEngine.bytes("{\"n\":1}"));
        headers.put("Last-Event-ID", "g1-0");
        try (RawHttp resumed = endpoint.get(headers)) {
            assertEquals("id: g1-1\nevent: message\ndata: {\"n\":1}", resumed.nextEvent());
            revoked.add("alice-token");
            // as when an authenticator comes or goes
            ticker.scheduleWithFixedDelay(endpoint.servlet::recheckStreams, 0, 20, TimeUnit.MILLISECONDS);
            assertNull(resumed.nextEvent(), "the resumed stream of the revoked token ended");
        }
    }

    /** The next event that is not a keep-alive comment, or null at the stream's end. */
    private static String nextMessage(RawHttp stream) throws Exception {
        String event = stream.nextEvent();
        while (event != null && event.startsWith(":")) {
            event = stream.nextEvent();
        }
        return event;
    }
}
