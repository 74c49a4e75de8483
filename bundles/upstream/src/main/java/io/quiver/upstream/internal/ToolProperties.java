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
 * call timeout, and the tenants and projects that see it; likewise for its prompts and resources.
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
        putIcons(p, prefix + "icons", tool);
        if (config.callTimeoutMs() > 0) {
            p.put(prefix + "timeoutMs", config.callTimeoutMs());
        }
        return scoped(p, config);
    }

    /** The tenants and projects whose callers see what the server offers ({@code mcp.tenant}, {@code mcp.project}). */
    static Hashtable<String, Object> scoped(Hashtable<String, Object> p, UpstreamConfig config) {
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
     * An upstream prompt's listing as the properties of its {@link ProxyPrompt}: its exposed name, title and
     * description, and its arguments as they were listed ({@value #ARGUMENTS}), so a listing that changes them
     * registers the prompt anew.
     */
    static Hashtable<String, Object> prompt(String exposed, JsonNode prompt, UpstreamConfig config, String server) {
        Hashtable<String, Object> p = new Hashtable<>();
        p.put("mcp.prompt.name", exposed);
        p.put(UPSTREAM_NAME, prompt.path("name").asString(""));
        p.put(SERVER, server);
        putText(p, "mcp.prompt.title", prompt.path("title"));
        putText(p, "mcp.prompt.description", prompt.path("description"));
        putIcons(p, "mcp.prompt.icons", prompt);
        p.put(ARGUMENTS, McpClient.JSON.writeValueAsString(prompt.path("arguments")));
        return scoped(p, config);
    }

    /** The server's own name of a proxied prompt (two may be exposed under one name: the first listed wins). */
    static final String UPSTREAM_NAME = "quiver.upstream.name";

    /** The listed arguments of a proxied prompt, as JSON. */
    static final String ARGUMENTS = "quiver.upstream.arguments";

    /**
     * An upstream resource ({@code kind} {@code mcp.resource.}, keyed by {@code uri}) or resource template
     * ({@code mcp.template.}, keyed by {@code uriTemplate}) as the properties of its {@link ProxyResource}:
     * its own URI or template, its name (the URI where it gave none), title, description and MIME type.
     */
    static Hashtable<String, Object> resource(String kind, String key, String uri, JsonNode resource, UpstreamConfig config,
            String server) {
        Hashtable<String, Object> p = new Hashtable<>();
        p.put(kind + key, uri);
        String name = resource.path("name").asString("");
        p.put(kind + "name", name.isEmpty() ? uri : name);
        p.put(SERVER, server);
        putText(p, kind + "title", resource.path("title"));
        putText(p, kind + "description", resource.path("description"));
        putText(p, kind + "mimeType", resource.path("mimeType"));
        putIcons(p, kind + "icons", resource);
        return scoped(p, config);
    }

    /** The listed item's icons as {@code icons} property entries, where it has any. */
    private static void putIcons(Hashtable<String, Object> p, String key, JsonNode item) {
        List<String> icons = new ArrayList<>();
        item.path("icons").forEach(icon -> {
            String entry = icon(icon);
            if (entry != null) {
                icons.add(entry);
            }
        });
        if (!icons.isEmpty()) {
            p.put(key, icons.toArray(String[]::new));
        }
    }

    private static void putText(Hashtable<String, Object> p, String key, JsonNode value) {
        if (value.isString() && !value.asString().isEmpty()) {
            p.put(key, value.asString());
        }
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
