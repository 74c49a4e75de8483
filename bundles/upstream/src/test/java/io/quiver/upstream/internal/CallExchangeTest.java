package io.quiver.upstream.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

class CallExchangeTest {

    private final FakeConnection server = new FakeConnection(true);
    private final McpClient client = HandshakeTest.client(server);

    private static ObjectNode params(String tool) {
        ObjectNode p = FakeConnection.JSON.createObjectNode().put("name", tool);
        p.putObject("arguments").put("a", 1);
        p.putObject("_meta").put("progressToken", "t-1");
        return p;
    }

    private CallExchange.Step next(CallExchange exchange) throws Exception {
        CallExchange.Step step = exchange.next(5, TimeUnit.SECONDS);
        if (step == null) {
            throw new AssertionError("nothing came");
        }
        return step;
    }

    private static JsonNode json(String text) {
        return FakeConnection.JSON.readTree(text);
    }

    @Test
    void inputRequiredIsAnsweredByCallingAgainWithTheAnswersAndTheStateAsGiven() throws Exception {
        client.stateless("2026-07-28");
        CallExchange exchange = new CallExchange(client, params("deploy"), Map.of("Mcp-Param-Region", "eu")).start();
        FakeConnection.Sent first = server.next("tools/call");
        assertEquals(Map.of("Mcp-Param-Region", "eu"), first.headers());
        server.result(first, """
                {"resultType": "input_required", "requestState": "opaque+state/==",
                 "inputRequests": {"confirm": {"method": "elicitation/create", "params": {"message": "Sure?",
                    "requestedSchema": {"type": "object", "properties": {
                        "ok": {"type": "boolean", "default": true}, "note": {"type": "string"}}}}},
                   "model": {"method": "sampling/createMessage", "params": {"messages": [], "maxTokens": 5}}}}""");
        CallExchange.Step.Asks asks = assertInstanceOf(CallExchange.Step.Asks.class, next(exchange));
        assertEquals(List.of("confirm", "model"), asks.questions().stream().map(CallExchange.Question::key).toList());
        assertEquals("elicitation/create", asks.questions().get(0).method());
        assertEquals("Sure?", asks.questions().get(0).params().path("message").asString());
        assertTrue(exchange.roundBased());

        exchange.answer(Map.of("confirm", json("{\"action\": \"accept\", \"content\": {\"note\": \"n\"}}"),
                "model", json("{\"role\": \"assistant\", \"content\": {\"type\": \"text\", \"text\": \"x\"}, \"model\": \"m\"}")));
        FakeConnection.Sent retry = server.next("tools/call");
        assertNotEquals(first.id().asLong(), retry.id().asLong(), "a retry is a new request");
        assertEquals("opaque+state/==", retry.params().path("requestState").asString(), "the state exactly as given");
        assertEquals("deploy", retry.params().path("name").asString());
        assertEquals(1, retry.params().path("arguments").path("a").asInt(), "the same params");
        assertEquals(Map.of("Mcp-Param-Region", "eu"), retry.headers());
        assertEquals(json("{\"ok\": true, \"note\": \"n\"}"), retry.params().path("inputResponses").path("confirm").path("content"),
                "what the user left out takes the schema's default");
        assertEquals("m", retry.params().path("inputResponses").path("model").path("model").asString());
        assertEquals("2026-07-28", retry.params().path("_meta").path(McpClient.META_VERSION).asString());

        server.result(retry, "{\"resultType\": \"complete\", \"content\": [{\"type\": \"text\", \"text\": \"done\"}]}");
        CallExchange.Step.Done done = assertInstanceOf(CallExchange.Step.Done.class, next(exchange));
        assertEquals("done", done.result().path("content").get(0).path("text").asString());
    }

    @Test
    void withoutStateTheRetryCarriesNoneAndAStateOnlyRoundIsRetriedAtOnce() throws Exception {
        client.stateless("2026-07-28");
        CallExchange exchange = new CallExchange(client, params("t"), Map.of()).start();
        server.result(server.next("tools/call"), """
                {"resultType": "input_required", "inputRequests": {"r": {"method": "roots/list", "params": {}}}}""");
        assertInstanceOf(CallExchange.Step.Asks.class, next(exchange));
        exchange.answer(Map.of("r", json("{\"roots\": []}")));
        FakeConnection.Sent retry = server.next("tools/call");
        assertFalse(retry.params().has("requestState"));
        server.result(retry, "{\"resultType\": \"input_required\", \"requestState\": \"load-shed\"}");
        assertNull(exchange.next(300, TimeUnit.MILLISECONDS), "retried at once, nothing to ask");
        FakeConnection.Sent again = server.next("tools/call");
        assertEquals("load-shed", again.params().path("requestState").asString());
        assertFalse(again.params().has("inputResponses"), "nothing was asked, nothing is answered");
        server.result(again, "{\"content\": []}");
        assertInstanceOf(CallExchange.Step.Done.class, next(exchange), "no resultType is a complete result");
    }

