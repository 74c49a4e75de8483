package io.quiver.tools.conformance.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * Reads the DS descriptors bnd generated (they exist before the test phase) and checks the
 * metadata the conformance suite looks at: names, descriptions, URIs and the 2020-12 schema.
 */
class ComponentDescriptorsTest {

    /** A component: the service it provides and its properties. */
    record Descriptor(String service, Map<String, String> properties) {
        String get(String key) {
            return properties.getOrDefault(key, "");
        }
    }

    private static List<Descriptor> descriptors;

    @BeforeAll
    static void readDescriptors() throws Exception {
        descriptors = new ArrayList<>();
        try (Stream<Path> files = Files.list(Path.of("target/classes/OSGI-INF"))) {
            for (Path file : files.filter(f -> f.toString().endsWith(".xml")).toList()) {
                descriptors.add(read(file));
            }
        }
    }

    private static Descriptor read(Path file) throws Exception {
        Document doc;
        try (var in = Files.newInputStream(file)) {
            doc = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(in);
        } catch (IOException e) {
            throw new AssertionError("cannot read " + file, e);
        }
        Map<String, String> properties = new HashMap<>();
        NodeList nodes = doc.getElementsByTagName("property");
        for (int i = 0; i < nodes.getLength(); i++) {
            Element property = (Element) nodes.item(i);
            properties.put(property.getAttribute("name"), property.getAttribute("value"));
        }
        Element provide = (Element) doc.getElementsByTagName("provide").item(0);
        return new Descriptor(provide.getAttribute("interface"), properties);
    }

    private static List<Descriptor> providing(String service) {
        return descriptors.stream().filter(d -> d.service().equals(service)).toList();
    }

    private static Set<String> values(String service, String property) {
        return providing(service).stream().map(d -> d.get(property)).collect(Collectors.toCollection(TreeSet::new));
    }

    @Test
    void everyToolTheSuiteCallsIsThereWithAValidNameAndADescription() {
        List<Descriptor> tools = providing("io.quiver.api.Tool");
        assertEquals(Set.of("test_simple_text", "test_image_content", "test_audio_content", "test_embedded_resource",
                "test_multiple_content_types", "test_tool_with_logging", "test_error_handling",
                "test_tool_with_progress", "test_sampling", "test_elicitation", "test_elicitation_sep1034_defaults",
                "test_elicitation_sep1330_enums", "json_schema_2020_12_tool", "test_reconnection",
                // 2026-07-28
                "greet", "slow_compute", "failing_job", "protocol_error_job", "confirm_delete", "multi_input",
                "test_tool_with_task", "test_missing_capability", "test_streaming_elicitation", "test_logging_tool",
                "test_custom_header", "test_trigger_tool_change", "test_trigger_prompt_change",
                "test_input_required_result_elicitation", "test_input_required_result_sampling",
                "test_input_required_result_list_roots", "test_input_required_result_request_state",
                "test_input_required_result_multiple_inputs", "test_input_required_result_multi_round",
                "test_input_required_result_tampered_state", "test_input_required_result_capabilities"),
                values("io.quiver.api.Tool", "mcp.tool.name"));
        for (Descriptor tool : tools) {
            String name = tool.get("mcp.tool.name");
            assertTrue(name.matches("[A-Za-z0-9_.-]{1,128}"), name);
            assertFalse(tool.get("mcp.tool.description").isBlank(), name + " has no description");
            assertTrue(tool.get("mcp.tool.inputSchema").contains("\"object\""), name + " input schema");
        }
    }

    @Test
    void jsonSchemaToolListsTheExactReferenceSchema() {
        Descriptor tool = providing("io.quiver.api.Tool").stream()
                .filter(d -> d.get("mcp.tool.name").equals("json_schema_2020_12_tool")).findFirst().orElseThrow();
        String expected = """
                {"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object",
                "$defs":{"address":{"$anchor":"addressDef","type":"object","properties":{"street":{"type":"string"},"city":{"type":"string"}}}},
                "properties":{"name":{"type":"string"},"address":{"$ref":"#/$defs/address"},"contactMethod":{"type":"string","enum":["phone","email"]},"phone":{"type":"string"},"email":{"type":"string"}},
                "allOf":[{"anyOf":[{"required":["phone"]},{"required":["email"]}]}],
                "if":{"properties":{"contactMethod":{"const":"phone"}},"required":["contactMethod"]},"then":{"required":["phone"]},"else":{"required":["email"]},
                "additionalProperties":false}""";
        // the schema has no spaces inside its strings, so dropping all whitespace compares the JSON
        assertEquals(expected.replaceAll("\\s", ""), tool.get("mcp.tool.inputSchema").replaceAll("\\s", ""));
        assertEquals("Tool with JSON Schema 2020-12 features", tool.get("mcp.tool.description"));
    }

    @Test
    void customHeaderToolDeclaresItsStringArgumentAsAHeader() {
        String schema = providing("io.quiver.api.Tool").stream()
                .filter(d -> d.get("mcp.tool.name").equals("test_custom_header")).findFirst().orElseThrow()
                .get("mcp.tool.inputSchema").replaceAll("\\s", "");
        assertTrue(schema.contains("\"properties\":{\"region\":{\"type\":\"string\",\"x-mcp-header\":\"Region\""), schema);
        assertTrue(schema.endsWith("\"required\":[\"region\"]}"), schema);
    }

    @Test
    void resourcesTemplateAndPromptsAreDescribed() {
        assertEquals(Set.of("test://static-text", "test://static-binary", "test://watched-resource"),
                values("io.quiver.api.resource.Resource", "mcp.resource.uri"));
        providing("io.quiver.api.resource.Resource")
                .forEach(r -> assertFalse(r.get("mcp.resource.name").isBlank() || r.get("mcp.resource.mimeType").isBlank()));
        assertEquals(Set.of("test://template/{id}/data"),
                values("io.quiver.api.resource.ResourceTemplate", "mcp.template.uriTemplate"));
        assertEquals(Set.of("test_simple_prompt", "test_input_required_result_prompt", "test_prompt_with_arguments", "test_prompt_with_embedded_resource",
                "test_prompt_with_image"), values("io.quiver.api.prompt.Prompt", "mcp.prompt.name"));
        providing("io.quiver.api.prompt.Prompt").forEach(p -> assertFalse(p.get("mcp.prompt.description").isBlank()));
        assertEquals(Set.of("test_prompt_with_arguments"),
                values("io.quiver.api.completion.Completer", "mcp.completion.ref"));
    }
}
