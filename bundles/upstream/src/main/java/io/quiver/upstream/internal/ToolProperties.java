package io.quiver.upstream.internal;

import java.util.ArrayList;
import java.util.Hashtable;
import java.util.List;

import io.quiver.lib.config.TypedConfig;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * An upstream tool's listing as the service properties of its {@link ProxyTool} ({@code mcp.tool.*}):
 * the name with the server's prefix, the upstream's title, description, schemas and annotations, the
 * call timeout, and the tenants and projects that see it.
 */
final class ToolProperties {

    /** The property naming the server a proxied tool comes from. */
    static final String SERVER = "quiver.upstream";
    private static final int MAX_NAME = 128;

    /** {@code prefix.name}, with characters MCP clients reject replaced by {@code _}. */
    static String exposedName(String prefix, String name) {
        String full = prefix.isEmpty() ? name : prefix + "." + name;
        StringBuilder out = new StringBuilder(full.length());
        for (int i = 0; i < full.length() && out.length() < MAX_NAME; i++) {
            char c = full.charAt(i);
            out.append((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '.'
                    || c == '-' ? c : '_');
        }
        return out.toString();
    }

    static Hashtable<String, Object> of(String exposed, JsonNode tool, UpstreamConfig config, String server) {
        Hashtable<String, Object> p = new Hashtable<>();
        String prefix = "mcp.tool.";
        p.put(prefix + "name", exposed);
        p.put(SERVER, server);
        JsonNode annotations = tool.path("annotations");
        String title = tool.path("title").asString(annotations.path("title").asString(""));
        if (!title.isEmpty()) {
            p.put(prefix + "title", title);
        }
        p.put(prefix + "description", tool.path("description").asString(""));
        p.put(prefix + "inputSchema", McpClient.JSON.writeValueAsString(inputSchema(tool.get("inputSchema"))));
        JsonNode output = tool.get("outputSchema");
        if (output != null && output.isObject() && "object".equals(output.path("type").asString(""))) {
            p.put(prefix + "outputSchema", McpClient.JSON.writeValueAsString(output));
        }
        for (String hint : List.of("readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint")) {
            JsonNode value = annotations.get(hint);
            if (value != null && value.isBoolean()) {
                p.put(prefix + hint, value.asBoolean());
            }
        }
        JsonNode meta = tool.get("_meta");
        if (meta != null && meta.isObject() && !meta.isEmpty()) {
            p.put(prefix + "meta", McpClient.JSON.writeValueAsString(meta)); // a result-size hint, say
        }
        List<String> icons = new ArrayList<>();
        tool.path("icons").forEach(icon -> {
            String entry = icon(icon);
            if (entry != null) {
                icons.add(entry);
            }
        });
        if (!icons.isEmpty()) {
            p.put(prefix + "icons", icons.toArray(String[]::new));
        }
        if (config.callTimeoutMs() > 0) {
            p.put(prefix + "timeoutMs", config.callTimeoutMs());
        }
        List<String> tenants = TypedConfig.list(config.tenants());
        if (!tenants.isEmpty()) {
            p.put("mcp.tenant", tenants.toArray(String[]::new));
        }
        List<String> projects = TypedConfig.list(config.projects());
        if (!projects.isEmpty()) {
            p.put("mcp.project", projects.toArray(String[]::new));
        }
        return p;
    }

    /**
     * The upstream's input schema, or the minimal object schema where it gave none, an empty one or
     * one without {@code type} (strict clients reject those).
     */
    static JsonNode inputSchema(JsonNode given) {
        if (given == null || !given.isObject() || given.isEmpty() || !given.has("type")) {
            ObjectNode wrapper = given != null && given.isObject() ? ((ObjectNode) given).deepCopy()
                    : McpClient.JSON.createObjectNode();
            wrapper.put("type", "object");
            if (!wrapper.has("properties")) {
                wrapper.putObject("properties");
            }
            return wrapper;
        }
        return given;
    }

    private ToolProperties() {
    }

    /**
     * An upstream icon as a {@code mcp.tool.icons} entry: its URL alone, or a JSON object when it has a MIME
     * type, sizes or a theme (only those MCP defines, well formed). Null for an icon that is not {@code https:}
     * or {@code data:}: a client would load anything else from wherever the upstream server pointed it.
     */
    static String icon(JsonNode icon) {
        String src = icon.path("src").asString("");
        if (!src.startsWith("https:") && !src.startsWith("data:")) {
            return null;
        }
        ObjectNode entry = McpClient.JSON.createObjectNode().put("src", src);
        if (icon.path("mimeType").isString()) {
            entry.put("mimeType", icon.path("mimeType").asString());
        }
        JsonNode sizes = icon.path("sizes");
        if (sizes.isArray() && sizes.valueStream().allMatch(JsonNode::isString)) {
            entry.set("sizes", sizes);
        }
        String theme = icon.path("theme").isString() ? icon.path("theme").asString() : "";
        if (theme.equals("light") || theme.equals("dark")) {
            entry.put("theme", theme);
        }
        return entry.size() == 1 ? src : McpClient.JSON.writeValueAsString(entry);
    }
}
