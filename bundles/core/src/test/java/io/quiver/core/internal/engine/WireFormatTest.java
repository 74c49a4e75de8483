package io.quiver.core.internal.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quiver.api.CallerIdentity;
import io.quiver.api.Outcome;
import io.quiver.api.ProtocolError;
import io.quiver.api.Tool;
import io.quiver.api.ToolResult;
import io.quiver.api.call.Decision;
import io.quiver.api.completion.Completer;
import io.quiver.api.completion.Completion;
import io.quiver.api.content.AudioContent;
import io.quiver.api.content.Content;
import io.quiver.api.content.EmbeddedResource;
import io.quiver.api.content.Icon;
import io.quiver.api.content.ImageContent;
import io.quiver.api.content.ResourceContents;
import io.quiver.api.content.ResourceLink;
import io.quiver.api.content.TextContent;
import io.quiver.api.input.InputRequest;
import io.quiver.api.input.InputResponse;
import io.quiver.api.prompt.Prompt;
import io.quiver.api.prompt.PromptArgument;
import io.quiver.api.prompt.PromptMessage;
import io.quiver.api.prompt.PromptRequest;
import io.quiver.api.prompt.PromptResult;
import io.quiver.api.resource.Resource;
import io.quiver.api.resource.ResourceTemplate;
import io.quiver.api.transport.Inbound;
import io.quiver.api.transport.McpSession;
import io.quiver.api.transport.MessageSink;
import io.quiver.api.transport.Receipt;
import io.quiver.core.internal.catalog.Catalog;
import io.quiver.core.internal.json.Json;
import io.quiver.core.internal.pipeline.Extensions;
import io.quiver.core.internal.pipeline.ToolLimitsRegistry;
import io.quiver.core.internal.settings.EngineSettings;
import io.quiver.core.internal.wiring.EngineAssembly;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The wire format, method by method and revision by revision, against golden JSON files in
 * {@code src/test/resources/golden/<revision>/}: a change of what clients receive is a visible diff.
 * Run with {@code -Dgolden.update=true} to rewrite the files after an intended change. Values that
 * differ from run to run (request state, task ids, times) are masked.
 */
class WireFormatTest {

    private final Extensions extensions = new Extensions();

    private static final boolean UPDATE = Boolean.getBoolean("golden.update");
    private static final String META = "\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
            + "\"io.modelcontextprotocol/clientCapabilities\":{\"elicitation\":{},\"extensions\":"
            + "{\"io.modelcontextprotocol/tasks\":{}}},\"io.modelcontextprotocol/clientInfo\":{\"name\":\"golden\","
            + "\"version\":\"1\"}}";

    private final Catalog catalog = new Catalog();
    private EngineAssembly assembly;
    private long serviceId = 3000;

