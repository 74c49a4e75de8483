package io.quiver.core.internal.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import io.quiver.api.CallerIdentity;
import io.quiver.api.transport.Inbound;
import io.quiver.api.transport.MessageSink;
import io.quiver.api.transport.Receipt;
import io.quiver.core.internal.json.Json;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import tools.jackson.databind.JsonNode;

/**
 * A client of an {@link Engine} for the engine tests: it opens a 2025-11-25 session, sends requests in it,
 * in another session or in none, and reads each answer as the client would.
 */
final class SessionClient {

    private static final String INITIALIZE = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":"
            + "{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},"
            + "\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}";
    private static final String INITIALIZED = "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}";

    private final Engine engine;
    private final String sessionId;

    private SessionClient(Engine engine, String sessionId) {
        this.engine = engine;
        this.sessionId = sessionId;
    }

    /**
     * Opens a session on the engine: its initialize is answered with protocol version 2025-11-25, and the
     * notifications/initialized that follows is not rejected.
     */
    static SessionClient open(Engine engine) throws Exception {
        Receipt.Pending pending = assertInstanceOf(Receipt.Pending.class,
                engine.receive(bytes(INITIALIZE), inbound(null)));
        Answer init = new Answer();
        pending.exchange().start(init);
        assertEquals("2025-11-25", init.response().path("result").path("protocolVersion").asString());
        String sessionId = pending.session().id();
        assertFalse(engine.receive(bytes(INITIALIZED), inbound(sessionId)) instanceof Receipt.Rejected);
        return new SessionClient(engine, sessionId);
    }

    /** The id of the session this client opened. */
    String sessionId() {
        return sessionId;
    }

    /** Sends a request in this client's session. */
    Answer request(String message) {
        return requestIn(sessionId, message);
    }

    /**
     * Sends a request in the given session, or in none (null: a 2026-07-28 request). A request the engine
     * rejects at once is answered with the rejection's body.
     */
    Answer requestIn(String session, String message) {
        Receipt receipt = engine.receive(bytes(message), inbound(session));
        Answer answer = new Answer();
        if (receipt instanceof Receipt.Rejected rejected) {
            answer.complete(rejected.body());
            return answer;
        }
        assertInstanceOf(Receipt.Pending.class, receipt).exchange().start(answer);
        return answer;
    }

    private static Inbound inbound(String session) {
        return new Inbound(session, null, CallerIdentity.ANONYMOUS);
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    /** Collects the answer to one request. */
    static final class Answer implements MessageSink {
        private final CompletableFuture<byte[]> done = new CompletableFuture<>();

        @Override
        public void send(byte[] message) {
        }

        @Override
        public void complete(byte[] response) {
            done.complete(response);
        }

        /** The answer as the client reads it, waiting for it up to 10 seconds. */
        JsonNode response() throws Exception {
            byte[] body = done.get(10, TimeUnit.SECONDS);
            assertNotNull(body, "a response");
            return Json.MAPPER.readTree(body);
        }
    }
}
