package io.quiver.core.internal.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quiver.api.Outcome;
import io.quiver.api.Tool;
import io.quiver.api.ToolResult;
import io.quiver.core.internal.catalog.Catalog;
import io.quiver.core.internal.pipeline.Extensions;
import io.quiver.core.internal.pipeline.ToolLimits;
import io.quiver.core.internal.pipeline.ToolLimitsRegistry;
import io.quiver.core.internal.settings.EngineSettings;
import io.quiver.core.internal.wiring.EngineAssembly;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * A tool's own {@code maxOutputBytes} ({@code etc/io.quiver.core.tool-<name>.cfg}, {@link ToolLimits})
 * bounds its results in place of the server's, smaller or larger, as the client reads them.
 */
class ToolOutputLimitTest {

    private static final AtomicLong SERVICE_IDS = new AtomicLong(6000);
    /** The server-wide limit. */
    private static final int SERVER = 64;
    private static final String SIXTEEN = "0123456789abcdef";
    private static final String HUNDRED = "x".repeat(100);

    private final Catalog catalog = new Catalog();
    private final ToolLimitsRegistry limits = new ToolLimitsRegistry();
    private EngineAssembly assembly;
    private SessionClient client;

    @BeforeEach
    void setUp() throws Exception {
        assembly = EngineAssembly.of(catalog, EngineSettings.of(Map.of("toolTimeoutMs", 5_000,
                "clientRequestTimeoutMs", 2_000, "maxOutputBytes", SERVER)), limits, new Extensions());
        client = SessionClient.open(assembly.engine());
    }

    @AfterEach
    void tearDown() {
        assembly.close();
    }

    @Test
    void aToolLimitSmallerThanTheServersCutsTheTextAtTheToolsLimit() throws Exception {
        register("tight", call -> Outcome.text(SIXTEEN));
        register("plain", call -> Outcome.text(SIXTEEN));
        limits.put(new ToolLimits("tight", 0, 0, 8));

        JsonNode cut = call(2, "tight");
        assertFalse(cut.path("isError").asBoolean(), cut.toString());
        assertEquals("01234567\n[output truncated: the tool's limit is 8 bytes]", text(cut));
        assertEquals(SIXTEEN, text(call(3, "plain")), "the same text is within the server's limit");
    }

    @Test
    void aToolLimitLargerThanTheServersLetsThroughWhatTheServersWouldCut() throws Exception {
        register("roomy", call -> Outcome.text(HUNDRED));
        register("plain", call -> Outcome.text(HUNDRED));
        limits.put(new ToolLimits("roomy", 0, 0, 1_000));

        assertEquals(HUNDRED, text(call(2, "roomy")));
        assertEquals("x".repeat(SERVER) + "\n[output truncated: the server's limit is " + SERVER + " bytes]",
                text(call(3, "plain")), "without a limit of its own, the server's applies");
    }

    @Test
    void structuredOutputIsRefusedAtTheToolsLimitAndLetThroughPastTheServersByALargerOne() throws Exception {
        ToolResult structured = ToolResult.structured(Map.of("data", SIXTEEN)); // 27 bytes of JSON
        register("tight", call -> Outcome.done(structured));
        register("plain", call -> Outcome.done(structured));
        limits.put(new ToolLimits("tight", 0, 0, 16));

        JsonNode refused = call(2, "tight");
        assertTrue(refused.path("isError").asBoolean(), refused.toString());
        assertFalse(refused.has("structuredContent"), refused.toString());
        assertEquals("The tool's structured output (27 bytes) exceeds the tool's output limit of 16 bytes.",
                text(refused));
        JsonNode whole = call(3, "plain");
        assertFalse(whole.path("isError").asBoolean(), whole.toString());
        assertEquals(SIXTEEN, whole.path("structuredContent").path("data").asString());

        ToolResult big = ToolResult.structured(Map.of("data", HUNDRED));
        register("roomy", call -> Outcome.done(big));
        register("bulky", call -> Outcome.done(big));
        limits.put(new ToolLimits("roomy", 0, 0, 1_000));
        JsonNode through = call(4, "roomy");
        assertFalse(through.path("isError").asBoolean(), through.toString());
        assertEquals(HUNDRED, through.path("structuredContent").path("data").asString());
        JsonNode stopped = call(5, "bulky");
        assertTrue(stopped.path("isError").asBoolean(), stopped.toString());
        assertTrue(text(stopped).contains("exceeds the server's output limit of " + SERVER + " bytes"), text(stopped));
    }

    @Test
    void aChangedOrRemovedToolLimitAppliesToTheNextCall() throws Exception {
        register("tool", call -> Outcome.text(HUNDRED));
        limits.put(new ToolLimits("tool", 0, 0, 10));
        assertEquals("x".repeat(10) + "\n[output truncated: the tool's limit is 10 bytes]", text(call(2, "tool")));
        limits.put(new ToolLimits("tool", 0, 0, 200));
        assertEquals(HUNDRED, text(call(3, "tool")));
        limits.remove("tool");
        assertEquals("x".repeat(SERVER) + "\n[output truncated: the server's limit is " + SERVER + " bytes]",
                text(call(4, "tool")));
        limits.put(new ToolLimits("tool", 0, 0, 0));
        assertTrue(text(call(5, "tool")).endsWith("the server's limit is " + SERVER + " bytes]"),
                "0 keeps the server's limit");
    }

    // -------------------------------------------------------------------------------------------

    private void register(String name, Tool tool) {
        Map<String, Object> props = new HashMap<>();
        props.put("mcp.tool.name", name);
        props.put("mcp.tool.description", "test tool " + name);
        props.put("service.id", SERVICE_IDS.incrementAndGet());
        catalog.bindTool(tool, props);
    }

    /** The result of calling a tool, as the client reads it. */
    private JsonNode call(int id, String name) throws Exception {
        JsonNode response = client.request("{\"jsonrpc\":\"2.0\",\"id\":" + id
                + ",\"method\":\"tools/call\",\"params\":{\"name\":\"" + name + "\",\"arguments\":{}}}").response();
        assertTrue(response.has("result"), response.toString());
        return response.path("result");
    }

    private static String text(JsonNode result) {
        assertEquals(1, result.path("content").size(), result.toString());
        return result.path("content").path(0).path("text").asString();
    }
}
