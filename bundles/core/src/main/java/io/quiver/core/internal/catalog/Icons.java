package io.quiver.core.internal.catalog;

import io.quiver.api.content.Icon;
import io.quiver.core.internal.json.Json;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;

/** The {@code icons} property of a tool, prompt, resource or template service, as MCP lists icons. */
final class Icons {

    private Icons() {
    }

    /**
     * The icons a property names (one string, or an array of them), or null for none.
     *
     * @param key the property, e.g. {@code mcp.prompt.icons}
     * @param what what they belong to, for a refusal's message ({@code prompt greet})
     * @throws IllegalArgumentException naming the entry that is malformed
     */
    static List<Icon> of(Map<String, Object> props, String key, String what) {
        List<Icon> icons = new ArrayList<>();
        if (props.get(key) instanceof String[] given) {
            for (String icon : given) {
                if (!icon.isBlank()) {
                    icons.add(icon(icon.trim(), key, what));
                }
            }
        } else if (Props.string(props, key) != null) {
            icons.add(icon(Props.string(props, key).trim(), key, what));
        }
        return icons.isEmpty() ? null : List.copyOf(icons);
    }

    /**
     * One entry: its URL, or a JSON object with {@code src} and any of {@code mimeType}, {@code sizes} (strings) and
     * {@code theme} ({@code light} or {@code dark}), as MCP's icons have them.
     */
    private static Icon icon(String entry, String key, String what) {
        if (!entry.startsWith("{")) {
            return new Icon(entry);
        }
        JsonNode icon;
        try {
            icon = Json.MAPPER.readTree(entry);
        } catch (JacksonException e) {
            throw new IllegalArgumentException(what + ": " + key + " entry is not JSON: " + e.getOriginalMessage());
        }
        String src = icon.path("src").asString("");
        if (src.isBlank()) {
            throw new IllegalArgumentException(what + ": " + key + " entry " + entry + " has no src");
        }
        JsonNode mimeType = icon.path("mimeType");
        JsonNode sizes = icon.path("sizes");
        JsonNode theme = icon.path("theme");
        if (!mimeType.isMissingNode() && !mimeType.isString()
                || !sizes.isMissingNode() && !(sizes.isArray() && sizes.valueStream().allMatch(JsonNode::isString))
                || !theme.isMissingNode() && !Set.of("light", "dark").contains(theme.asString(""))) {
            throw new IllegalArgumentException(what + ": " + key + " entry " + entry
                    + " must have a string mimeType, sizes as an array of strings and theme light or dark");
        }
        return new Icon(src, mimeType.isString() ? mimeType.asString() : null,
                sizes.isArray() ? sizes.valueStream().map(JsonNode::asString).toList() : null,
                theme.isString() ? theme.asString() : null);
    }
}
