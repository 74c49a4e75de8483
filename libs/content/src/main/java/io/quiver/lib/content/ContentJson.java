package io.quiver.lib.content;

import io.quiver.api.ToolResult;
import io.quiver.api.content.Annotations;
import io.quiver.api.content.AudioContent;
import io.quiver.api.content.Content;
import io.quiver.api.content.EmbeddedResource;
import io.quiver.api.content.Icon;
import io.quiver.api.content.ImageContent;
import io.quiver.api.content.ResourceContents;
import io.quiver.api.content.ResourceLink;
import io.quiver.api.content.TextContent;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * MCP content blocks and tool results between their JSON form and the API's records, block for block:
 * what a bundle needs that meets results as JSON (an upstream server's answer, a host's edited result).
 */
public final class ContentJson {

    private static final JsonMapper MAPPER = JsonMapper.builder().build();

    @SuppressWarnings("unchecked")
    public static ToolResult toolResult(JsonNode result) {
        List<Content> content = content(result.path("content"));
        JsonNode structured = result.get("structuredContent");
        JsonNode meta = result.get("_meta");
        return new ToolResult(content, structured == null || structured.isNull() ? null : MAPPER.treeToValue(structured, Object.class),
                result.path("isError").asBoolean(false),
                meta != null && meta.isObject() ? MAPPER.treeToValue(meta, Map.class) : Map.of());
    }

    public static List<Content> content(JsonNode blocks) {
        List<Content> out = new ArrayList<>();
        for (JsonNode block : blocks) {
            out.add(block(block));
        }
        return out;
    }

    /** One block; a type MCP does not define becomes a text note saying so rather than vanish. */
    public static Content block(JsonNode b) {
        Annotations annotations = annotations(b.get("annotations"));
        Map<String, Object> meta = meta(b);
        String type = b.path("type").asString("");
        return switch (type) {
            case "text" -> new TextContent(b.path("text").asString(""), annotations, meta);
            case "image" -> new ImageContent(b.path("data").asString(""), b.path("mimeType").asString(""), annotations,
                    meta);
            case "audio" -> new AudioContent(b.path("data").asString(""), b.path("mimeType").asString(""), annotations,
                    meta);
            case "resource_link" -> new ResourceLink(b.path("uri").asString(""), b.path("name").asString(""),
                    optional(b, "title"), optional(b, "description"), optional(b, "mimeType"),
                    b.path("size").canConvertToLong() ? b.path("size").asLong() : null, annotations, meta, icons(b));
            case "resource" -> new EmbeddedResource(resource(b.path("resource")), annotations, meta);
            default -> new TextContent("[a content block of type '" + type + "', which MCP does not define]");
        };
    }

    /** A resource's contents as {@code resources/read} gives them (and an embedded resource holds them). */
    public static ResourceContents resource(JsonNode r) {
        String uri = r.path("uri").asString("");
        String mime = optional(r, "mimeType");
        return r.has("blob") ? new ResourceContents.Blob(uri, mime, r.path("blob").asString(""), meta(r))
                : new ResourceContents.Text(uri, mime, r.path("text").asString(""), meta(r));
    }

    /** A resource link's icons; one without a {@code src} is left out. */
    private static List<Icon> icons(JsonNode link) {
        List<Icon> icons = new ArrayList<>();
        for (JsonNode icon : link.path("icons")) {
            if (icon.path("src").isString()) {
                List<String> sizes = null;
                if (icon.path("sizes").isArray()) {
                    sizes = new ArrayList<>();
                    for (JsonNode size : icon.path("sizes")) {
                        sizes.add(size.asString(""));
                    }
                }
                icons.add(new Icon(icon.path("src").asString(), optional(icon, "mimeType"), sizes,
                        optional(icon, "theme")));
            }
        }
        return icons;
    }

    /** An object's {@code _meta} as plain values, or null for none. */
    @SuppressWarnings("unchecked")
    private static Map<String, Object> meta(JsonNode node) {
        JsonNode meta = node.get("_meta");
        return meta != null && meta.isObject() ? MAPPER.treeToValue(meta, Map.class) : null;
    }

