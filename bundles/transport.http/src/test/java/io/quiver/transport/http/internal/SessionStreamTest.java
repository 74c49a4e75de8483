package io.quiver.transport.http.internal;

import static io.quiver.transport.http.internal.EndpointRefusalsTest.assertRefused;
import static io.quiver.transport.http.internal.ScriptedEngine.bytes;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quiver.api.CallerIdentity;
import io.quiver.api.transport.MessageSink;
import io.quiver.api.transport.Receipt;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A session's own stream (GET) and its end (DELETE), as a client meets them: what it must send, the events it
 * receives, a GET that replaces the one before, the limits on open streams, and what a closed session leaves.
 * Served by the servlet in a real Jetty, over loopback.
 */
class SessionStreamTest {

    private static final String NOTE = "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/tools/list_changed\"}";

    private final LiveEndpoint endpoint = new LiveEndpoint();

    @AfterEach
    void stop() throws Exception {
        endpoint.close();
    }

    private static Map<String, String> streamOf(String session) {
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("Accept", "text/event-stream");
        headers.put("Mcp-Session-Id", session);
        return headers;
    }

    @Test
    void aGetMustAcceptEventStreamsAndNameALiveSessionInASupportedVersion() throws Exception {
        endpoint.start();
        endpoint.engine.open("s1", CallerIdentity.ANONYMOUS);
        try (RawHttp answer = endpoint.get(Map.of("Accept", "application/json", "Mcp-Session-Id", "s1"))) {
            assertRefused(answer, 406, -32000, "Not Acceptable: the client must accept text/event-stream");
        }
        try (RawHttp answer = endpoint.get(Map.of("Accept", "text/event-stream"))) {
            assertRefused(answer, 400, -32600, "Bad Request: Mcp-Session-Id header is required");
        }
        try (RawHttp answer = endpoint.get(streamOf("s2"))) {
            assertRefused(answer, 404, -32001, "Session not found");
        }
        Map<String, String> old = streamOf("s1");
        old.put("MCP-Protocol-Version", "2024-01-01");
        try (RawHttp answer = endpoint.get(old)) {
            assertRefused(answer, 400, -32600, "Bad Request: unsupported protocol version 2024-01-01");
        }
    }

    /**
     * 2026-07-28 has no sessions: a GET or DELETE naming it is 405 whatever session id comes along, and the session
     * of that id (opened by an earlier revision's client) lives on.
     */
    @Test
    void aRevisionWithoutSessionsHasNoGetStreamAndNothingToDelete() throws Exception {
        endpoint.start();
        ScriptedEngine.Session session = endpoint.engine.open("s1", CallerIdentity.ANONYMOUS);
        Map<String, String> modern = streamOf("s1");
        modern.put("MCP-Protocol-Version", "2026-07-28");
        try (RawHttp answer = endpoint.get(modern)) {
            assertRefused(answer, 405, -32600,
                    "Method Not Allowed: GET serves protocol versions with sessions; 2026-07-28 has none, each of its requests is a POST");
            assertEquals("POST", answer.header("Allow"));
        }
        try (RawHttp answer = RawHttp.send(endpoint.port(), "DELETE", "/mcp", modern, null)) {
            assertRefused(answer, 405, -32600,
                    "Method Not Allowed: DELETE serves protocol versions with sessions; 2026-07-28 has none, each of its requests is a POST");
        }
        assertTrue(session.isOpen(), "the session named is not deleted");
        Map<String, String> older = new LinkedHashMap<>(modern);
        older.put("MCP-Protocol-Version", "2025-11-25");
        try (RawHttp answer = RawHttp.send(endpoint.port(), "DELETE", "/mcp", older, null)) {
            assertEquals(200, answer.status());
        }
        assertFalse(session.isOpen(), "a revision with sessions deletes it");
    }

    @Test
    void aGetStreamIsPrimedAndCarriesTheSessionsMessages() throws Exception {
        endpoint.start();
        ScriptedEngine.Session session = endpoint.engine.open("s1", CallerIdentity.ANONYMOUS);
        try (RawHttp stream = endpoint.get(streamOf("s1"))) {
            assertEquals(200, stream.status());
            assertEquals("text/event-stream;charset=utf-8", stream.header("Content-Type").replace(" ", "").toLowerCase());
            assertEquals("no-cache, no-transform", stream.header("Cache-Control"));
            assertEquals("id: g1-0\nretry: 3000\ndata: ", stream.nextEvent());
            MessageSink sink = session.nextAttached();
            sink.send(bytes(NOTE));
            assertEquals("id: g1-1\nevent: message\ndata: " + NOTE, stream.nextEvent());
            sink.complete(bytes("{\"jsonrpc\":\"2.0\",\"method\":\"bye\"}"));
            assertEquals("id: g1-2\nevent: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"bye\"}", stream.nextEvent());
            assertNull(stream.nextEvent(), "the session's sink completed: its stream ends");
        }
    }