    @BeforeEach
    void setUp() {
        assembly = EngineAssembly.of(catalog, EngineSettings.of(Map.of("instructions", "Use the tools.",
                "listTtlMs", 60_000, "readTtlMs", 5_000, "cacheScope", "public",
                "requestStateKeys", List.of("a-signing-key-of-at-least-32-characters"))), new ToolLimitsRegistry(),
                extensions);
        register(Tool.class, "mcp.tool.", "echo", Map.of("mcp.tool.title", "Echo",
                "mcp.tool.description", "Says it back",
                "mcp.tool.inputSchema", "{\"type\":\"object\",\"properties\":{\"text\":{\"type\":\"string\"}}}",
                "mcp.tool.outputSchema", "{\"type\":\"object\",\"properties\":{\"said\":{\"type\":\"string\"}}}",
                "mcp.tool.readOnlyHint", true, "mcp.tool.icons", new String[] {"https://example.com/echo.png"}),
                (Tool) call -> Outcome.done(new ToolResult(List.of(new TextContent("said " + call.arguments().get("text"))),
                        Map.of("said", call.arguments().get("text")), false, Map.of())));
        register(Tool.class, "mcp.tool.", "mixed", Map.of("mcp.tool.description", "Every kind of content"),
                (Tool) call -> Outcome.done(new ToolResult(List.of(new TextContent("text"),
                        new ImageContent("aW1n", "image/png", null, Map.of("ui", Map.of("width", 16))),
                        new AudioContent("YXVk", "audio/wav"),
                        new ResourceLink("test://static", "static", "Static", null, "text/plain", 5L, null, null,
                                List.of(new Icon("https://example.com/static.png", "image/png", List.of("48x48"), "dark"))),
                        new EmbeddedResource(new ResourceContents.Text("test://static", "text/plain", "hello",
                                Map.of("etag", "1")), null, Map.of("block", "embedded"))), null, false,
                        Map.of("origin", "golden"))));
        register(Tool.class, "mcp.tool.", "failing", Map.of("mcp.tool.description", "Reports a failure"),
                (Tool) call -> Outcome.done(ToolResult.error("it went wrong")));
        register(Tool.class, "mcp.tool.", "asking", Map.of("mcp.tool.description", "Asks for a name"),
                (Tool) call -> {
                    Optional<InputResponse> answer = call.answer("who");
                    if (answer.isPresent() && answer.get() instanceof InputResponse.Elicited e && e.accepted()) {
                        return Outcome.text("Hello, " + e.content().get("name"));
                    }
                    return Outcome.needsInput(new InputRequest.Elicitation("who", "Your name?",
                            Map.of("type", "object", "properties", Map.of("name", Map.of("type", "string")))));
                });
        register(Tool.class, "mcp.tool.", "long_job", Map.of("mcp.tool.description", "A task tool",
                "mcp.tool.taskSupport", "optional"), (Tool) call -> Outcome.text("done"));
        register(Resource.class, "mcp.resource.", "test://static", Map.of("mcp.resource.name", "static",
                "mcp.resource.mimeType", "text/plain", "mcp.resource.description", "A fixed text", "mcp.resource.icons",
                new String[] {"{\"src\":\"https://example.com/static.svg\",\"mimeType\":\"image/svg+xml\",\"sizes\":[\"any\"]}"}),
                (Resource) request -> List.of(new ResourceContents.Text("test://static", "text/plain", "hello")));
        register(ResourceTemplate.class, "mcp.template.", "test://items/{id}",
                Map.of("mcp.template.name", "item", "mcp.template.mimeType", "application/json", "mcp.template.icons",
                        "https://example.com/item.png"),
                (ResourceTemplate) request -> List.of(new ResourceContents.Text(request.uri(), "application/json",
                        "{\"id\":\"" + request.variables().get("id") + "\"}")));
        register(Prompt.class, "mcp.prompt.", "greeting", Map.of("mcp.prompt.description", "Greets", "mcp.prompt.icons",
                new String[] {"https://example.com/greeting.png", "{\"src\":\"https://example.com/greeting-dark.png\","
                        + "\"theme\":\"dark\"}"}), new Prompt() {
            @Override
            public List<PromptArgument> arguments() {
                return List.of(new PromptArgument("name", "The name", true));
            }

            @Override
            public PromptResult get(PromptRequest request) {
                return new PromptResult("A greeting", List.of(new PromptMessage("user",
                        new TextContent("Greet " + request.arguments().get("name"))), new PromptMessage("user",
                        new ResourceLink("test://static", "static", "text/plain"))));
            }
        });
        register(Completer.class, "mcp.completion.", null, Map.of("mcp.completion.refType", "ref/prompt",
                "mcp.completion.ref", "greeting"), (Completer) request -> new Completion(List.of("Ada", "Alan"), 2, false));
    }

    @AfterEach
    void tearDown() {
        assembly.close();
    }

    @ParameterizedTest
    @ValueSource(strings = {"2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"})
    void sessionEra(String revision) throws Exception {
        Recorder init = start(null, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\""
                + revision + "\",\"capabilities\":{},\"clientInfo\":{\"name\":\"golden\",\"version\":\"1\"}}}");
        String session = init.session;
        golden(revision, "initialize", init.json());
        golden(revision, "ping", request(session, "ping", "{}"));
        golden(revision, "tools-list", request(session, "tools/list", "{}"));
        golden(revision, "tools-call", request(session, "tools/call", "{\"name\":\"echo\",\"arguments\":{\"text\":\"hi\"}}"));
        golden(revision, "tools-call-content", request(session, "tools/call", "{\"name\":\"mixed\"}"));
        golden(revision, "tools-call-error", request(session, "tools/call", "{\"name\":\"failing\"}"));
        golden(revision, "tools-call-unknown", request(session, "tools/call", "{\"name\":\"nope\"}"));
        golden(revision, "resources-list", request(session, "resources/list", "{}"));
        golden(revision, "resources-templates-list", request(session, "resources/templates/list", "{}"));
        golden(revision, "resources-read", request(session, "resources/read", "{\"uri\":\"test://items/7\"}"));
        golden(revision, "resources-read-missing", request(session, "resources/read", "{\"uri\":\"test://nothing\"}"));
        golden(revision, "prompts-list", request(session, "prompts/list", "{}"));
        golden(revision, "prompts-get", request(session, "prompts/get", "{\"name\":\"greeting\",\"arguments\":{\"name\":\"Ada\"}}"));
        golden(revision, "completion-complete", request(session, "completion/complete",
                "{\"ref\":{\"type\":\"ref/prompt\",\"name\":\"greeting\"},\"argument\":{\"name\":\"name\",\"value\":\"A\"}}"));
        golden(revision, "logging-setLevel", request(session, "logging/setLevel", "{\"level\":\"info\"}"));
        golden(revision, "resources-subscribe", request(session, "resources/subscribe", "{\"uri\":\"test://static\"}"));
    }

