package io.quiver.tools.conformance.internal;

import io.quiver.api.McpTool;
import io.quiver.api.Outcome;
import io.quiver.api.Tool;
import io.quiver.api.ToolCall;
import java.util.TreeMap;
import org.osgi.service.component.annotations.Component;

/**
 * Lists an input schema that uses JSON Schema 2020-12 features ($schema, $defs, $anchor, $ref,
 * allOf/anyOf, if/then/else, additionalProperties) so the suite can check that the server passes
 * it through untouched (SEP-1613, SEP-2106). Called, it echoes its arguments.
 */
@Component(service = Tool.class)
@McpTool(name = "json_schema_2020_12_tool", blocking = false,
        description = "Tool with JSON Schema 2020-12 features",
        inputSchema = """
                {"$schema": "https://json-schema.org/draft/2020-12/schema",
                 "type": "object",
                 "$defs": {"address": {"$anchor": "addressDef", "type": "object",
                                       "properties": {"street": {"type": "string"}, "city": {"type": "string"}}}},
                 "properties": {"name": {"type": "string"},
                                "address": {"$ref": "#/$defs/address"},
                                "contactMethod": {"type": "string", "enum": ["phone", "email"]},
                                "phone": {"type": "string"},
                                "email": {"type": "string"}},
                 "allOf": [{"anyOf": [{"required": ["phone"]}, {"required": ["email"]}]}],
                 "if": {"properties": {"contactMethod": {"const": "phone"}}, "required": ["contactMethod"]},
                 "then": {"required": ["phone"]},
                 "else": {"required": ["email"]},
                 "additionalProperties": false}""")
public final class JsonSchema2020Tool implements Tool {

    @Override
    public Outcome call(ToolCall call) {
        return Outcome.text("JSON Schema 2020-12 tool called with: " + new TreeMap<>(call.arguments()));
    }
}
