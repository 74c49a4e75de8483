package io.quiver.core.internal.era;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.quiver.api.ToolResult;
import io.quiver.core.internal.json.Json;
import io.quiver.core.internal.messages.CallToolResult;
import io.quiver.core.internal.messages.InputRequiredResult;
import io.quiver.core.internal.messages.ListenEnded;
import io.quiver.core.internal.messages.Lists;
import io.quiver.core.internal.messages.Result;
import io.quiver.core.internal.messages.ToolDescriptor;
import io.quiver.core.internal.settings.EngineConfig;
import io.quiver.core.internal.settings.EngineSettings;
import io.quiver.lib.config.TypedConfig;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.IntNode;
import tools.jackson.databind.node.StringNode;

/** What every stateless-era answer carries, written around the result's own properties. */
class StatelessResultTest {

    /** Refuses a key written twice in one object, which a lenient client would read silently. */
    private static final JsonMapper STRICT = JsonMapper.builder().enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .build();

    private final StatelessEra era = new StatelessEra(Map.of(), new EngineSettings(TypedConfig.of(EngineConfig.class,
            Map.of("serverName", "quiver-test", "listTtlMs", 5_000, "readTtlMs", 60_000, "cacheScope", "public")),
            "9.9.9"));

    private String write(String method, Result result) {
        return new String(era.response(IntNode.valueOf(7), method, "2026-07-28", result), StandardCharsets.UTF_8);
    }

    @Test
    void aTextResultIsItsPropertiesThenResultTypeThenTheServer() {
        assertEquals("{\"jsonrpc\":\"2.0\",\"id\":7,\"result\":{\"content\":[{\"type\":\"text\",\"text\":\"hi\"}],"
                + "\"isError\":false,\"resultType\":\"complete\",\"_meta\":{\"io.modelcontextprotocol/serverInfo\":"
                + "{\"name\":\"quiver-test\",\"version\":\"9.9.9\"}}}}",
                write("tools/call", CallToolResult.of(ToolResult.text("hi"), Json.MAPPER)));
    }

    @Test
    void theResultsOwnMetaIsMergedIntoOneMetaAndCannotPassForTheServer() {
        Map<String, Object> own = new LinkedHashMap<>();
        own.put("example.com/trace", "t-1");
        own.put("example.com/nothing", null);
        own.put("io.modelcontextprotocol/serverInfo", Map.of("name", "impostor"));
        CallToolResult result = new CallToolResult(CallToolResult.of(ToolResult.text("hi"), Json.MAPPER).content(),
                Map.of("n", 1), false, own);
        JsonNode written = STRICT.readTree(write("tools/call", result)).path("result");
        assertEquals(1, written.path("structuredContent").path("n").asInt(), written.toString());
        JsonNode meta = written.path("_meta");
        assertEquals(List.of("example.com/trace", "io.modelcontextprotocol/serverInfo"),
                List.copyOf(meta.propertyNames()), meta.toString());
        assertEquals("t-1", meta.path("example.com/trace").asString());
        assertEquals("quiver-test", meta.path("io.modelcontextprotocol/serverInfo").path("name").asString());
        assertEquals(own.get("example.com/trace"), result.meta().get("example.com/trace"), "the result is not changed");
    }

    @Test
    void aCompleteListCarriesCacheHintsAndAReadItsOwnTtl() {
        JsonNode list = STRICT.readTree(write("tools/list", new Lists.Tools(List.<ToolDescriptor>of(), "c2")))
                .path("result");
        assertEquals(List.of("tools", "nextCursor", "resultType", "_meta", "ttlMs", "cacheScope"),
                List.copyOf(list.propertyNames()));
        assertEquals(5_000, list.path("ttlMs").asInt());
        assertEquals("public", list.path("cacheScope").asString());
        assertEquals(60_000, STRICT.readTree(write("resources/read", new Lists.Tools(List.of(), null)))
                .path("result").path("ttlMs").asInt());
    }

    @Test
    void aCallAndAnInputRequestCarryNoCacheHints() {
        JsonNode call = STRICT.readTree(write("tools/call", CallToolResult.error("no"))).path("result");
        assertFalse(call.has("ttlMs") || call.has("cacheScope"), call.toString());
        JsonNode input = STRICT.readTree(write("tools/list", new InputRequiredResult(Map.of(), "state")))
                .path("result");
        assertEquals("input_required", input.path("resultType").asString());
        assertFalse(input.has("ttlMs") || input.has("cacheScope"), input.toString());
    }

    @Test
    void aMetaOnlyResultWritesItsMetaAlone() {
        JsonNode ended = STRICT.readTree(write("subscriptions/listen", new ListenEnded(StringNode.valueOf("s-1"))))
                .path("result");
        assertEquals(List.of("resultType", "_meta"), List.copyOf(ended.propertyNames()));
        assertEquals(2, ended.path("_meta").size(), ended.toString());
        assertEquals("quiver-test", ended.path("_meta").path("io.modelcontextprotocol/serverInfo").path("name")
                .asString());
    }
}
