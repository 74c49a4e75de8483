package io.quiver.transport.http.internal;

import static io.quiver.transport.http.internal.ScriptedEngine.bytes;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quiver.api.CallerIdentity;
import io.quiver.api.transport.MessageSink;
import io.quiver.api.transport.Receipt;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * How the answer to a POSTed request reaches its client: plain JSON when the response comes first, an SSE stream
 * (event ids, a priming event, one event per message) once anything comes before it or when the method streams
 * from the start, the new session's id for an initialize. Served by the servlet in a real Jetty, over loopback.
 */
class PostAnswerTest {

    private static final String NOTE = "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\"}";
    private static final String RESULT = "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}";
    /** An exchange that sends a notification, then its response. */
    private static final Consumer<MessageSink> NOTE_THEN_RESULT = sink -> {
        sink.send(bytes(NOTE));
        sink.complete(bytes(RESULT));
    };

    private final LiveEndpoint endpoint = new LiveEndpoint();

    @AfterEach
    void stop() throws Exception {
        endpoint.close();
    }

    /** The engine answers every request in session {@code s1} with an exchange of {@code method} doing {@code work}. */
    private void answer(String method, Consumer<MessageSink> work) {
        ScriptedEngine.Session session = endpoint.engine.open("s1", CallerIdentity.ANONYMOUS);
        endpoint.engine.script = (message, inbound) -> new Receipt.Pending(session,
                new ScriptedEngine.Scripted(method, ScriptedEngine.SESSION, work));
    }

    private RawHttp postInSession() throws Exception {
        return endpoint.post("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"x\"}", Map.of("Mcp-Session-Id", "s1"));
    }

    @Test
    void aResponseThatComesFirstIsPlainJsonAndNoneIs204() throws Exception {
        endpoint.start();
        answer("ping", sink -> sink.complete(bytes(RESULT)));
        try (RawHttp answer = postInSession()) {
            assertEquals(200, answer.status());
            assertEquals("application/json", answer.header("Content-Type"));
            assertEquals(RESULT, answer.body());
        }
        answer("ping", sink -> sink.complete(null));
        try (RawHttp answer = postInSession()) {
            assertEquals(204, answer.status());
            assertEquals("", answer.body());
        }
    }

    @Test
    void aMessageBeforeTheResponseTurnsTheAnswerIntoAPrimedEventStream() throws Exception {
        endpoint.with("sseRetryMs", "1234").start();
        answer("ping", NOTE_THEN_RESULT);
        try (RawHttp answer = postInSession()) {
            assertEquals(200, answer.status());
            assertEquals("text/event-stream;charset=utf-8", answer.header("Content-Type").replace(" ", "").toLowerCase());
            assertEquals("no-cache, no-transform", answer.header("Cache-Control"));
            assertEquals("no", answer.header("X-Accel-Buffering"));
            assertEquals("id: p1-0\nretry: 1234\ndata: ", answer.nextEvent(), "the priming event");
            assertEquals("id: p1-1\nevent: message\ndata: " + NOTE, answer.nextEvent());
            assertEquals("id: p1-2\nevent: message\ndata: " + RESULT, answer.nextEvent());
            assertNull(answer.nextEvent(), "the stream ends with the response");
        }
    }

    /**
     * A request outside a session (the 2026-07-28 revision) streams its answer without event ids: that revision has no
     * resumption, and an id would invite a {@code Last-Event-ID} nothing answers.
     */
    @Test
    void aStatelessAnswerStreamsWithoutEventIds() throws Exception {
        endpoint.start();
        endpoint.engine.script = (message, inbound) -> new Receipt.Pending(null, new ScriptedEngine.Scripted(
                "tools/call", ScriptedEngine.STATELESS, NOTE_THEN_RESULT));
        try (RawHttp answer = endpoint.post("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\"}")) {
            assertEquals(200, answer.status());
            assertEquals("text/event-stream;charset=utf-8", answer.header("Content-Type").replace(" ", "").toLowerCase());
            assertEquals("event: message\ndata: " + NOTE, answer.nextEvent(), "no priming event, no id");
            assertEquals("event: message\ndata: " + RESULT, answer.nextEvent());
            assertNull(answer.nextEvent(), "the stream ends with the response");
        }
    }

