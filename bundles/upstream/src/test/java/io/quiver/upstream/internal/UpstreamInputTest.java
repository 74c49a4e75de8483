package io.quiver.upstream.internal;

import static io.quiver.upstream.internal.FakeHttpUpstream.reply;
import static io.quiver.upstream.internal.FakeHttpUpstream.result;
import static io.quiver.upstream.internal.FakeHttpUpstream.write;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import com.sun.net.httpserver.HttpExchange;

import io.quiver.api.ClientInfo;
import io.quiver.api.Outcome;
import io.quiver.api.RequestContext;
import io.quiver.api.Tool;
import io.quiver.api.ToolCall;
import io.quiver.api.ToolResult;
import io.quiver.api.content.TextContent;
import io.quiver.api.input.InputRequest;
import io.quiver.api.input.InputResponse;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * An upstream's own questions reach the caller of the tool as input requests, and the caller's answers
 * reach the upstream: a session-era server asks with {@code elicitation/create} while the call is in
 * flight, a stateless one answers {@code input_required}. The upstream is a small Streamable HTTP server
 * of the test's own; the framework is a stand-in that keeps what is registered.
 */
class UpstreamInputTest {

    private final FakeFramework framework = new FakeFramework();
    private final Map<String, Tool> registered = framework.services(Tool.class);
    private List<JsonNode> received = List.of();
    private FakeHttpUpstream server;
    /** The elicitation answer the session-era server waits for. */
    private volatile CompletableFuture<JsonNode> answer = new CompletableFuture<>();

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void aSessionServersElicitationGoesToTheCallerAndItsAnswerBack() throws Exception {
        start(false);
        Tool tool = tool("up.ask");
        Outcome first = tool.call(call(Map.of(), true, "inv-1"));
        InputRequest.Elicitation asked = assertInstanceOf(InputRequest.Elicitation.class,
                assertInstanceOf(Outcome.NeedsInput.class, first).requests().get(0));
        assertTrue(asked.key().startsWith(Parking.PREFIX), asked.key());
        assertEquals("Your name?", asked.message());
        assertEquals("object", asked.requestedSchema().get("type"));

        Outcome done = tool.call(call(Map.of(asked.key(), new InputResponse.Elicited("accept", Map.of("name", "Ada"))), true,
                "inv-2"));
        assertEquals("hello Ada (3 times)", text(done), "the schema's default filled what the user left out");
        JsonNode call = received.stream().filter(m -> "tools/call".equals(m.path("method").asString(""))).findFirst()
                .orElseThrow();
        assertTrue(call.path("params").path("_meta").path(ProxyTool.CONTEXT_META).path("answers").isEmpty(),
                "the upstream's own questions are not Outcome answers");
        assertEquals(1, received.stream().filter(m -> "tools/call".equals(m.path("method").asString(""))).count(),
                "the call went on; it was not made again");
    }

    @Test
    void aStatelessCallersRetryAsksAgainWithoutCallingTheUpstreamAgain() throws Exception {
        start(false);
        Tool tool = tool("up.ask");
        // as the engine runs a 2026-07-28 caller: each request's first attempt has only the answers it had before
        InputRequest asked = assertInstanceOf(Outcome.NeedsInput.class, tool.call(call(Map.of(), true, "r1", "2026-07-28")))
                .requests().get(0);
        InputRequest again = assertInstanceOf(Outcome.NeedsInput.class, tool.call(call(Map.of(), true, "r2", "2026-07-28")))
                .requests().get(0);
        assertEquals(asked.key(), again.key(), "the retry's first attempt asks the same question under the same key");
        Outcome done = tool.call(call(Map.of(asked.key(), new InputResponse.Elicited("accept", Map.of("name", "Cy"))), true,
                "r2", "2026-07-28"));
        assertEquals("hello Cy (3 times)", text(done));
        assertEquals(1, received.stream().filter(m -> "tools/call".equals(m.path("method").asString(""))).count(),
                "one upstream call for the whole exchange");
    }

