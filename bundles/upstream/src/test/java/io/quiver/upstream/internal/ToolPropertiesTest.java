package io.quiver.upstream.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.util.Hashtable;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.quiver.lib.config.TypedConfig;
import tools.jackson.databind.json.JsonMapper;

class ToolPropertiesTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @Test
    void namesArePrefixedAndMadeAcceptable() {
        assertEquals("github.create_issue", ToolProperties.exposedName("github", "create_issue"));
        assertEquals("create_issue", ToolProperties.exposedName("", "create_issue"));
        assertEquals("fs.read_file_now_", ToolProperties.exposedName("fs", "read file/now!"));
        assertEquals(128, ToolProperties.exposedName("p", "x".repeat(300)).length());
    }

    @Test
    void listingBecomesProperties() {
        UpstreamConfig config = TypedConfig.of(UpstreamConfig.class, Map.of("callTimeoutMs", 5000L,
                "tenants", "acme, globex"));
        Hashtable<String, Object> p = ToolProperties.of("gh.search", JSON.readTree("""
                {"name": "search", "title": "Search", "description": "Finds things",
                 "inputSchema": {"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"]},
                 "outputSchema": {"type": "object", "properties": {"n": {"type": "integer"}}},
                 "annotations": {"readOnlyHint": true, "openWorldHint": false},
                 "icons": [{"src": "https://example.com/i.png"}, {"src": "javascript:alert(1)"}],
                 "_meta": {"anthropic/maxResultSizeChars": 1000}}"""), config, "gh");
        assertEquals("gh.search", p.get("mcp.tool.name"));
        assertEquals("Search", p.get("mcp.tool.title"));
        assertEquals("Finds things", p.get("mcp.tool.description"));
        assertEquals("{\"anthropic/maxResultSizeChars\":1000}", p.get("mcp.tool.meta"), "the upstream tool's own _meta");
        assertEquals(JSON.readTree("{\"type\":\"object\",\"properties\":{\"q\":{\"type\":\"string\"}},\"required\":[\"q\"]}"),
                JSON.readTree((String) p.get("mcp.tool.inputSchema")));
        assertEquals(true, p.get("mcp.tool.readOnlyHint"));
        assertEquals(false, p.get("mcp.tool.openWorldHint"));
        assertFalse(p.containsKey("mcp.tool.destructiveHint"), "an absent hint keeps MCP's default");
        assertArrayEquals(new String[] {"https://example.com/i.png"}, (String[]) p.get("mcp.tool.icons"));
        assertEquals(5000L, p.get("mcp.tool.timeoutMs"));
        assertArrayEquals(new String[] {"acme", "globex"}, (String[]) p.get("mcp.tenant"), "a .cfg list is one comma-separated string");
        assertEquals("gh", p.get(ToolProperties.SERVER));
    }

    @Test
    void iconsKeepTheirTypeSizesAndThemeAndNothingElse() {
        Hashtable<String, Object> p = ToolProperties.of("x.t", JSON.readTree("""
                {"name": "t", "inputSchema": {"type": "object"}, "icons": [
                  {"src": "https://example.com/a.png", "mimeType": "image/png", "sizes": ["48x48", "any"],
                   "theme": "dark", "onload": "steal()"},
                  {"src": "data:image/svg+xml;base64,PHN2Zy8+", "theme": "neon", "sizes": [48]},
                  {"src": "http://example.com/plain.png", "mimeType": "image/png"}]}"""),
                TypedConfig.of(UpstreamConfig.class, Map.of()), "x");
        String[] icons = (String[]) p.get("mcp.tool.icons");
        assertEquals(2, icons.length, "the http: icon is dropped");
        assertEquals(JSON.readTree("{\"src\":\"https://example.com/a.png\",\"mimeType\":\"image/png\","
                + "\"sizes\":[\"48x48\",\"any\"],\"theme\":\"dark\"}"), JSON.readTree(icons[0]));
        assertEquals("data:image/svg+xml;base64,PHN2Zy8+", icons[1], "a bad theme and bad sizes leave the URL alone");
    }

    @Test
    void schemasWithoutTypeGetTheMinimalWrapper() {
        assertEquals(JSON.readTree("{\"type\":\"object\",\"properties\":{}}"), ToolProperties.inputSchema(null));
        assertEquals(JSON.readTree("{\"type\":\"object\",\"properties\":{}}"), ToolProperties.inputSchema(JSON.readTree("{}")));
        assertEquals(JSON.readTree("{\"properties\":{\"a\":{}},\"type\":\"object\"}"),
                ToolProperties.inputSchema(JSON.readTree("{\"properties\":{\"a\":{}}}")));
    }
}
