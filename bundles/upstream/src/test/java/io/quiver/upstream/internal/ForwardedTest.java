package io.quiver.upstream.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.Test;

import tools.jackson.databind.JsonNode;

/**
 * A server's question while it answers a forwarded prompt, read or completion is refused to it, and never
 * taken for the question of a tool call in flight beside it (over stdio a question names no request: it went to
 * the only request that asks, which may be another caller's call).
 */
class ForwardedTest {

    private final FakeConnection server = new FakeConnection(false);
    private final McpClient client = HandshakeTest.client(server);
    private final List<String> askedOfTheCall = new CopyOnWriteArrayList<>();

    @Test
    void aQuestionThatNamesNoRequestIsRefusedWhileAForwardedRequestIsInFlightBesideACall() throws Exception {
        client.session("2025-11-25");
        client.request("tools/call", FakeConnection.JSON.createObjectNode().put("name", "slow"), Map.of(),
                (id, method, params) -> askedOfTheCall.add(method));
        client.request("prompts/get", FakeConnection.JSON.createObjectNode().put("name", "greet"), Map.of(),
                Forwarded.refusing(client, "prompts/get"));
        server.next("tools/call");
        server.next("prompts/get");

        server.ask("q-1", "elicitation/create", "{\"message\": \"Whose call is this?\"}", null);
        JsonNode answer = server.next().message();
        assertEquals("q-1", answer.path("id").asString(), answer.toString());
        assertEquals(-32603, answer.path("error").path("code").asInt(), answer.toString());
        assertEquals(List.of(), askedOfTheCall, "the tool call's user was not asked");
    }

    @Test
    void aQuestionOnTheForwardedRequestsOwnStreamIsRefusedWithWhy() throws Exception {
        client.session("2025-11-25");
        McpClient.Request read = client.request("resources/read", FakeConnection.JSON.createObjectNode().put("uri", "a://1"),
                Map.of(), Forwarded.refusing(client, "resources/read"));
        server.next("resources/read");
        server.ask(7, "sampling/createMessage", "{\"messages\": [], \"maxTokens\": 5}",
                FakeConnection.JSON.valueToTree(read.id()));
        JsonNode answer = server.next().message();
        assertEquals(7, answer.path("id").asInt(), answer.toString());
        String why = answer.path("error").path("message").asString();
        assertTrue(why.contains("sampling/createMessage") && why.contains("resources/read"), why);
    }
}