    @Test
    void aCallerThatCannotAnswerGetsTheUpstreamsRequestRefused() throws Exception {
        start(false);
        Outcome done = tool("up.ask").call(call(Map.of(), false, "inv-1"));
        assertEquals("refused: -32603", text(done));
    }

    @Test
    void answersForAnExchangeThatIsGoneAreRefusedAndNotSentAgain() throws Exception {
        start(false);
        String key = Parking.key(Parking.newHandle(), 1, "request-1");
        Outcome done = tool("up.ask").call(call(Map.of(key, new InputResponse.Elicited("accept", Map.of())), true, "inv-9"));
        ToolResult r = assertInstanceOf(Outcome.Done.class, done).result();
        assertTrue(r.isError() && text(done).contains("no longer waiting"), text(done));
        assertTrue(received.stream().noneMatch(m -> "tools/call".equals(m.path("method").asString(""))));
    }

    @Test
    void aStatelessServersInputRequiredGoesToTheCallerAndTheRetryCarriesTheAnswers() throws Exception {
        start(true);
        Tool tool = tool("up.ask");
        Outcome first = tool.call(call(Map.of(), true, "inv-1"));
        InputRequest.Elicitation asked = assertInstanceOf(InputRequest.Elicitation.class,
                assertInstanceOf(Outcome.NeedsInput.class, first).requests().get(0));
        JsonNode firstCall = received.get(received.size() - 1);
        assertTrue(firstCall.path("params").path("_meta").path(McpClient.META_CAPABILITIES).has("elicitation"),
                "the call declares what its caller can answer: " + firstCall);

        Outcome done = tool.call(call(Map.of(asked.key(), new InputResponse.Elicited("accept", Map.of("name", "Bo"))), true,
                "inv-2"));
        assertEquals("hello Bo (3 times)", text(done));
        JsonNode retry = received.get(received.size() - 1);
        assertEquals("state-1", retry.path("params").path("requestState").asString());
        assertEquals("Bo", retry.path("params").path("inputResponses").path("who").path("content").path("name").asString());

        Outcome refused = tool.call(call(Map.of(), false, "inv-3"));
        ToolResult r = assertInstanceOf(Outcome.Done.class, refused).result();
        assertTrue(r.isError() && text(refused).contains("did not declare the elicitation capability"), text(refused));
    }

    // --------------------------------------------------------------------------------------------

    private static String text(Outcome outcome) {
        return ((TextContent) assertInstanceOf(Outcome.Done.class, outcome).result().content().get(0)).text();
    }

