package io.quiver.api;

import io.quiver.api.content.Content;
import io.quiver.api.content.TextContent;
import java.util.List;
import java.util.Map;

/**
 * The result of a tool call.
 *
 * @param content the content blocks the model sees
 * @param structuredContent a JSON-mappable value matching the tool's output schema, or {@code null}
 * @param isError whether the tool failed (an error the model can read and react to)
 * @param meta {@code _meta} values, or an empty map
 */
public record ToolResult(List<Content> content, Object structuredContent, boolean isError, Map<String, Object> meta) {

    public ToolResult {
        content = List.copyOf(content);
        meta = meta == null ? Map.of() : Map.copyOf(meta);
    }

    /** A successful result made of content blocks. */
    public static ToolResult of(Content... content) {
        return new ToolResult(List.of(content), null, false, Map.of());
    }

    /** A successful result of one text block. */
    public static ToolResult text(String text) {
        return of(new TextContent(text));
    }

    /** A failed result of one text block, for the model to read. */
    public static ToolResult error(String text) {
        return new ToolResult(List.of(new TextContent(text)), null, true, Map.of());
    }

    /**
     * A successful result carrying structured content only. The engine adds the value's JSON text
     * as a text block for clients that do not read {@code structuredContent}.
     *
     * @param value the structured value (a record or map) matching the tool's output schema
     */
    public static ToolResult structured(Object value) {
        return new ToolResult(List.of(), value, false, Map.of());
    }
}
