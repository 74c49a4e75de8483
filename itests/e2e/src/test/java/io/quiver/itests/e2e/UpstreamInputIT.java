package io.quiver.itests.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.spec.McpSchema;
import io.quiver.itests.client.McpClient;
import tools.jackson.databind.JsonNode;

/**
 * An upstream server's own questions asked of Quiver's caller: server-everything (pinned in
 * upstreams/package.json) asks with {@code elicitation/create} and {@code sampling/createMessage} while
 * its tool call is in flight, over stdio and over Streamable HTTP. Quiver's client declared both in
 * {@code initialize}, so server-everything offers the tools that ask; the questions reach a 2026-07-28
 * caller as {@code input_required}, its answers reach the upstream when it calls again, and the one
 * upstream call goes on to its result; a session caller (the official Java SDK client) is asked on its
 * call's own stream. A caller that cannot answer gets the upstream's request refused.
 */
class UpstreamInputIT {

    private static final Duration T = Duration.ofSeconds(30);
    private static final Path EVERYTHING = EverythingHttp.EVERYTHING;
    private static final String RUN = "--quiver-test-run=" + UUID.randomUUID();
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private static EverythingHttp everythingHttp;
    private static QuiverServer server;

    @BeforeAll
    static void start() throws Exception {
        // Quiver first, on its own (its start has a time limit); the servers are declared once it runs
        server = QuiverServer.start("upstream-input", "core,http,tools-default");
        everythingHttp = EverythingHttp.start(RUN);
        Map<String, Object> servers = new LinkedHashMap<>();
        servers.put("everything", Map.of("command", "node", "args", List.of(EVERYTHING.toString(), "stdio", RUN)));
        servers.put("everything-http", Map.of("type", "http", "url", everythingHttp.url()));
        Path temp = server.home().resolve("etc/.mcp-servers.json.tmp");
        Files.writeString(temp, McpClient.JSON.writeValueAsString(Map.of("mcpServers", servers)));
        Files.move(temp, server.home().resolve("etc/mcp-servers.json"), StandardCopyOption.ATOMIC_MOVE);
        try (McpClient client = McpClient.connect(server.url(), "upstream-input-it", T)) {
            long deadline = System.nanoTime() + T.toNanos();
            List<String> wanted = List.of("everything.trigger-elicitation-request", "everything-http.trigger-sampling-request");
            while (!client.toolNames().containsAll(wanted)) {
                assertTrue(System.nanoTime() < deadline, "tools " + wanted + " missing from " + client.toolNames()
                        + "\n" + server.log());
                Thread.sleep(100);
            }
        }
    }

    @AfterAll
    static void stop() throws Exception {
        try {
            if (server != null) {
                server.close();
            }
        } finally {
            if (everythingHttp != null) {
                everythingHttp.close();
            }
        }
    }

    @Test
    void anElicitationOfAStdioUpstreamIsAnsweredByTheCallerWithTheSchemasDefaultsFilledIn() throws Exception {
        JsonNode first = stateless("everything.trigger-elicitation-request", Map.of(), Map.of("elicitation", Map.of()), null, null);
        assertEquals("input_required", first.path("resultType").asString(), first.toString());
        Map.Entry<String, JsonNode> question = first.path("inputRequests").properties().iterator().next();
        assertTrue(question.getKey().startsWith("io.quiver/upstream/"), question.getKey());
        assertEquals("elicitation/create", question.getValue().path("method").asString());
        JsonNode params = question.getValue().path("params");
        assertEquals("Please provide inputs for the following fields:", params.path("message").asString(), first.toString());
        assertEquals("string", params.path("requestedSchema").path("properties").path("name").path("type").asString());

        JsonNode done = stateless("everything.trigger-elicitation-request", Map.of(), Map.of("elicitation", Map.of()),
                first.path("requestState").asString(), Map.of(question.getKey(), Map.of("action", "accept",
                        "content", Map.of("name", "Ada Lovelace", "check", true))));
        String text = texts(done);
        assertTrue(text.contains("- Name: Ada Lovelace") && text.contains("- Agreed to terms: true"), done.toString());
        assertTrue(text.contains("- Favorite Integer: 42") && text.contains("It was a dark and stormy night."),
                "what the user left out has the schema's default: " + done);
    }