    @Test
    void anIdleStreamIsKeptAliveWithACommentThatTakesNoEventId() throws Exception {
        endpoint.start();
        ScriptedEngine.Session session = endpoint.engine.open("s1", CallerIdentity.ANONYMOUS);
        ScheduledExecutorService ticker = Executors.newSingleThreadScheduledExecutor();
        try (RawHttp stream = endpoint.get(streamOf("s1"))) {
            assertEquals("id: g1-0\nretry: 3000\ndata: ", stream.nextEvent());
            // what the transport runs every sseKeepAliveMs
            ticker.scheduleWithFixedDelay(endpoint.servlet::keepAlive, 0, 20, TimeUnit.MILLISECONDS);
            assertEquals(": keep-alive", stream.nextEvent());
            ticker.shutdownNow();
            assertTrue(ticker.awaitTermination(10, TimeUnit.SECONDS));
            session.nextAttached().send(bytes(NOTE));
            String next = stream.nextEvent();
            while (next.equals(": keep-alive")) {
                next = stream.nextEvent();
            }
            assertEquals("id: g1-1\nevent: message\ndata: " + NOTE, next);
        } finally {
            ticker.shutdownNow();
        }
    }

    @Test
    void aClientThatResumesItsStreamGetsWhatItMissedAndWhatComesNext() throws Exception {
        endpoint.start();
        ScriptedEngine.Session session = endpoint.engine.open("s1", CallerIdentity.ANONYMOUS);
        MessageSink sink;
        try (RawHttp stream = endpoint.get(streamOf("s1"))) {
            stream.nextEvent();
            sink = session.nextAttached();
            sink.send(bytes("{\"n\":1}"));
            assertEquals("id: g1-1\nevent: message\ndata: {\"n\":1}", stream.nextEvent());
        }
        sink.send(bytes("{\"n\":2}")); // the client is gone: kept for it
        sink.send(bytes("{\"n\":3}"));
        Map<String, String> resume = streamOf("s1");
        resume.put("Last-Event-ID", "g1-1");
        try (RawHttp resumed = endpoint.get(resume)) {
            assertEquals(200, resumed.status());
            assertEquals("id: g1-2\nevent: message\ndata: {\"n\":2}", resumed.nextEvent(), "no priming: resumed");
            assertEquals("id: g1-3\nevent: message\ndata: {\"n\":3}", resumed.nextEvent());
            sink.send(bytes("{\"n\":4}"));
            assertEquals("id: g1-4\nevent: message\ndata: {\"n\":4}", resumed.nextEvent(), "and it stays attached");
        }
    }

    @Test
    void aLastEventIdThatNamesNoPlaceInAStreamOpensAFreshOne() throws Exception {
        endpoint.start();
        endpoint.engine.open("s1", CallerIdentity.ANONYMOUS);
        try (RawHttp stream = endpoint.get(streamOf("s1"))) {
            assertEquals("id: g1-0\nretry: 3000\ndata: ", stream.nextEvent());
        }
        String[] ids = {"g1-x", "g1", "-1", "g9-1"};
        for (int i = 0; i < ids.length; i++) {
            Map<String, String> resume = streamOf("s1");
            resume.put("Last-Event-ID", ids[i]);
            try (RawHttp stream = endpoint.get(resume)) {
                assertEquals(200, stream.status());
                assertEquals("id: g" + (i + 2) + "-0\nretry: 3000\ndata: ", stream.nextEvent(), ids[i]);
            }
        }
    }

    @Test
    void aNewGetReplacesTheStreamBeforeIt() throws Exception {
        endpoint.start();
        ScriptedEngine.Session session = endpoint.engine.open("s1", CallerIdentity.ANONYMOUS);
        try (RawHttp first = endpoint.get(streamOf("s1"))) {
            assertEquals("id: g1-0\nretry: 3000\ndata: ", first.nextEvent());
            MessageSink firstSink = session.nextAttached();
            try (RawHttp second = endpoint.get(streamOf("s1"))) {
                assertEquals("id: g2-0\nretry: 3000\ndata: ", second.nextEvent());
                assertNull(first.nextEvent(), "the stream before ends");
                firstSink.send(bytes("{\"stale\":true}"));
                session.nextAttached().send(bytes(NOTE));
                assertEquals("id: g2-1\nevent: message\ndata: " + NOTE, second.nextEvent());
            }
        }
    }