    private Tool tool(String name) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!registered.containsKey(name) && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        Tool tool = registered.get(name);
        assertNotNull(tool, "registered: " + registered.keySet());
        return tool;
    }

    private void start(boolean stateless) throws IOException {
        server = FakeHttpUpstream.start((exchange, message) -> {
            if (stateless) {
                stateless(exchange, message);
            } else {
                session(exchange, message);
            }
        });
        received = server.received;
        server.upstream(framework, Map.of());
    }

    private static final String SCHEMA = "{\"type\": \"object\", \"properties\": {\"name\": {\"type\": \"string\"},"
            + " \"times\": {\"type\": \"integer\", \"default\": 3}}, \"required\": [\"name\"]}";

    private void session(HttpExchange exchange, JsonNode message) throws Exception {
        String method = message.path("method").asString("");
        switch (method) {
            case "server/discover" -> reply(exchange, 400, "{\"jsonrpc\": \"2.0\", \"id\": null, \"error\": {\"code\": -32000,"
                    + " \"message\": \"Bad Request: No valid session ID provided\"}}");
            case "initialize" -> result(exchange, message, "{\"protocolVersion\": \"2025-11-25\", \"capabilities\": {\"tools\": {}},"
                    + " \"serverInfo\": {\"name\": \"up\", \"version\": \"1\"}}");
            case "tools/list" -> result(exchange, message, "{\"tools\": [{\"name\": \"ask\", \"inputSchema\": {\"type\": \"object\"}}]}");
            case "tools/call" -> {
                exchange.getResponseHeaders().add("Content-Type", "text/event-stream");
                exchange.sendResponseHeaders(200, 0);
                OutputStream out = exchange.getResponseBody();
                answer = new CompletableFuture<>();
                write(out, "{\"jsonrpc\": \"2.0\", \"id\": \"e-1\", \"method\": \"elicitation/create\", \"params\":"
                        + " {\"message\": \"Your name?\", \"requestedSchema\": " + SCHEMA + "}}");
                JsonNode given = answer.get(10, TimeUnit.SECONDS);
                String text = given.has("error") ? "refused: " + given.path("error").path("code").asInt()
                        : "hello " + given.path("result").path("content").path("name").asString() + " ("
                                + given.path("result").path("content").path("times").asInt() + " times)";
                ObjectNode done = FakeConnection.JSON.createObjectNode().put("jsonrpc", "2.0");
                done.set("id", message.get("id"));
                done.putObject("result").putArray("content").addObject().put("type", "text").put("text", text);
                write(out, done.toString());
            }
            case "" -> {
                answer.complete(message);
                exchange.sendResponseHeaders(202, -1);
            }
            default -> exchange.sendResponseHeaders(202, -1);
        }
    }

    private void stateless(HttpExchange exchange, JsonNode message) throws Exception {
        JsonNode params = message.path("params");
        switch (message.path("method").asString("")) {
            case "server/discover" -> result(exchange, message, "{\"resultType\": \"complete\", \"supportedVersions\":"
                    + " [\"2026-07-28\"], \"capabilities\": {\"tools\": {}}, \"serverInfo\": {\"name\": \"up\", \"version\": \"1\"}}");
            case "tools/list" -> result(exchange, message, "{\"resultType\": \"complete\", \"tools\": [{\"name\": \"ask\","
                    + " \"inputSchema\": {\"type\": \"object\"}}]}");
            case "tools/call" -> {
                JsonNode who = params.path("inputResponses").path("who");
                if (who.isMissingNode() || !"state-1".equals(params.path("requestState").asString(""))) {
                    result(exchange, message, "{\"resultType\": \"input_required\", \"requestState\": \"state-1\","
                            + " \"inputRequests\": {\"who\": {\"method\": \"elicitation/create\", \"params\": {\"message\":"
                            + " \"Your name?\", \"requestedSchema\": " + SCHEMA + "}}}}");
                } else {
                    result(exchange, message, "{\"resultType\": \"complete\", \"content\": [{\"type\": \"text\", \"text\":"
                            + " \"hello " + who.path("content").path("name").asString() + " ("
                            + who.path("content").path("times").asInt() + " times)\"}]}");
                }
            }
            default -> reply(exchange, 404, "{\"jsonrpc\": \"2.0\", \"id\": null, \"error\": {\"code\": -32601,"
                    + " \"message\": \"Method not found\"}}");
        }
    }

    /** One attempt of a call as the engine makes it. */
    private static ToolCall call(Map<String, InputResponse> answers, boolean elicits, String invocation) {
        return call(answers, elicits, invocation, "2025-11-25");
    }

    private static ToolCall call(Map<String, InputResponse> answers, boolean elicits, String invocation, String revision) {
        ClientInfo client = new ClientInfo("test", "1", elicits ? Map.of("elicitation", Map.of()) : Map.of());
        RequestContext context = new FakeContext(invocation, client, revision, () -> false);
        return new ToolCall() {
            @Override
            public String name() {
                return "up.ask";
            }

            @Override
            public Map<String, Object> arguments() {
                return Map.of();
            }

            @Override
            public <T> T arguments(Class<T> type) {
                return FakeConnection.JSON.convertValue(arguments(), type);
            }

            @Override
            public Map<String, InputResponse> answers() {
                return answers;
            }

            @Override
            public RequestContext context() {
                return context;
            }
        };
    }
}
