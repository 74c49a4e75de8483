package io.quiver.upstream.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

class McpHeadersTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @Test
    void plainAsciiStaysAsItIsAndTheRestTakesTheBase64Form() {
        assertEquals("us-west1", McpHeaders.encode("us-west1"));
        assertEquals("us west 1", McpHeaders.encode("us west 1"), "inner spaces are fine");
        assertEquals("", McpHeaders.encode(""), "an empty value is a header of its own");
        assertEquals("=?base64?SGVsbG8sIOS4lueVjA==?=", McpHeaders.encode("Hello, 世界"));
        assertEquals("=?base64?IHBhZGRlZCA=?=", McpHeaders.encode(" padded "));
        assertEquals("=?base64?bGluZTEKbGluZTI=?=", McpHeaders.encode("line1\nline2"));
        assertEquals("=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?=", McpHeaders.encode("=?base64?literal?="),
                "text that looks like the encoded form is encoded, so it reads back as itself");
        for (String unsafe : List.of("\tindented", "trailing ", " leading", "cr\rlf", "nul\0", "del\u007f", "é")) {
            assertTrue(McpHeaders.needsBase64(unsafe), unsafe);
            assertEquals(unsafe, McpHeaders.decode(McpHeaders.encode(unsafe)));
        }
        assertFalse(McpHeaders.needsBase64("SELECT * FROM users"));
    }

    @Test
    void mcpNameMirrorsTheToolPromptOrResource() {
        assertEquals("echo", McpHeaders.name("tools/call", JSON.readTree("{\"name\":\"echo\"}")));
        assertEquals("greet", McpHeaders.name("prompts/get", JSON.readTree("{\"name\":\"greet\"}")));
        assertEquals("file:///a b", McpHeaders.name("resources/read", JSON.readTree("{\"uri\":\"file:///a b\"}")));
        assertNull(McpHeaders.name("tools/list", JSON.readTree("{}")));
    }

    @Test
    void designatedParametersBecomeHeadersWithTheirValuesEncoded() {
        JsonNode schema = JSON.readTree("""
                {"type": "object", "properties": {
                   "region": {"type": "string", "x-mcp-header": "Region"},
                   "priority": {"type": "integer", "x-mcp-header": "Priority"},
                   "verbose": {"type": "boolean", "x-mcp-header": "Verbose"},
                   "greeting": {"type": "string", "x-mcp-header": "Greeting"},
                   "target": {"type": "object", "properties": {"zone": {"type": "string", "x-mcp-header": "Zone"}}},
                   "query": {"type": "string"},
                   "ratio": {"type": "number"}}}""");
        Map<String, String> headers = McpHeaders.params(schema, JSON.readTree("""
                {"region": "us-west1", "priority": 42, "verbose": false, "greeting": "Hello, 世界",
                 "target": {"zone": "b"}, "query": "SELECT 1", "ratio": 0.5}"""));
        assertEquals(Map.of("Mcp-Param-Region", "us-west1", "Mcp-Param-Priority", "42", "Mcp-Param-Verbose", "false",
                "Mcp-Param-Greeting", "=?base64?SGVsbG8sIOS4lueVjA==?=", "Mcp-Param-Zone", "b"), headers);
        assertEquals(List.of("Mcp-Param-Region", "Mcp-Param-Priority", "Mcp-Param-Verbose", "Mcp-Param-Greeting",
                "Mcp-Param-Zone"), List.copyOf(headers.keySet()), "in schema order");

        Map<String, String> sparse = McpHeaders.params(schema, JSON.readTree("""
                {"region": "eu", "priority": 7.0, "verbose": null, "target": "not an object"}"""));
        assertEquals(Map.of("Mcp-Param-Region", "eu", "Mcp-Param-Priority", "7"), sparse,
                "a null or absent value has no header; an integral 7.0 is 7");
    }

    @Test
    void annotationsThatBreakTheRulesMakeTheToolInvalid() {
        assertNull(McpHeaders.invalid(JSON.readTree("{\"type\": \"object\", \"properties\": {\"a\": {\"type\": \"string\"}}}")));
        assertNull(McpHeaders.invalid(null));
        assertNull(McpHeaders.invalid(JSON.readTree("""
                {"type": "object", "properties": {"x-mcp-header": {"type": "string"},
                 "a": {"type": "object", "properties": {"b": {"type": "boolean", "x-mcp-header": "B"}}}}}""")),
                "a property named x-mcp-header is no annotation; a nested property reached by properties is fine");
        Map<String, String> invalid = Map.ofEntries(
                Map.entry("empty", "{\"v\": {\"type\": \"string\", \"x-mcp-header\": \"\"}}"),
                Map.entry("object", "{\"v\": {\"type\": \"object\", \"x-mcp-header\": \"Data\"}}"),
                Map.entry("array", "{\"v\": {\"type\": \"array\", \"items\": {\"type\": \"string\"}, \"x-mcp-header\": \"I\"}}"),
                Map.entry("null", "{\"v\": {\"type\": \"null\", \"x-mcp-header\": \"Nil\"}}"),
                Map.entry("number", "{\"v\": {\"type\": \"number\", \"x-mcp-header\": \"Score\"}}"),
                Map.entry("untyped", "{\"v\": {\"x-mcp-header\": \"V\"}}"),
                Map.entry("same", "{\"a\": {\"type\": \"string\", \"x-mcp-header\": \"Region\"},"
                        + " \"b\": {\"type\": \"string\", \"x-mcp-header\": \"Region\"}}"),
                Map.entry("case", "{\"a\": {\"type\": \"string\", \"x-mcp-header\": \"MyField\"},"
                        + " \"b\": {\"type\": \"string\", \"x-mcp-header\": \"myfield\"}}"),
                Map.entry("space", "{\"v\": {\"type\": \"string\", \"x-mcp-header\": \"My Region\"}}"),
                Map.entry("colon", "{\"v\": {\"type\": \"string\", \"x-mcp-header\": \"Region:Primary\"}}"),
                Map.entry("non-ascii", "{\"v\": {\"type\": \"string\", \"x-mcp-header\": \"Région\"}}"),
                Map.entry("control", "{\"v\": {\"type\": \"string\", \"x-mcp-header\": \"Region\\t1\"}}"),
                Map.entry("not a string", "{\"v\": {\"type\": \"string\", \"x-mcp-header\": 7}}"));
        invalid.forEach((why, properties) -> assertNotNull(
                McpHeaders.invalid(JSON.readTree("{\"type\": \"object\", \"properties\": " + properties + "}")), why));
        for (String unreachable : List.of(
                "{\"type\": \"object\", \"x-mcp-header\": \"Root\"}",
                "{\"type\": \"object\", \"properties\": {\"l\": {\"type\": \"array\", \"items\": {\"type\": \"string\", \"x-mcp-header\": \"I\"}}}}",
                "{\"type\": \"object\", \"anyOf\": [{\"properties\": {\"a\": {\"type\": \"string\", \"x-mcp-header\": \"A\"}}}]}",
                "{\"type\": \"object\", \"$defs\": {\"d\": {\"type\": \"string\", \"x-mcp-header\": \"D\"}},"
                        + " \"properties\": {\"a\": {\"$ref\": \"#/$defs/d\"}}}",
                "{\"type\": \"object\", \"if\": {\"properties\": {\"a\": {\"type\": \"string\", \"x-mcp-header\": \"A\"}}}}")) {
            assertNotNull(McpHeaders.invalid(JSON.readTree(unreachable)), unreachable);
        }
    }
}
