package io.quiver.bench.scaling;

import io.quiver.api.McpTool;
import io.quiver.api.Outcome;
import io.quiver.api.Tool;
import io.quiver.api.ToolCall;
import org.osgi.service.component.annotations.Component;

/**
 * Two tools that answer the same short text and differ only in their input schema, for the
 * argument-schema part of bench/scaling.sh: every call's arguments are validated against it first.
 * bench/scaling.sh calls each with valid arguments (its {@code COMPLEX_ARGS} match the complex one).
 */
final class SchemaTools {

    private static final Outcome OK = Outcome.text("ok");

    /** One required string property. */
    @Component(service = Tool.class)
    @McpTool(name = "bench_schema_simple", description = "Answers ok; its input schema is one string property.",
            inputSchema = """
                {"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}""",
            readOnlyHint = true, destructiveHint = false, idempotentHint = true, openWorldHint = false)
    public static final class Simple implements Tool {
        @Override
        public Outcome call(ToolCall call) {
            return OK;
        }
    }

    /**
     * 36 properties: nested objects three deep, arrays of strings, of enums and of objects, enums,
     * patterns, numeric and length bounds, a map, a oneOf, required lists and no additional properties.
     */
    @Component(service = Tool.class)
    @McpTool(name = "bench_schema_complex", description = "Answers ok; its input schema is a complex one (36 properties).",
            inputSchema = """
                {"type":"object",
                 "properties":{
                  "id":{"type":"string","pattern":"^[a-z]{3}-[0-9]{4}$"},
                  "title":{"type":"string","minLength":1,"maxLength":200},
                  "priority":{"type":"string","enum":["low","normal","high","urgent"]},
                  "count":{"type":"integer","minimum":0,"maximum":1000000},
                  "ratio":{"type":"number","exclusiveMinimum":0,"maximum":1},
                  "enabled":{"type":"boolean"},
                  "version":{"type":"string","pattern":"^[0-9]+\\\\.[0-9]+\\\\.[0-9]+(-[A-Za-z0-9.]+)?$"},
                  "tags":{"type":"array","items":{"type":"string","pattern":"^[a-z][a-z0-9-]*$","maxLength":32},
                          "uniqueItems":true,"maxItems":16},
                  "flags":{"type":"array","items":{"type":"string","enum":["draft","reviewed","archived","pinned"]}},
                  "owner":{"type":"object","properties":{
                     "name":{"type":"string","minLength":1},
                     "email":{"type":"string","pattern":"^[^@\\\\s]+@[^@\\\\s]+\\\\.[a-z]{2,}$"},
                     "role":{"type":"string","enum":["admin","editor","viewer"]},
                     "team":{"type":"object","properties":{
                        "id":{"type":"integer","minimum":1},
                        "name":{"type":"string"}},
                      "required":["id","name"],"additionalProperties":false}},
                   "required":["name","email","role"],"additionalProperties":false},
                  "schedule":{"type":"object","properties":{
                     "start":{"type":"string","pattern":"^[0-9]{4}-[0-9]{2}-[0-9]{2}$"},
                     "end":{"type":"string","pattern":"^[0-9]{4}-[0-9]{2}-[0-9]{2}$"},
                     "timezone":{"type":"string","enum":["UTC","Europe/Berlin","America/New_York","Asia/Tokyo"]},
                     "repeat":{"type":"object","properties":{
                        "every":{"type":"integer","minimum":1,"maximum":365},
                        "unit":{"type":"string","enum":["day","week","month"]}},
                      "required":["every","unit"],"additionalProperties":false}},
                   "required":["start","timezone"],"additionalProperties":false},
                  "items":{"type":"array","minItems":1,"maxItems":50,"items":{"type":"object","properties":{
                     "sku":{"type":"string","pattern":"^[A-Z]{2}[0-9]{6}$"},
                     "qty":{"type":"integer","minimum":1},
                     "price":{"type":"number","minimum":0},
                     "options":{"type":"array","items":{"type":"string","enum":["gift","express","insured"]}}},
                   "required":["sku","qty","price"],"additionalProperties":false}},
                  "metadata":{"type":"object","additionalProperties":{"type":"string","maxLength":100}},
                  "notes":{"type":"string","maxLength":2000},
                  "location":{"type":"object","properties":{
                     "lat":{"type":"number","minimum":-90,"maximum":90},
                     "lon":{"type":"number","minimum":-180,"maximum":180}},
                   "required":["lat","lon"]},
                  "contact":{"oneOf":[
                     {"type":"object","properties":{"phone":{"type":"string","pattern":"^\\\\+[0-9]{6,15}$"}},
                      "required":["phone"],"additionalProperties":false},
                     {"type":"object","properties":{"email":{"type":"string","pattern":"^[^@\\\\s]+@[^@\\\\s]+$"}},
                      "required":["email"],"additionalProperties":false}]}},
                 "required":["id","title","priority","owner","items"],
                 "additionalProperties":false}""",
            readOnlyHint = true, destructiveHint = false, idempotentHint = true, openWorldHint = false)
    public static final class Complex implements Tool {
        @Override
        public Outcome call(ToolCall call) {
            return OK;
        }
    }

    private SchemaTools() {
    }
}