    @Test
    void statelessEra() throws Exception {
        String revision = "2026-07-28";
        golden(revision, "server-discover", stateless("server/discover", "{" + META + "}"));
        golden(revision, "tools-list", stateless("tools/list", "{" + META + "}"));
        golden(revision, "tools-call", stateless("tools/call", "{\"name\":\"echo\",\"arguments\":{\"text\":\"hi\"}," + META + "}"));
        golden(revision, "tools-call-content", stateless("tools/call", "{\"name\":\"mixed\"," + META + "}"));
        golden(revision, "tools-call-error", stateless("tools/call", "{\"name\":\"failing\"," + META + "}"));
        golden(revision, "tools-call-unknown", stateless("tools/call", "{\"name\":\"nope\"," + META + "}"));
        JsonNode asked = stateless("tools/call", "{\"name\":\"asking\"," + META + "}");
        golden(revision, "tools-call-input-required", asked);
        String state = asked.path("result").path("requestState").asString();
        golden(revision, "tools-call-answered", stateless("tools/call", "{\"name\":\"asking\",\"requestState\":\"" + state
                + "\",\"inputResponses\":{\"who\":{\"action\":\"accept\",\"content\":{\"name\":\"Ada\"}}}," + META + "}"));
        JsonNode task = stateless("tools/call", "{\"name\":\"long_job\"," + META + "}");
        golden(revision, "tools-call-task", task);
        golden(revision, "resources-list", stateless("resources/list", "{" + META + "}"));
        golden(revision, "resources-templates-list", stateless("resources/templates/list", "{" + META + "}"));
        golden(revision, "resources-read", stateless("resources/read", "{\"uri\":\"test://items/7\"," + META + "}"));
        golden(revision, "resources-read-missing", stateless("resources/read", "{\"uri\":\"test://nothing\"," + META + "}"));
        golden(revision, "prompts-list", stateless("prompts/list", "{" + META + "}"));
        golden(revision, "prompts-get", stateless("prompts/get", "{\"name\":\"greeting\",\"arguments\":{\"name\":\"Ada\"},"
                + META + "}"));
        golden(revision, "completion-complete", stateless("completion/complete",
                "{\"ref\":{\"type\":\"ref/prompt\",\"name\":\"greeting\"},\"argument\":{\"name\":\"name\",\"value\":\"A\"},"
                        + META + "}"));
        Recorder listen = start(null, message(9, "subscriptions/listen",
                "{\"notifications\":{\"toolsListChanged\":true}," + META + "}"));
        golden(revision, "subscriptions-listen-acknowledged", Json.MAPPER.readTree(listen.firstInterim.get(5, TimeUnit.SECONDS)));
        assembly.engine().drain();
        golden(revision, "subscriptions-listen-end", listen.json());
    }

