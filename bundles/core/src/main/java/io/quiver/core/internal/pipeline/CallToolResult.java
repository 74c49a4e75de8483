package io.quiver.core.internal.pipeline;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.quiver.api.ToolResult;
import io.quiver.api.content.Content;
import io.quiver.api.content.TextContent;
import io.quiver.core.internal.json.Json;
import java.util.List;
import java.util.Map;

/** The wire shape of a {@code tools/call} result. */
public record CallToolResult(List<Content> content, Object structuredContent, boolean isError,
        @JsonProperty("_meta") Map<String, Object> meta) {

    /** The wire form of a tool's result; structured-only results get their JSON as a text block too. */
    static CallToolResult of(ToolResult result) {
        List<Content> content = result.content();
        if (content.isEmpty() && result.structuredContent() != null) {
            content = List.of(new TextContent(Json.MAPPER.writeValueAsString(result.structuredContent())));
        }
        return new CallToolResult(content, result.structuredContent(), result.isError(),
                result.meta().isEmpty() ? null : result.meta());
    }

    /** A failed call, explained to the model. */
    static CallToolResult error(String text) {
        return new CallToolResult(List.of(new TextContent(text)), null, true, null);
    }
}