    @Test
    void aToolCallStreamsFromTheStartAndABatchAnswersWithOneEventPerResponse() throws Exception {
        endpoint.start();
        answer("tools/call", sink -> sink.complete(bytes("[{\"id\":1,\"result\":{}}, {\"id\":2,\"result\":{}}]")));
        try (RawHttp answer = postInSession()) {
            assertEquals(200, answer.status());
            assertEquals("id: p1-0\nretry: 3000\ndata: ", answer.nextEvent());
            assertEquals("id: p1-1\nevent: message\ndata: {\"id\":1,\"result\":{}}", answer.nextEvent());
            assertEquals("id: p1-2\nevent: message\ndata: {\"id\":2,\"result\":{}}", answer.nextEvent());
            assertNull(answer.nextEvent());
        }
    }

    @Test
    void anInitializeIsToldItsNewSessionAndItsStreamIsNotPrimed() throws Exception {
        endpoint.start();
        ScriptedEngine.Session created = endpoint.engine.open("s-new", CallerIdentity.ANONYMOUS);
        endpoint.engine.script = (message, inbound) -> new Receipt.Pending(created,
                new ScriptedEngine.Scripted("initialize", ScriptedEngine.SESSION, NOTE_THEN_RESULT));
        try (RawHttp answer = endpoint.post("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\"}")) {
            assertEquals(200, answer.status());
            assertEquals("s-new", answer.header("Mcp-Session-Id"));
            assertEquals("id: p1-1\nevent: message\ndata: " + NOTE, answer.nextEvent(), "no priming event first");
            assertEquals("id: p1-2\nevent: message\ndata: " + RESULT, answer.nextEvent());
        }
    }

    @Test
    void anInitializeWhoseSessionTheEngineClosedIsNotToldIt() throws Exception {
        endpoint.start();
        ScriptedEngine.Session created = endpoint.engine.open("s-failed", CallerIdentity.ANONYMOUS);
        endpoint.engine.script = (message, inbound) -> new Receipt.Pending(created,
                new ScriptedEngine.Scripted("initialize", ScriptedEngine.SESSION, sink -> {
                    created.close();
                    sink.complete(bytes("{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":-32602}}"));
                }));
        try (RawHttp answer = endpoint.post("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\"}")) {
            assertEquals(200, answer.status());
            assertNull(answer.header("Mcp-Session-Id"));
        }
    }

    @Test
    void anExchangeTheEngineFailsBeforeStreamingTakesTheStatusOfItsReason() throws Exception {
        endpoint.start();
        byte[] error = bytes("{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":-32602,\"message\":\"bad _meta\"}}");
        answer("ping", sink -> sink.fail(Receipt.Reason.INVALID_META, error));
        try (RawHttp answer = postInSession()) {
            assertEquals(400, answer.status());
            assertEquals(new String(error), answer.body());
        }
        answer("ping", sink -> {
            sink.send(bytes(NOTE));
            sink.fail(Receipt.Reason.INVALID_META, error);
        });
        try (RawHttp answer = postInSession()) {
            assertEquals(200, answer.status(), "streaming already: the error is the stream's last event");
            assertEquals("id: p1-0\nretry: 3000\ndata: ", answer.nextEvent());
            answer.nextEvent();
            assertEquals("id: p1-2\nevent: message\ndata: " + new String(error), answer.nextEvent());
            assertNull(answer.nextEvent());
        }
    }