    @Test
    void aPolicyHidesWhatItDeniesFromEveryListAndEveryUseAsIfItWereNotThere() throws Exception {
        extensions.addPolicy((caller, target) -> target.name().equals("echo") ? Decision.allow()
                : Decision.deny("only echo"), 0, 1);
        assertEquals(List.of("echo"), names(stateless("tools/list", "{" + META + "}").path("result").path("tools")));
        assertEquals(0, stateless("resources/list", "{" + META + "}").path("result").path("resources").size());
        assertEquals(0, stateless("resources/templates/list", "{" + META + "}").path("result")
                .path("resourceTemplates").size());
        assertEquals(0, stateless("prompts/list", "{" + META + "}").path("result").path("prompts").size());

        // a hidden prompt, resource, template or tool answers exactly as one that does not exist
        assertSameError(stateless("prompts/get", "{\"name\":\"greeting\",\"arguments\":{\"name\":\"A\"}," + META + "}"),
                stateless("prompts/get", "{\"name\":\"nothing\",\"arguments\":{\"name\":\"A\"}," + META + "}"), "greeting", "nothing");
        assertSameError(stateless("resources/read", "{\"uri\":\"test://static\"," + META + "}"),
                stateless("resources/read", "{\"uri\":\"test://nothing\"," + META + "}"), "test://static", "test://nothing");
        assertSameError(stateless("resources/read", "{\"uri\":\"test://items/7\"," + META + "}"),
                stateless("resources/read", "{\"uri\":\"test://other/7\"," + META + "}"), "test://items/7", "test://other/7");
        assertSameError(stateless("tools/call", "{\"name\":\"mixed\"," + META + "}"),
                stateless("tools/call", "{\"name\":\"nope\"," + META + "}"), "mixed", "nope");
        JsonNode completion = stateless("completion/complete", "{\"ref\":{\"type\":\"ref/prompt\",\"name\":\"greeting\"},"
                + "\"argument\":{\"name\":\"name\",\"value\":\"A\"}," + META + "}");
        assertEquals(0, completion.path("result").path("completion").path("values").size(), completion.toString());

        JsonNode echo = stateless("tools/call", "{\"name\":\"echo\",\"arguments\":{\"text\":\"hi\"}," + META + "}");
        assertEquals("said hi", echo.path("result").path("content").path(0).path("text").asString());
    }

    private static List<String> names(JsonNode items) {
        return items.valueStream().map(i -> i.path("name").asString()).toList();
    }

    /** The same error, word for word once the names are swapped. */
    private static void assertSameError(JsonNode hidden, JsonNode missing, String hiddenName, String missingName) {
        assertTrue(hidden.has("error"), hidden.toString());
        assertEquals(missing.toString(), hidden.toString().replace(hiddenName, missingName));
    }

    @Test
    void aPromptResourceOrCompleterThatRefusesIsAnsweredWithItsOwnCodeAndMessage() throws Exception {
        register(Prompt.class, "mcp.prompt.", "refusing", Map.of(), (Prompt) request -> {
            throw new ProtocolError(-32602, "No such city: " + request.arguments().get("city"));
        });
        register(ResourceTemplate.class, "mcp.template.", "test://refusing/{x}", Map.of("mcp.template.name", "refusing"),
                (ResourceTemplate) request -> {
                    throw new ProtocolError(-32001, "Not yours: " + request.variables().get("x"));
                });
        JsonNode prompt = stateless("prompts/get", "{\"name\":\"refusing\",\"arguments\":{\"city\":\"Atlantis\"}," + META + "}");
        assertEquals(-32602, prompt.path("error").path("code").asInt(), prompt.toString());
        assertEquals("No such city: Atlantis", prompt.path("error").path("message").asString(), prompt.toString());
        JsonNode read = stateless("resources/read", "{\"uri\":\"test://refusing/7\"," + META + "}");
        assertEquals(-32001, read.path("error").path("code").asInt(), read.toString());
        assertEquals("Not yours: 7", read.path("error").path("message").asString(), read.toString());
        register(Completer.class, "mcp.completion.", null, Map.of("mcp.completion.refType", "ref/prompt",
                "mcp.completion.ref", "refusing"), (Completer) request -> {
                    throw new ProtocolError(-32602, "Unknown argument: " + request.argument());
                });
        JsonNode completion = stateless("completion/complete", "{\"ref\":{\"type\":\"ref/prompt\",\"name\":\"refusing\"},"
                + "\"argument\":{\"name\":\"planet\",\"value\":\"M\"}," + META + "}");
        assertEquals(-32602, completion.path("error").path("code").asInt(), completion.toString());
        assertEquals("Unknown argument: planet", completion.path("error").path("message").asString(), completion.toString());
    }

    // -------------------------------------------------------------------------------------------

