package io.quiver.core.internal.catalog;

import com.networknt.schema.Schema;
import io.quiver.api.Tool;
import io.quiver.api.schema.RecordSchemas;
import io.quiver.core.internal.json.Json;
import java.util.Map;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A tool as the catalog knows it: its listing descriptor, compiled input schema and limits, read
 * once from its service properties.
 */
public record ToolEntry(String name, ObjectNode descriptor, Schema inputSchema, JsonNode outputSchema,
        long timeoutMs, Tool tool, long bundleId, ToolMapper mapper, String taskSupport, boolean inputBeforeTask) {

    static final String P = "mcp.tool.";
    /** The tool names MCP clients accept (2025-11-25: SHOULD; clients reject others). */
    static final java.util.regex.Pattern NAME = java.util.regex.Pattern.compile("[A-Za-z0-9_.-]{1,128}");

    /** Reads a tool's properties; throws {@link IllegalArgumentException} naming what is wrong. */
    static ToolEntry from(Tool tool, Map<String, Object> props, SchemaCheck schemas) {
        String name = Props.string(props, P + "name");
        if (name == null) {
            throw new IllegalArgumentException("the service has no " + P + "name property");
        }
        if (!NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("tool name '" + name + "' is not 1 to 128 of A-Z a-z 0-9 _ . -");
        }
        ObjectNode descriptor = Json.MAPPER.createObjectNode();
        descriptor.put("name", name);
        putIfPresent(descriptor, "title", Props.string(props, P + "title"));
        descriptor.put("description", orEmpty(Props.string(props, P + "description")));
        if (props.get(P + "icons") instanceof String[] icons && icons.length > 0) {
            tools.jackson.databind.node.ArrayNode list = descriptor.putArray("icons");
            for (String icon : icons) {
                if (!icon.isBlank()) {
                    list.addObject().put("src", icon.trim());
                }
            }
        } else if (Props.string(props, P + "icons") != null) {
            descriptor.putArray("icons").addObject().put("src", Props.string(props, P + "icons").trim());
        }
        JsonNode input = generated(tool, props, "arguments", name);
        if (input == null) {
            input = parseSchema(props, "inputSchema", name);
        }
        if (input == null) {
            input = Json.MAPPER.createObjectNode().put("type", "object");
        }
        if (!input.isObject() || !"object".equals(input.path("type").asString(""))) {
            throw new IllegalArgumentException("tool " + name + ": inputSchema must be a JSON object schema of type object");
        }
        descriptor.set("inputSchema", input);
        JsonNode output = generated(tool, props, "output", name);
        if (output == null) {
            output = parseSchema(props, "outputSchema", name);
        }
        if (output != null) {
            if (!output.isObject() || !"object".equals(output.path("type").asString(""))) {
                throw new IllegalArgumentException("tool " + name + ": outputSchema must be a JSON object schema of type object");
            }
            schemas.compile(output, "tool " + name + ": outputSchema");
            descriptor.set("outputSchema", output);
        }
        ObjectNode annotations = descriptor.putObject("annotations");
        putIfPresent(annotations, "title", Props.string(props, P + "title"));
        annotations.put("readOnlyHint", Props.bool(props, P + "readOnlyHint", false));
        annotations.put("destructiveHint", Props.bool(props, P + "destructiveHint", true));
        annotations.put("idempotentHint", Props.bool(props, P + "idempotentHint", false));
        annotations.put("openWorldHint", Props.bool(props, P + "openWorldHint", true));
        Schema compiled = schemas.compile(input, "tool " + name + ": inputSchema");
        long timeout = Props.number(props, P + "timeoutMs", 0);
        String taskSupport = Props.string(props, P + "taskSupport");
        taskSupport = taskSupport == null ? "none" : taskSupport;
        if (!java.util.Set.of("none", "optional", "required").contains(taskSupport)) {
            throw new IllegalArgumentException("tool " + name + ": taskSupport must be none, optional or required");
        }
        if (!"none".equals(taskSupport)) {
            descriptor.putObject("execution").put("taskSupport", taskSupport);
        }
        return new ToolEntry(name, descriptor, compiled, output, timeout, tool,
                Props.number(props, "service.bundleid", -1), new ToolMapper(), taskSupport,
                Props.bool(props, P + "inputBeforeTask", false));
    }

    /**
     * The schema generated from a record type named by a class property ({@code arguments},
     * {@code output}), loaded through the tool's own class loader; null when none is named.
     */
    private static JsonNode generated(Tool tool, Map<String, Object> props, String key, String name) {
        String type = Props.string(props, P + key);
        if (type == null || type.equals("java.lang.Void") || type.equals("void")) {
            return null;
        }
        Class<?> record;
        try {
            ClassLoader loader = tool.getClass().getClassLoader();
            record = Class.forName(type, false, loader == null ? ToolEntry.class.getClassLoader() : loader);
        } catch (ClassNotFoundException | LinkageError e) {
            throw new IllegalArgumentException("tool " + name + ": " + key + " type " + type + " cannot be loaded");
        }
        try {
            return Json.MAPPER.valueToTree(RecordSchemas.of(record));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("tool " + name + ": " + key + " type " + type + ": " + e.getMessage());
        }
    }

    private static JsonNode parseSchema(Map<String, Object> props, String key, String name) {
        String text = Props.string(props, P + key);
        if (text == null) {
            return null;
        }
        try {
            return Json.MAPPER.readTree(text);
        } catch (JacksonException e) {
            throw new IllegalArgumentException("tool " + name + ": " + key + " is not valid JSON");
        }
    }

    static void putIfPresent(ObjectNode node, String field, String value) {
        if (value != null) {
            node.put(field, value);
        }
    }

    static String orEmpty(String value) {
        return value == null ? "" : value;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof ToolEntry t && t.tool == tool && t.descriptor.equals(descriptor)
                && t.timeoutMs == timeoutMs;
    }

    @Override
    public int hashCode() {
        return descriptor.hashCode();
    }
}
