package io.quiver.core.internal.messages;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonView;
import io.quiver.api.ToolResult;
import io.quiver.api.content.Content;
import io.quiver.api.content.TextContent;
import io.quiver.core.internal.json.Json;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.json.JsonMapper;

/**
 * The answer to {@code tools/call}. Structured content is written for 2025-06-18 and later; content
 * blocks an older client cannot show are replaced by a note ({@link #forRevision}).
 */
public record CallToolResult(List<Content> content, @JsonView(Views.R20250618.class) Object structuredContent,
        boolean isError, @JsonProperty("_meta") Map<String, Object> meta) implements Result {

    /**
     * The wire form of a tool's result; structured-only results get their JSON as a text block too.
     * Values of the tool's own types become JSON trees through the tool's own mapper.
     */
    @SuppressWarnings("unchecked")
    public static CallToolResult of(ToolResult result, JsonMapper mapper) {
        Object structured = result.structuredContent() == null ? null : mapper.valueToTree(result.structuredContent());
        List<Content> content = result.content();
        if (content.isEmpty() && structured != null) {
            content = List.of(new TextContent(Json.MAPPER.writeValueAsString(structured)));
        }
        return new CallToolResult(content, structured, result.isError(),
                result.meta().isEmpty() ? null : mapper.convertValue(result.meta(), Map.class));
    }

    /** A failed call, explained to the model. */
    public static CallToolResult error(String text) {
        return new CallToolResult(List.of(new TextContent(text)), null, true, null);
    }

    @Override
    public CallToolResult withoutMeta() {
        return meta == null ? this : new CallToolResult(content, structuredContent, isError, null);
    }

    @Override
    public CallToolResult forRevision(String version) {
        List<Content> shown = ContentNotes.forRevision(content, version);
        return shown == content ? this : new CallToolResult(shown, structuredContent, isError, meta);
    }
}