    @Test
    void aBlocksMetaIsReadAndWrittenAsUnderscoreMeta() throws Exception {
        String wire = "{\"type\":\"resource\",\"resource\":{\"uri\":\"test://a\",\"text\":\"a\",\"_meta\":{\"etag\":\"7\"}},"
                + "\"_meta\":{\"n\":1,\"nested\":{\"x\":null}}}";
        Content read = Json.MAPPER.readValue(wire, Content.class);
        EmbeddedResource embedded = assertInstanceOf(EmbeddedResource.class, read);
        assertEquals(1, ((Number) embedded.meta().get("n")).intValue());
        assertEquals("7", embedded.resource().meta().get("etag"));
        assertEquals(Json.MAPPER.readTree(wire), Json.MAPPER.valueToTree(read), "written back as it was read");
        JsonNode plain = Json.MAPPER.valueToTree(new TextContent("no meta"));
        assertEquals("{\"type\":\"text\",\"text\":\"no meta\"}", plain.toString(), "no _meta when there is none");
    }

    private void golden(String revision, String name, JsonNode actual) throws IOException {
        JsonNode masked = mask(actual.deepCopy());
        String resource = "/golden/" + revision + "/" + name + ".json";
        if (UPDATE) {
            Path file = Path.of("src/test/resources").resolve(resource.substring(1));
            Files.createDirectories(file.getParent());
            Files.writeString(file, Json.MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(masked) + "\n");
            return;
        }
        try (InputStream in = WireFormatTest.class.getResourceAsStream(resource)) {
            assertNotNull(in, resource + " is missing: run with -Dgolden.update=true to write it");
            JsonNode expected = Json.MAPPER.readTree(in);
            assertEquals(expected, masked, revision + " " + name + ": the wire format changed\nexpected: "
                    + expected + "\nactual:   " + masked);
        }
    }

    /** Replaces the values that change from run to run. */
    private static JsonNode mask(JsonNode node) {
        if (node instanceof ObjectNode object) {
            for (String field : List.of("requestState", "taskId", "createdAt", "lastUpdatedAt")) {
                if (object.has(field)) {
                    object.put(field, "<" + field + ">");
                }
            }
            object.properties().forEach(e -> mask(e.getValue()));
        } else if (node.isArray()) {
            node.forEach(WireFormatTest::mask);
        }
        return node;
    }

    private JsonNode request(String session, String method, String params) throws Exception {
        return start(session, message((int) (serviceId++ % 100_000), method, params)).json();
    }

    private JsonNode stateless(String method, String params) throws Exception {
        return start(null, message(7, method, params)).json();
    }

    private static String message(int id, String method, String params) {
        return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"" + method + "\",\"params\":" + params + "}";
    }

    private Recorder start(String session, String message) {
        Receipt receipt = assembly.engine().receive(message.getBytes(StandardCharsets.UTF_8),
                new Inbound(session, null, CallerIdentity.ANONYMOUS));
        Recorder recorder = new Recorder();
        if (receipt instanceof Receipt.Rejected rejected) {
            recorder.done.complete(rejected.body());
            return recorder;
        }
        Receipt.Pending pending = assertInstanceOf(Receipt.Pending.class, receipt);
        recorder.session = Optional.ofNullable(pending.session()).map(McpSession::id).orElse(session);
        pending.exchange().start(recorder);
        return recorder;
    }

    private <S> void register(Class<S> type, String prefix, String key, Map<String, Object> properties, Object service) {
        Map<String, Object> props = new HashMap<>(properties);
        if (key != null) {
            props.put(prefix + (type == Tool.class ? "name" : type == Prompt.class ? "name"
                    : type == Resource.class ? "uri" : "uriTemplate"), key);
        }
        props.put("service.id", ++serviceId);
        if (type == Tool.class) {
            catalog.bindTool((Tool) service, props);
        } else if (type == Resource.class) {
            catalog.bindResource((Resource) service, props);
        } else if (type == ResourceTemplate.class) {
            catalog.bindTemplate((ResourceTemplate) service, props);
        } else if (type == Prompt.class) {
            catalog.bindPrompt((Prompt) service, props);
        } else {
            catalog.bindCompleter((Completer) service, props);
        }
    }

    private static final class Recorder implements MessageSink {
        final CompletableFuture<byte[]> done = new CompletableFuture<>();
        final CompletableFuture<byte[]> firstInterim = new CompletableFuture<>();
        volatile String session;

        @Override
        public void send(byte[] message) {
            firstInterim.complete(message);
        }

        @Override
        public void complete(byte[] response) {
            done.complete(response);
        }

        JsonNode json() throws Exception {
            byte[] body = done.get(10, TimeUnit.SECONDS);
            assertNotNull(body);
            return Json.MAPPER.readTree(new String(body, StandardCharsets.UTF_8));
        }
    }
}