    private static Annotations annotations(JsonNode a) {
        if (a == null || !a.isObject()) {
            return null;
        }
        List<String> audience = null;
        if (a.path("audience").isArray()) {
            audience = new ArrayList<>();
            for (JsonNode role : a.path("audience")) {
                audience.add(role.asString(""));
            }
        }
        Double priority = a.path("priority").isNumber() ? a.path("priority").asDouble() : null;
        return new Annotations(audience, priority, optional(a, "lastModified"));
    }

    /** A content block as MCP writes it: the reverse of {@link #block}. */
    public static ObjectNode json(Content content) {
        ObjectNode out = JsonNodeFactory.instance.objectNode().put("type", content.type());
        Annotations annotations = null;
        if (content instanceof TextContent t) {
            out.put("text", t.text());
            annotations = t.annotations();
        } else if (content instanceof ImageContent i) {
            out.put("data", i.data()).put("mimeType", i.mimeType());
            annotations = i.annotations();
        } else if (content instanceof AudioContent a) {
            out.put("data", a.data()).put("mimeType", a.mimeType());
            annotations = a.annotations();
        } else if (content instanceof ResourceLink l) {
            out.put("uri", l.uri()).put("name", l.name());
            putIfPresent(out, "title", l.title());
            putIfPresent(out, "description", l.description());
            putIfPresent(out, "mimeType", l.mimeType());
            if (l.size() != null) {
                out.put("size", l.size());
            }
            if (!l.icons().isEmpty()) {
                ArrayNode icons = out.putArray("icons");
                for (Icon icon : l.icons()) {
                    ObjectNode i = icons.addObject().put("src", icon.src());
                    putIfPresent(i, "mimeType", icon.mimeType());
                    if (icon.sizes() != null) {
                        icon.sizes().forEach(i.putArray("sizes")::add);
                    }
                    putIfPresent(i, "theme", icon.theme());
                }
            }
            annotations = l.annotations();
        } else if (content instanceof EmbeddedResource e) {
            ObjectNode r = out.putObject("resource").put("uri", e.resource().uri());
            if (e.resource() instanceof ResourceContents.Text t) {
                putIfPresent(r, "mimeType", t.mimeType());
                r.put("text", t.text());
            } else if (e.resource() instanceof ResourceContents.Blob b) {
                putIfPresent(r, "mimeType", b.mimeType());
                r.put("blob", b.blob());
            }
            putMeta(r, e.resource().meta());
            annotations = e.annotations();
        }
        if (annotations != null) {
            ObjectNode a = out.putObject("annotations");
            if (annotations.audience() != null) {
                annotations.audience().forEach(a.putArray("audience")::add);
            }
            if (annotations.priority() != null) {
                a.put("priority", annotations.priority());
            }
            putIfPresent(a, "lastModified", annotations.lastModified());
        }
        putMeta(out, content.meta());
        return out;
    }

    private static void putMeta(ObjectNode node, Map<String, Object> meta) {
        if (!meta.isEmpty()) {
            node.set("_meta", MAPPER.valueToTree(meta));
        }
    }

    private static void putIfPresent(ObjectNode node, String key, String value) {
        if (value != null) {
            node.put(key, value);
        }
    }

    private static String optional(JsonNode node, String key) {
        JsonNode v = node.get(key);
        return v == null || !v.isString() ? null : v.asString();
    }

    /** A tool result as MCP writes it: {@code content}, {@code structuredContent}, {@code isError}, {@code _meta}. */
    public static ObjectNode json(ToolResult result) {
        ObjectNode out = JsonNodeFactory.instance.objectNode();
        ArrayNode blocks = out.putArray("content");
        for (Content content : result.content()) {
            blocks.add(json(content));
        }
        if (result.structuredContent() != null) {
            out.set("structuredContent", MAPPER.valueToTree(result.structuredContent()));
        }
        if (result.isError()) {
            out.put("isError", true);
        }
        if (result.meta() != null && !result.meta().isEmpty()) {
            out.set("_meta", MAPPER.valueToTree(result.meta()));
        }
        return out;
    }

    private ContentJson() {
    }
}