    @Test
    void aSamplingRequestOfAnHttpUpstreamIsAnsweredByTheCaller() throws Exception {
        Map<String, Object> arguments = Map.of("prompt", "the capital of France", "maxTokens", 20);
        JsonNode first = stateless("everything-http.trigger-sampling-request", arguments, Map.of("sampling", Map.of()), null, null);
        assertEquals("input_required", first.path("resultType").asString(), first.toString());
        Map.Entry<String, JsonNode> question = first.path("inputRequests").properties().iterator().next();
        assertEquals("sampling/createMessage", question.getValue().path("method").asString(), first.toString());
        JsonNode params = question.getValue().path("params");
        assertEquals("Resource trigger-sampling-request context: the capital of France",
                params.path("messages").get(0).path("content").path("text").asString(), first.toString());
        assertEquals(20, params.path("maxTokens").asInt());

        JsonNode done = stateless("everything-http.trigger-sampling-request", arguments, Map.of("sampling", Map.of()),
                first.path("requestState").asString(), Map.of(question.getKey(), Map.of("role", "assistant",
                        "content", Map.of("type", "text", "text", "Paris, of course"), "model", "test-model",
                        "stopReason", "endTurn")));
        String text = texts(done);
        assertTrue(text.contains("Paris, of course") && text.contains("test-model"), done.toString());
    }

    @Test
    void aSessionCallerIsAskedOnItsCallsOwnStream() throws Exception {
        URI uri = URI.create(server.url());
        McpSyncClient sdk = io.modelcontextprotocol.client.McpClient.sync(HttpClientStreamableHttpTransport
                .builder(server.base()).endpoint(uri.getPath()).build())
                .requestTimeout(T)
                .capabilities(McpSchema.ClientCapabilities.builder().elicitation().build())
                .elicitation(request -> new McpSchema.ElicitResult(McpSchema.ElicitResult.Action.ACCEPT,
                        Map.of("name", "java-sdk " + request.message())))
                .build();
        try {
            sdk.initialize();
            McpSchema.CallToolResult result = sdk.callTool(new McpSchema.CallToolRequest(
                    "everything.trigger-elicitation-request", Map.of()));
            StringBuilder text = new StringBuilder();
            result.content().forEach(c -> text.append(((McpSchema.TextContent) c).text()).append('\n'));
            assertTrue(text.toString().contains("- Name: java-sdk Please provide inputs for the following fields:"),
                    text.toString());
            assertTrue(text.toString().contains("- Favorite Integer: 42"), text.toString());
        } finally {
            sdk.closeGracefully();
        }
    }

    @Test
    void aCallerThatCannotAnswerHasTheUpstreamsRequestRefusedAndGetsTheToolsError() throws Exception {
        try (McpClient client = McpClient.connect(server.url(), "no-elicitation", T)) {
            long start = System.nanoTime();
            JsonNode result = client.callTool("everything.trigger-elicitation-request", Map.of()).path("result");
            assertTrue(result.path("isError").asBoolean(), result.toString());
            assertTrue(Duration.ofNanos(System.nanoTime() - start).compareTo(Duration.ofSeconds(10)) < 0,
                    "refused at once, not left to time out");
        }
    }

    private static String texts(JsonNode result) {
        StringBuilder out = new StringBuilder();
        result.path("content").forEach(c -> out.append(c.path("text").asString("")).append('\n'));
        return out.toString();
    }

    /** A 2026-07-28 {@code tools/call}, and its retry with the answers when {@code requestState} is given. */
    private static JsonNode stateless(String tool, Map<String, Object> arguments, Map<String, Object> capabilities,
            String requestState, Map<String, Object> answers) throws Exception {
        Map<String, Object> meta = new LinkedHashMap<>();
        meta.put("io.modelcontextprotocol/protocolVersion", "2026-07-28");
        meta.put("io.modelcontextprotocol/clientCapabilities", capabilities);
        meta.put("io.modelcontextprotocol/clientInfo", Map.of("name", "upstream-input-it", "version", "1"));
        Map<String, Object> params = new LinkedHashMap<>();
        params.put("name", tool);
        params.put("arguments", arguments);
        params.put("_meta", meta);
        if (requestState != null) {
            params.put("requestState", requestState);
            params.put("inputResponses", answers);
        }
        HttpRequest request = HttpRequest.newBuilder(URI.create(server.url())).timeout(T)
                .header("Content-Type", "application/json").header("Accept", "application/json, text/event-stream")
                .header("MCP-Protocol-Version", "2026-07-28").header("Mcp-Method", "tools/call").header("Mcp-Name", tool)
                .POST(HttpRequest.BodyPublishers.ofString(McpClient.JSON.writeValueAsString(Map.of("jsonrpc", "2.0",
                        "id", 7, "method", "tools/call", "params", params)))).build();
        HttpResponse<String> response = HTTP.send(request, HttpResponse.BodyHandlers.ofString());
        assertEquals(200, response.statusCode(), response.body());
        JsonNode body = McpClient.JSON.readTree(response.body());
        assertTrue(body.has("result"), body.toString());
        return body.get("result");
    }
}