    /**
     * At the server's limit a session can still take its own stream over (its client believes it lost, the old
     * connection may be dead): the old one ends and the limit still holds for everyone else.
     */
    @Test
    void aSessionTakesItsOwnStreamOverAtTheServersLimit() throws Exception {
        endpoint.with("maxStreams", "1").start();
        ScriptedEngine.Session session = endpoint.engine.open("s1", CallerIdentity.ANONYMOUS);
        endpoint.engine.open("s2", CallerIdentity.ANONYMOUS);
        try (RawHttp first = endpoint.get(streamOf("s1"))) {
            first.nextEvent();
            try (RawHttp second = endpoint.get(streamOf("s1"))) {
                assertEquals(200, second.status(), "the session's own stream taken over at the limit");
                assertEquals("id: g2-0\nretry: 3000\ndata: ", second.nextEvent());
                assertNull(first.nextEvent(), "the stream before ends");
                try (RawHttp other = endpoint.get(streamOf("s2"))) {
                    assertRefused(other, 503, -32000,
                            "Service Unavailable: too many open streams (at most 1, 32 per session); try again later");
                }
                session.nextAttached();
                session.nextAttached().send(bytes(NOTE));
                assertEquals("id: g2-1\nevent: message\ndata: " + NOTE, second.nextEvent());
            }
        }
    }

    /**
     * Only a stream with a live connection is taken over in place: a session whose GET connection is gone gave its
     * place back, and a new GET of it needs a free place like anyone's (else sessions that drop their connections
     * and reopen them would hold more streams than the limit).
     */
    @Test
    void aSessionWhoseStreamIsGoneGetsNoPlacePastTheLimit() throws Exception {
        endpoint.with("maxStreams", "1").start();
        endpoint.engine.open("s1", CallerIdentity.ANONYMOUS);
        endpoint.engine.open("s2", CallerIdentity.ANONYMOUS);
        try (RawHttp first = endpoint.get(streamOf("s1"))) {
            first.nextEvent();
        } // the client closes it
        RawHttp other = null;
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (System.nanoTime() < deadline) {
            endpoint.servlet.keepAlive(); // what the transport runs every sseKeepAliveMs: a write finds it gone
            RawHttp attempt = endpoint.get(streamOf("s2"));
            if (attempt.status() == 200) {
                other = attempt;
                break;
            }
            attempt.close();
            Thread.sleep(50);
        }
        try (RawHttp held = other) {
            assertEquals(200, held == null ? 503 : held.status(), "the closed stream gave its place back");
            try (RawHttp again = endpoint.get(streamOf("s1"))) {
                assertRefused(again, 503, -32000,
                        "Service Unavailable: too many open streams (at most 1, 32 per session); try again later");
            }
        }
    }

    @Test
    void aDeletedSessionEndsItsStreamAndIsNotFoundAfterwards() throws Exception {
        endpoint.start();
        ScriptedEngine.Session session = endpoint.engine.open("s1", CallerIdentity.ANONYMOUS);
        try (RawHttp stream = endpoint.get(streamOf("s1"))) {
            stream.nextEvent();
            try (RawHttp deleted = RawHttp.send(endpoint.port(), "DELETE", "/mcp", Map.of("Mcp-Session-Id", "s1"), null)) {
                assertEquals(200, deleted.status());
            }
            assertFalse(session.isOpen());
            assertNull(stream.nextEvent(), "its stream ended");
        }
        try (RawHttp again = RawHttp.send(endpoint.port(), "DELETE", "/mcp", Map.of("Mcp-Session-Id", "s1"), null)) {
            assertRefused(again, 404, -32001, "Session not found");
        }
    }

    @Test
    void streamsBeyondTheServersLimitAre503UntilOneCloses() throws Exception {
        endpoint.with("maxStreams", "1").start();
        ScriptedEngine.Session one = endpoint.engine.open("s1", CallerIdentity.ANONYMOUS);
        endpoint.engine.open("s2", CallerIdentity.ANONYMOUS);
        try (RawHttp stream = endpoint.get(streamOf("s1"))) {
            stream.nextEvent();
            try (RawHttp refused = endpoint.get(streamOf("s2"))) {
                assertRefused(refused, 503, -32000,
                        "Service Unavailable: too many open streams (at most 1, 32 per session); try again later");
                assertEquals("5", refused.header("Retry-After"));
            }
            one.close();
            assertNull(stream.nextEvent());
        }
        try (RawHttp stream = endpoint.get(streamOf("s2"))) {
            assertEquals(200, stream.status(), "the closed stream gave its place back");
            assertEquals("id: g1-0\nretry: 3000\ndata: ", stream.nextEvent());
        }
    }