    @Test
    void aStreamHungUpForPollingIsResumedWithTheRestOfItsEvents() throws Exception {
        endpoint.with("ssePollingMs", "1").start();
        ScriptedEngine.Scripted[] exchange = new ScriptedEngine.Scripted[1];
        ScriptedEngine.Session session = endpoint.engine.open("s1", CallerIdentity.ANONYMOUS);
        endpoint.engine.script = (message, inbound) -> new Receipt.Pending(session,
                exchange[0] = new ScriptedEngine.Scripted("tools/call", ScriptedEngine.SESSION, null));
        try (RawHttp answer = postInSession()) {
            assertEquals("id: p1-0\nretry: 3000\ndata: ", answer.nextEvent());
            assertNull(answer.nextEvent(), "the server closed the stream while the call goes on");
        }
        MessageSink sink = exchange[0].sink();
        sink.send(bytes(NOTE));
        sink.complete(bytes(RESULT));
        try (RawHttp resumed = endpoint.get(Map.of("Accept", "text/event-stream", "Mcp-Session-Id", "s1",
                "Last-Event-ID", "p1-0"))) {
            assertEquals(200, resumed.status());
            assertEquals("id: p1-1\nevent: message\ndata: " + NOTE, resumed.nextEvent());
            assertEquals("id: p1-2\nevent: message\ndata: " + RESULT, resumed.nextEvent());
            assertNull(resumed.nextEvent(), "the stream was over: the resumed one ends too");
        }
        try (RawHttp resumed = endpoint.get(Map.of("Accept", "text/event-stream", "Mcp-Session-Id", "s1",
                "Last-Event-ID", "p1-1"))) {
            assertEquals("id: p1-2\nevent: message\ndata: " + RESULT, resumed.nextEvent(), "only what came after");
            assertNull(resumed.nextEvent());
        }
    }

    @Test
    void aMessageTheEngineTakesOnlyOnAThreadThatMayWaitIsAnswered() throws Exception {
        endpoint.start();
        endpoint.engine.receivesNow = false;
        answer("ping", sink -> sink.complete(bytes(RESULT)));
        try (RawHttp answer = postInSession()) {
            assertEquals(200, answer.status());
            assertEquals(RESULT, answer.body());
        }
    }

    /**
     * A stateless listen stream stays open, so it counts against {@code maxStreams}: beyond it a listen is 503 (and
     * the engine forgets it); one answered at once, without a stream, gives its place back.
     */
    @Test
    void listenStreamsAreCountedAgainstTheServersStreams() throws Exception {
        endpoint.with("maxStreams", "1").start();
        String listen = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"subscriptions/listen\"}";
        endpoint.engine.script = (message, inbound) -> new Receipt.Pending(null, new ScriptedEngine.Scripted(
                "subscriptions/listen", ScriptedEngine.STATELESS, sink -> sink.complete(bytes(RESULT))));
        try (RawHttp answered = endpoint.post(listen)) {
            assertEquals(200, answered.status());
            assertEquals(RESULT, answered.body());
        }
        endpoint.engine.script = (message, inbound) -> new Receipt.Pending(null, new ScriptedEngine.Scripted(
                "subscriptions/listen", ScriptedEngine.STATELESS, sink -> sink.send(bytes(NOTE))));
        try (RawHttp listening = endpoint.post(listen)) {
            assertEquals(200, listening.status(), "the listen answered at once holds no place");
            assertEquals("event: message\ndata: " + NOTE, listening.nextEvent(), "no event id: not resumable");
            ScriptedEngine.Scripted refused = new ScriptedEngine.Scripted("subscriptions/listen",
                    ScriptedEngine.STATELESS, null);
            endpoint.engine.script = (message, inbound) -> new Receipt.Pending(null, refused);
            try (RawHttp answer = endpoint.post(listen)) {
                assertEquals(503, answer.status());
                assertEquals("{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":-32000,\"message\":\"Service Unavailable: "
                        + "too many open streams (at most 1, 32 per session); try again later\"}}", answer.body(),
                        "the refusal answers the request by its id");
                assertEquals("5", answer.header("Retry-After"));
            }
            assertTrue(refused.isAbandoned(), "the engine forgets the listen it was not let serve");
        }
    }

    @Test
    void aStreamIsNotHungUpWhilePollingIsOff() throws Exception {
        endpoint.start();
        ScriptedEngine.Session session = endpoint.engine.open("s1", CallerIdentity.ANONYMOUS);
        ScriptedEngine.Scripted call = new ScriptedEngine.Scripted("tools/call", ScriptedEngine.SESSION, null);
        endpoint.engine.script = (message, inbound) -> new Receipt.Pending(session, call);
        try (RawHttp answer = postInSession()) {
            assertEquals("id: p1-0\nretry: 3000\ndata: ", answer.nextEvent());
            MessageSink sink = call.sink();
            sink.send(bytes(NOTE));
            sink.complete(bytes(RESULT));
            assertEquals("id: p1-1\nevent: message\ndata: " + NOTE, answer.nextEvent(), "on the same connection");
            assertEquals("id: p1-2\nevent: message\ndata: " + RESULT, answer.nextEvent());
        }
    }
}
