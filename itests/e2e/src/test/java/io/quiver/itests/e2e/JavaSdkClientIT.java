package io.quiver.itests.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.spec.McpSchema;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The official MCP Java SDK client, a third-party peer, over Streamable HTTP. */
class JavaSdkClientIT {

    private static QuiverServer server;
    private static McpSyncClient client;

    @BeforeAll
    static void connect() throws Exception {
        server = QuiverServer.start("java-sdk", "core,http,tools-default,conformance");
        URI uri = URI.create(server.url());
        HttpClientStreamableHttpTransport transport = HttpClientStreamableHttpTransport
                .builder(server.base())
                .endpoint(uri.getPath())
                .build();
        client = McpClient.sync(transport)
                .requestTimeout(Duration.ofSeconds(20))
                .capabilities(McpSchema.ClientCapabilities.builder().elicitation().build())
                .elicitation(request -> new McpSchema.ElicitResult(McpSchema.ElicitResult.Action.ACCEPT,
                        Map.of("username", "java-sdk", "email", "sdk@example.com")))
                .build();
        McpSchema.InitializeResult init = client.initialize();
        assertEquals("quiver", init.serverInfo().name());
    }

    @AfterAll
    static void close() throws Exception {
        if (client != null) {
            client.closeGracefully();
        }
        server.close();
    }

    @Test
    void listsTheDefaultAndFixtureTools() {
        List<String> names = client.listTools().tools().stream().map(McpSchema.Tool::name).toList();
        assertTrue(names.contains("current_time"), names.toString());
        assertTrue(names.contains("test_simple_text"), names.toString());
        assertEquals(names.stream().sorted().toList(), names, "tools come in name order");
    }

    @Test
    void callsATool() {
        McpSchema.CallToolResult result = client.callTool(new McpSchema.CallToolRequest("test_simple_text", Map.of()));
        assertFalse(Boolean.TRUE.equals(result.isError()));
        McpSchema.TextContent text = assertInstanceOf(McpSchema.TextContent.class, result.content().get(0));
        assertEquals("This is a simple text response for testing.", text.text());
    }

    @Test
    void callsAToolWithStructuredOutput() {
        McpSchema.CallToolResult result = client.callTool(
                new McpSchema.CallToolRequest("current_time", Map.of("timezone", "Europe/Berlin")));
        assertFalse(Boolean.TRUE.equals(result.isError()), result.toString());
        assertTrue(result.structuredContent().toString().contains("Europe/Berlin"), result.toString());
    }

    @Test
    void answersAnElicitationDuringACall() {
        McpSchema.CallToolResult result = client.callTool(new McpSchema.CallToolRequest("test_elicitation",
                Map.of("message", "Who are you?")));
        McpSchema.TextContent text = assertInstanceOf(McpSchema.TextContent.class, result.content().get(0));
        assertTrue(text.text().contains("java-sdk"), text.text());
    }

    @Test
    void readsAResource() {
        McpSchema.ReadResourceResult result = client.readResource(new McpSchema.ReadResourceRequest("test://static-text"));
        McpSchema.TextResourceContents contents = assertInstanceOf(McpSchema.TextResourceContents.class,
                result.contents().get(0));
        assertEquals("This is the content of the static text resource.", contents.text());
        assertEquals("text/plain", contents.mimeType());
    }

    @Test
    void getsAPrompt() {
        McpSchema.GetPromptResult result = client.getPrompt(new McpSchema.GetPromptRequest("test_prompt_with_arguments",
                Map.of("arg1", "alpha", "arg2", "beta")));
        McpSchema.TextContent text = assertInstanceOf(McpSchema.TextContent.class, result.messages().get(0).content());
        assertTrue(text.text().contains("alpha") && text.text().contains("beta"), text.text());
    }
}