    @Test
    void aSessionsStreamedAnswersBeyondItsLimitAre503() throws Exception {
        endpoint.with("maxStreamsPerSession", "1").start();
        ScriptedEngine.Session session = endpoint.engine.open("s1", CallerIdentity.ANONYMOUS);
        ScriptedEngine.Scripted call = new ScriptedEngine.Scripted("tools/call", ScriptedEngine.SESSION, null);
        endpoint.engine.script = (message, inbound) -> new Receipt.Pending(session, call);
        try (RawHttp stream = endpoint.get(streamOf("s1"))) {
            stream.nextEvent();
            try (RawHttp refused = endpoint.post("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\"}",
                    Map.of("Mcp-Session-Id", "s1"))) {
                assertRefused(refused, 503, -32000,
                        "Service Unavailable: too many open streams (at most " + endpoint.servlet.status().maxStreams()
                                + ", 1 per session); try again later");
            }
            assertEquals(true, call.isAbandoned(), "the engine forgets the request it was not let serve");
        }
    }

    @Test
    void aResumingClientGetsOnlyTheEventsStillBuffered() throws Exception {
        endpoint.with("sseBufferEvents", "2").start();
        ScriptedEngine.Session session = endpoint.engine.open("s1", CallerIdentity.ANONYMOUS);
        MessageSink sink;
        try (RawHttp stream = endpoint.get(streamOf("s1"))) {
            stream.nextEvent();
            sink = session.nextAttached();
        }
        for (int n = 1; n <= 3; n++) {
            sink.send(bytes("{\"n\":" + n + "}"));
        }
        Map<String, String> resume = streamOf("s1");
        resume.put("Last-Event-ID", "g1-0");
        try (RawHttp resumed = endpoint.get(resume)) {
            assertEquals("id: g1-2\nevent: message\ndata: {\"n\":2}", resumed.nextEvent(), "the first was dropped");
            assertEquals("id: g1-3\nevent: message\ndata: {\"n\":3}", resumed.nextEvent());
        }
    }

    @Test
    void onlyTheLastFinishedStreamsAreKeptForResumption() throws Exception {
        endpoint.with("sseRetainedStreams", "1").start();
        ScriptedEngine.Session session = endpoint.engine.open("s1", CallerIdentity.ANONYMOUS);
        endpoint.engine.script = (message, inbound) -> new Receipt.Pending(session, new ScriptedEngine.Scripted(
                "tools/call", ScriptedEngine.SESSION, sink -> sink.complete(bytes("{\"id\":1}"))));
        for (String stream : new String[] {"p1", "p2"}) {
            try (RawHttp answer = endpoint.post("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\"}",
                    Map.of("Mcp-Session-Id", "s1"))) {
                assertEquals("id: " + stream + "-0\nretry: 3000\ndata: ", answer.nextEvent());
                assertEquals("id: " + stream + "-1\nevent: message\ndata: {\"id\":1}", answer.nextEvent());
                assertNull(answer.nextEvent(), "finished");
            }
        }
        Map<String, String> resume = streamOf("s1");
        resume.put("Last-Event-ID", "p2-0");
        try (RawHttp resumed = endpoint.get(resume)) {
            assertEquals("id: p2-1\nevent: message\ndata: {\"id\":1}", resumed.nextEvent(), "the last one is kept");
            assertNull(resumed.nextEvent());
        }
        resume.put("Last-Event-ID", "p1-0");
        try (RawHttp fresh = endpoint.get(resume)) {
            assertEquals("id: g3-0\nretry: 3000\ndata: ", fresh.nextEvent(), "the one before was let go: a new stream");
        }
    }

    @Test
    void aGetForASessionThatTakesNoStreamIsNotFoundAndHoldsNoPlace() throws Exception {
        endpoint.with("maxStreams", "1").start();
        endpoint.engine.open("s1", CallerIdentity.ANONYMOUS).attach(new MessageSink() { // another stream holds it
            @Override
            public void send(byte[] message) {
            }

            @Override
            public void complete(byte[] response) {
            }
        });
        endpoint.engine.open("s2", CallerIdentity.ANONYMOUS);
        try (RawHttp refused = endpoint.get(streamOf("s1"))) {
            assertRefused(refused, 404, -32001, "Session not found");
        }
        try (RawHttp stream = endpoint.get(streamOf("s2"))) {
            assertEquals(200, stream.status(), "the refused stream gave its place back");
        }
    }

    @Test
    void stoppingTheTransportEndsItsStreams() throws Exception {
        endpoint.start();
        endpoint.engine.open("s1", CallerIdentity.ANONYMOUS);
        endpoint.engine.script = (message, inbound) -> new Receipt.Pending(null, new ScriptedEngine.Scripted(
                "subscriptions/listen", ScriptedEngine.STATELESS, sink -> sink.send(bytes(NOTE))));
        try (RawHttp stream = endpoint.get(streamOf("s1"));
                RawHttp listen = endpoint.post("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"subscriptions/listen\"}")) {
            stream.nextEvent();
            listen.nextEvent();
            endpoint.servlet.closeAll();
            assertNull(stream.nextEvent(), "the session's stream ended");
            assertNull(listen.nextEvent(), "the listen stream ended");
        }
    }
}
