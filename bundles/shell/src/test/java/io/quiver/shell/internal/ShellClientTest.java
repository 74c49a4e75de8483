package io.quiver.shell.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

class ShellClientTest {

    private final FakeEngine engine = new FakeEngine();

    private ShellClient client(Duration timeout) {
        return new ShellClient(engine, FakeEngine.JSON, timeout, "1.2.3");
    }

    @Test
    void aCallIsOneSessionInitializeInitializedCallThenClosed() throws Exception {
        ShellClient.Answer answer = client(Duration.ofSeconds(5)).call("greet", Map.of("name", "Ada"));

        assertEquals(List.of("initialize", "notifications/initialized", "tools/call"), engine.methods());
        JsonNode initialize = engine.received.get(0);
        assertEquals("2.0", initialize.path("jsonrpc").asString());
        assertEquals("2025-11-25", initialize.path("params").path("protocolVersion").asString());
        assertEquals("quiver-shell", initialize.path("params").path("clientInfo").path("name").asString());
        assertEquals("1.2.3", initialize.path("params").path("clientInfo").path("version").asString());
        assertTrue(initialize.path("params").path("capabilities").isObject());
        assertEquals(null, engine.inbounds.get(0).sessionId());

        JsonNode call = engine.received.get(2);
        assertEquals("greet", call.path("params").path("name").asString());
        assertEquals("Ada", call.path("params").path("arguments").path("name").asString());
        assertEquals("fake-session", engine.inbounds.get(2).sessionId());
        assertEquals("2025-11-25", engine.inbounds.get(2).protocolVersion());
        assertEquals("shell", engine.inbounds.get(2).caller().subject());

        assertEquals("ok", answer.response().path("result").path("content").path(0).path("text").asString());
        assertFalse(engine.session.isOpen(), "the session is closed after the call");
    }

    @Test
    void aCallInATenantAndProjectIsMadeThereAsTheOperator() throws Exception {
        new ShellClient(engine, FakeEngine.JSON, Duration.ofSeconds(5), "1.2.3",
                ShellClient.OPERATOR.in("acme", "showcase")).call("greet", Map.of());
        for (int i = 0; i < 3; i++) {
            assertEquals("acme", engine.inbounds.get(i).caller().tenant());
            assertEquals("showcase", engine.inbounds.get(i).caller().project());
            assertTrue(engine.inbounds.get(i).caller().roles().contains("admin"));
        }
    }

    @Test
    void serverRequestsAreRefusedAndLogMessagesKept() throws Exception {
        engine.onCall = (request, sink) -> {
            sink.send(FakeEngine.bytes("{\"jsonrpc\":\"2.0\",\"id\":\"s1\",\"method\":\"elicitation/create\",\"params\":{}}"));
            sink.send(FakeEngine.bytes("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\","
                    + "\"params\":{\"level\":\"warning\",\"data\":\"careful\"}}"));
            sink.send(FakeEngine.bytes("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{}}"));
            sink.complete(FakeEngine.bytes("{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{\"content\":[]}}"));
        };
        ShellClient.Answer answer = client(Duration.ofSeconds(5)).call("asks", Map.of());

        JsonNode refusal = engine.received.get(3);
        assertEquals("s1", refusal.path("id").asString());
        assertEquals(-32601, refusal.path("error").path("code").asInt());
        assertEquals(1, answer.logMessages().size());
        assertEquals("careful", answer.logMessages().get(0).path("data").asString());
    }

    @Test
    void noAnswerInTimeCancelsTheRequestAndClosesTheSession() {
        engine.onCall = (request, sink) -> {
            // never answers
        };
        ShellClient.CallFailed failed = assertThrows(ShellClient.CallFailed.class,
                () -> client(Duration.ofMillis(200)).call("stuck", Map.of()));
        assertTrue(failed.getMessage().contains("no answer within 200 ms"), failed.getMessage());
        JsonNode cancel = engine.received.get(engine.received.size() - 1);
        assertEquals("notifications/cancelled", cancel.path("method").asString());
        assertEquals(2, cancel.path("params").path("requestId").asInt());
        assertFalse(engine.session.isOpen());
    }

    @Test
    void aCancelledRequestWithoutResponseIsReported() {
        engine.onCall = (request, sink) -> sink.complete(null);
        ShellClient.CallFailed failed = assertThrows(ShellClient.CallFailed.class,
                () -> client(Duration.ofSeconds(5)).call("cancelled", Map.of()));
        assertTrue(failed.getMessage().contains("without a response"), failed.getMessage());
        assertFalse(engine.session.isOpen());
    }
}
