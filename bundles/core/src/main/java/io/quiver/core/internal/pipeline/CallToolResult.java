package io.quiver.core.internal.pipeline;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.quiver.api.ToolResult;
import io.quiver.api.content.Content;
import io.quiver.api.content.TextContent;
import io.quiver.core.internal.json.Json;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.json.JsonMapper;

/** The wire shape of a {@code tools/call} result. */
public record CallToolResult(List<Content> content, Object structuredContent, boolean isError,
        @JsonProperty("_meta") Map<String, Object> meta) {

    /**
     * The wire form of a tool's result; structured-only results get their JSON as a text block too.
     * Values of the tool's own types become JSON trees through the tool's own mapper.
     */
    static CallToolResult of(ToolResult result, JsonMapper mapper) {
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
}