    @Test
    void aSessionServersRequestsDuringTheCallAreItsQuestions() throws Exception {
        client.session("2025-11-25");
        CallExchange exchange = new CallExchange(client, params("ask"), Map.of()).start();
        FakeConnection.Sent call = server.next("tools/call");
        server.ask(77, "elicitation/create", """
                {"message": "Name?", "requestedSchema": {"type": "object", "properties": {
                    "name": {"type": "string", "default": "Ada"}, "age": {"type": "integer", "default": 36}}}}""", call.id());
        CallExchange.Step.Asks asks = assertInstanceOf(CallExchange.Step.Asks.class, next(exchange));
        CallExchange.Question q = asks.questions().get(0);
        assertEquals("Name?", q.params().path("message").asString());
        assertFalse(exchange.roundBased());
        exchange.answer(Map.of(q.key(), json("{\"action\": \"accept\", \"content\": {\"age\": 7}}")));
        FakeConnection.Sent response = server.next();
        assertEquals(77, response.id().asInt());
        assertEquals(json("{\"action\": \"accept\", \"content\": {\"age\": 7, \"name\": \"Ada\"}}"), response.message().get("result"));

        server.ask("s-1", "sampling/createMessage", "{\"messages\": [], \"maxTokens\": 3}", null);
        CallExchange.Question sampling = ((CallExchange.Step.Asks) next(exchange)).questions().get(0);
        assertEquals("sampling/createMessage", sampling.method(), "with one call in flight a stdio request is its");
        exchange.refuse(sampling.key(), -32603, "no");
        FakeConnection.Sent refused = server.next();
        assertEquals("s-1", refused.id().asString());
        assertEquals(-32603, refused.message().path("error").path("code").asInt());

        server.result(call, "{\"content\": [{\"type\": \"text\", \"text\": \"hello Ada\"}]}");
        assertInstanceOf(CallExchange.Step.Done.class, next(exchange));
    }

    @Test
    void requestsThatBelongToNoCallAreRefusedAndPingIsAnswered() throws Exception {
        client.session("2025-11-25");
        server.ask(1, "ping", "{}", null);
        assertTrue(server.next().message().path("result").isObject());
        server.ask(2, "elicitation/create", "{\"message\": \"m\", \"requestedSchema\": {}}", null);
        assertEquals(-32603, server.next().message().path("error").path("code").asInt(), "declared, but no call to ask through");
        server.ask(3, "roots/list", "{}", null);
        assertEquals(-32601, server.next().message().path("error").path("code").asInt(), "roots are not declared");
        server.ask(4, "tasks/get", "{}", null);
        assertEquals(-32601, server.next().message().path("error").path("code").asInt());

        new CallExchange(client, params("one"), Map.of()).start();
        new CallExchange(client, params("two"), Map.of()).start();
        server.next("tools/call");
        server.next("tools/call");
        server.ask(5, "elicitation/create", "{\"message\": \"m\", \"requestedSchema\": {}}", null);
        assertEquals(-32603, server.next().message().path("error").path("code").asInt(),
                "two calls in flight and nothing says which one asks");
    }

    @Test
    void cancellingClosesTheStreamInTheStatelessRevisionAndNotifiesInASessionOne() throws Exception {
        client.stateless("2026-07-28");
        CallExchange exchange = new CallExchange(client, params("slow"), Map.of()).start();
        FakeConnection.Sent call = server.next("tools/call");
        exchange.cancel("enough");
        assertEquals(call.id().asLong(), server.abandoned.asLong());
        assertNull(server.sent.poll(200, TimeUnit.MILLISECONDS), "closing the stream is the cancellation");

        FakeConnection stdio = new FakeConnection(false);
        McpClient session = HandshakeTest.client(stdio);
        session.session("2025-11-25");
        CallExchange other = new CallExchange(session, params("slow"), Map.of()).start();
        FakeConnection.Sent sent = stdio.next("tools/call");
        stdio.ask(9, "elicitation/create", "{\"message\": \"m\", \"requestedSchema\": {}}", sent.id());
        assertInstanceOf(CallExchange.Step.Asks.class, next(other));
        other.cancel("enough");
        FakeConnection.Sent cancelled = stdio.next();
        assertEquals("notifications/cancelled", cancelled.method());
        assertEquals(sent.id().asLong(), cancelled.params().path("requestId").asLong());
        FakeConnection.Sent refusal = stdio.next();
        assertEquals(9, refusal.id().asInt(), "the question still open is refused");
    }
}
