package io.quiver.itests.e2e;

import static io.quiver.itests.e2e.Batches.ids;
import static io.quiver.itests.e2e.Batches.messages;
import static io.quiver.itests.e2e.Batches.ping;
import static io.quiver.itests.e2e.Batches.post;
import static io.quiver.itests.e2e.Batches.witness;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quiver.itests.client.McpClient;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * JSON-RPC batches over Streamable HTTP, as the 2025-03-26 revision has them (a server MUST take them) and as no
 * other revision does: one launched server, plain HTTP over loopback, the witness tool as proof of what ran.
 */
class BatchIT {

    private static final String NOTE = "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/roots/list_changed\"}";

    private static QuiverServer server;
    private static Path witness;

    @BeforeAll
    static void start() throws Exception {
        server = QuiverServer.start("batch", "core,http,tools-default,conformance", home -> witness = Witness.install(home));
        String session = Batches.open(server.url(), "2025-03-26", Map.of());
        Await.until(() -> messages(post(server.url(), session, witness(1, "warm-up", 0), Map.of())).toString()
                .contains("witnessed"), Duration.ofSeconds(20), () -> "the witness tool:\n" + server.log());
    }

    @AfterAll
    static void stop() throws Exception {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void aBatchGetsOneArrayAsJsonOrEachResponseAsAnEventOfItsStream() throws Exception {
        String session = Batches.open(server.url(), "2025-03-26", Map.of());

        // requests that wait on nothing: one JSON array, in the batch's order; the notification has no answer
        HttpResponse<String> quick = post(server.url(), session, "[" + ping(1) + ",{\"jsonrpc\":\"2.0\",\"id\":2,"
                + "\"method\":\"tools/list\"}," + NOTE + "]", Map.of());
        assertEquals(200, quick.statusCode(), quick.body());
        assertTrue(quick.headers().firstValue("Content-Type").orElse("").startsWith("application/json"), quick.headers().map()::toString);
        JsonNode array = messages(quick).get(0);
        assertEquals(List.of(1, 2), ids(array), array::toString);
        assertTrue(array.get(1).path("result").path("tools").toString().contains("\"witness\""), array::toString);

        // a batch that calls tools is answered as calls are (sseMethods): on a stream whose progress comes as it
        // happens, then each response as an event of its own (SSE clients read one message per event), in order
        HttpResponse<String> calls = post(server.url(), session, "[" + witness(3, "batch-a", 0) + ","
                + "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"tools/call\",\"params\":{\"name\":\"test_tool_with_progress\","
                + "\"arguments\":{},\"_meta\":{\"progressToken\":\"p4\"}}}," + ping(5) + "]", Map.of());
        assertEquals(200, calls.statusCode(), calls.body());
        assertTrue(calls.headers().firstValue("Content-Type").orElse("").startsWith("text/event-stream"), calls.body());
        List<JsonNode> events = messages(calls);
        assertTrue(events.stream().allMatch(JsonNode::isObject), calls::body);
        List<JsonNode> responses = events.stream().filter(e -> !e.has("method")).toList();
        assertEquals(List.of(3, 4, 5), responses.stream().map(r -> r.path("id").asInt()).toList(), calls::body);
        assertEquals(responses, events.subList(events.size() - 3, events.size()), "the responses come last: " + calls.body());
        assertEquals("witnessed batch-a by anonymous", responses.get(0).path("result").path("content").path(0).path("text")
                .asString(), calls::body);
        assertTrue(events.stream().anyMatch(e -> "notifications/progress".equals(e.path("method").asString(null))
                && "p4".equals(e.path("params").path("progressToken").asString(null))), calls::body);
        assertTrue(Files.readString(witness).contains("batch-a by anonymous"));

        // sseMethods (tools/call) decides by any of the batch's methods, not only its first
        HttpResponse<String> later = post(server.url(), session, "[" + ping(6) + "," + witness(7, "batch-b", 0) + "]", Map.of());
        assertTrue(later.headers().firstValue("Content-Type").orElse("").startsWith("text/event-stream"), later.body());
        assertEquals(List.of(6, 7), Batches.ids(Batches.responses(later)), later.body());

        // nothing but notifications (and a response to nothing): 202 without a body
        HttpResponse<String> accepted = post(server.url(), session, "[" + NOTE + "," + NOTE
                + ",{\"jsonrpc\":\"2.0\",\"id\":\"none\",\"result\":{}}]", Map.of());
        assertEquals(202, accepted.statusCode(), accepted.body());
        assertEquals("", accepted.body());

        // nothing but refused elements: 400 with each element's error
        HttpResponse<String> refused = post(server.url(), session, "[1,{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":"
                + "\"initialize\",\"params\":{}}]", Map.of());
        assertEquals(400, refused.statusCode(), refused.body());
        JsonNode errors = messages(refused).get(0);
        assertEquals(2, errors.size(), errors::toString);
        assertTrue(errors.get(0).path("id").isNull() && errors.get(1).path("id").asInt() == 9, errors::toString);
        assertEquals(-32600, errors.get(1).path("error").path("code").asInt(), errors::toString);
    }

    @Test
    void theTypeScriptSdkV1TransportSendsBatchesAndReadsEveryAnswer() throws Exception {
        Path clientDir = TsClients.dir("@modelcontextprotocol/sdk");
        Path stderr = server.home().resolve("batch-client.stderr.log");
        Process client = new ProcessBuilder(TsClients.node().toString(), clientDir.resolve("batch-client.mjs").toString(),
                server.url()).directory(clientDir.toFile()).redirectError(stderr.toFile()).start();
        String out = new String(client.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(client.waitFor(60, TimeUnit.SECONDS), "the client did not end");
        String context = out + "\n--- stderr ---\n" + Files.readString(stderr) + "\n--- server ---\n" + server.log();
        assertEquals(0, client.exitValue(), context);
        Map<String, JsonNode> steps = new HashMap<>();
        for (String line : out.split("\n")) {
            if (line.startsWith("{")) {
                JsonNode step = McpClient.JSON.readTree(line);
                steps.put(step.path("step").asString(), step);
            }
        }
        assertEquals("2025-03-26", steps.get("initialized").path("protocolVersion").asString(), context);
        assertEquals("{}", steps.get("quick").path("ping").toString(), context);
        assertTrue(steps.get("quick").path("tools").asInt() > 3, context);
        assertEquals("This is a simple text response for testing.", steps.get("calls").path("simple").asString(), context);
        assertTrue(steps.get("calls").path("progressed").asBoolean(), context);
        assertTrue(steps.get("calls").path("progress").asInt() > 0, context);
        assertEquals(0, steps.get("errors").path("errors").size(), context);
    }

    @Test
    void aBatchOutsideA20250326SessionIsRefusedWholeAndNothingOfItRuns() throws Exception {
        String batch = "[" + witness(1, "refused-1", 0) + "," + witness(2, "refused-2", 0) + "]";
        String newer = Batches.open(server.url(), "2025-11-25", Map.of());
        assertRefused(post(server.url(), newer, batch, Map.of()), 400, "2025-11-25");
        String oldest = Batches.open(server.url(), "2024-11-05", Map.of());
        assertRefused(post(server.url(), oldest, batch, Map.of()), 400, "2024-11-05");
        assertRefused(post(server.url(), null, batch, Map.of()), 400, "2025-03-26");
        assertRefused(post(server.url(), null, "[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":"
                + "{\"protocolVersion\":\"2025-03-26\",\"capabilities\":{},\"clientInfo\":{\"name\":\"b\",\"version\":\"1\"}}}]",
                Map.of()), 400, "initialize");
        assertRefused(post(server.url(), "no-such-session", batch, Map.of()), 404, "Session not found");
        String session = Batches.open(server.url(), "2025-03-26", Map.of());
        assertRefused(post(server.url(), session, "[]", Map.of()), 400, "empty batch");
        StringBuilder many = new StringBuilder("[");
        for (int i = 1; i <= 33; i++) {
            many.append(i > 1 ? "," : "").append(witness(i, "refused-many-" + i, 0));
        }
        assertRefused(post(server.url(), session, many.append(']').toString(), Map.of()), 400, "at most 32");
        List<String> ran = Files.readAllLines(witness);
        assertTrue(ran.stream().noneMatch(l -> l.startsWith("refused-")), () -> "a call of a refused batch ran: " + ran);
        // the same calls, each alone, in the newer session: they run
        for (String call : List.of(witness(1, "alone-1", 0), witness(2, "alone-2", 0))) {
            assertTrue(messages(post(server.url(), newer, call, Map.of())).toString().contains("witnessed alone-"));
        }
    }

    private static void assertRefused(HttpResponse<String> r, int status, String says) {
        assertEquals(status, r.statusCode(), r.body());
        JsonNode error = messages(r).get(0);
        assertEquals(status == 404 ? -32001 : -32600, error.path("error").path("code").asInt(), r::body);
        assertTrue(error.path("error").path("message").asString().contains(says), r::body);
    }
}
