package io.quiver.core.internal.catalog;

import com.networknt.schema.Schema;
import io.quiver.api.Tool;
import io.quiver.api.content.Icon;
import io.quiver.api.schema.RecordSchemas;
import io.quiver.core.internal.json.Json;
import io.quiver.core.internal.messages.ToolDescriptor;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import java.util.regex.Pattern;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A tool as the catalog knows it: its listing descriptor, compiled input schema and limits, read
 * once from its service properties. A schema the tool's author wrote is checked and compiled when
 * the tool is read; one generated from a record type is compiled at the first call that needs it.
 */
public record ToolEntry(String name, ToolDescriptor descriptor, Supplier<Schema> inputSchema, JsonNode outputSchema,
        long timeoutMs, Tool tool, long bundleId, ToolMapper mapper, String taskSupport, boolean inputBeforeTask,
        String troubleshootingHint, boolean blocking) {

    static final String P = "mcp.tool.";
    /** The tool names MCP clients accept (2025-11-25: SHOULD; clients reject others). */
    static final Pattern NAME = Pattern.compile("[A-Za-z0-9_.-]{1,128}");

    /** Reads a tool's properties; throws {@link IllegalArgumentException} naming what is wrong. */
    static ToolEntry from(Tool tool, Map<String, Object> props, SchemaCheck schemas) {
        String name = Props.string(props, P + "name");
        if (name == null) {
            throw new IllegalArgumentException("the service has no " + P + "name property");
        }
        if (!NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("tool name '" + name + "' is not 1 to 128 of A-Z a-z 0-9 _ . -");
        }
        List<Icon> icons = Icons.of(props, P + "icons", "tool " + name);
        JsonNode input = generated(tool, props, "arguments", name);
        boolean written = false; // by the tool's author: checked and compiled now
        if (input == null) {
            input = parseSchema(props, "inputSchema", name);
            written = input != null;
        }
        if (input == null) {
            input = Json.MAPPER.createObjectNode().put("type", "object");
        }
        if (!input.isObject() || !"object".equals(input.path("type").asString(""))) {
            throw new IllegalArgumentException("tool " + name + ": inputSchema must be a JSON object schema of type object");
        }
        if (!input.has("properties")) {
            // listed with empty properties: the same schema, which clients that insist on properties also take
            ObjectNode listed = (ObjectNode) input.deepCopy();
            listed.putObject("properties");
            input = listed;
        }
        JsonNode output = generated(tool, props, "output", name);
        if (output == null) {
            output = parseSchema(props, "outputSchema", name);
            if (output != null) {
                if (!output.isObject() || !"object".equals(output.path("type").asString(""))) {
                    throw new IllegalArgumentException("tool " + name + ": outputSchema must be a JSON object schema of type object");
                }
                schemas.compile(output, "tool " + name + ": outputSchema");
            }
        }
        String title = Props.string(props, P + "title");
        ToolDescriptor.ToolAnnotations annotations = new ToolDescriptor.ToolAnnotations(title,
                Props.bool(props, P + "readOnlyHint", false), Props.bool(props, P + "destructiveHint", true),
                Props.bool(props, P + "idempotentHint", false), Props.bool(props, P + "openWorldHint", true));
        Supplier<Schema> compiled;
        if (written) {
            Schema checked = schemas.compile(input, "tool " + name + ": inputSchema");
            compiled = () -> checked;
        } else {
            compiled = schemas.generated(input);
        }
        long timeout = Props.number(props, P + "timeoutMs", 0);
        String taskSupport = Props.string(props, P + "taskSupport");
        taskSupport = taskSupport == null ? "none" : taskSupport;
        if (!Set.of("none", "optional", "required").contains(taskSupport)) {
            throw new IllegalArgumentException("tool " + name + ": taskSupport must be none, optional or required");
        }
        ToolDescriptor descriptor = new ToolDescriptor(name, title, orEmpty(Props.string(props, P + "description")),
                icons, input, output, annotations,
                "none".equals(taskSupport) ? null : new ToolDescriptor.Execution(taskSupport), meta(props, name));
        return new ToolEntry(name, descriptor, compiled, output, timeout, tool,
                Props.number(props, "service.bundleid", -1), new ToolMapper(), taskSupport,
                Props.bool(props, P + "inputBeforeTask", false), Props.string(props, P + "troubleshootingHint"),
                Props.bool(props, P + "blocking", true));
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

    /** The tool's {@code _meta}: the {@code mcp.tool.meta} property, a JSON object; null when none. */
    private static JsonNode meta(Map<String, Object> props, String name) {
        String text = Props.string(props, P + "meta");
        JsonNode meta = text == null || text.isBlank() ? null : parseSchema(props, "meta", name);
        if (meta != null && !meta.isObject()) {
            throw new IllegalArgumentException("tool " + name + ": meta must be a JSON object");
        }
        return meta == null || meta.isEmpty() ? null : meta;
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
