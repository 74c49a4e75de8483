package io.quiver.core.internal.messages;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonView;
import io.quiver.api.content.Icon;
import java.util.List;
import tools.jackson.databind.JsonNode;

/**
 * A tool as {@code tools/list} shows it. Titles and the output schema are written for 2025-06-18 and later,
 * icons for 2025-11-25 and later, annotations for 2025-03-26 and later, the execution hints for 2026-07-28 and later
 * (tasks, which they are about, are served to that revision's tasks extension only: a 2025-11-25 session is offered
 * no {@code tasks} capability, so a tool "required" to run as a task would be one it could never call). {@code _meta} is the tool's
 * own metadata (its {@code mcp.tool.meta} property: a result-size hint, for example), 2025-06-18 and later.
 */
public record ToolDescriptor(String name, @JsonView(Views.R20250618.class) String title, String description,
        @JsonView(Views.R20251125.class) List<Icon> icons, JsonNode inputSchema,
        @JsonView(Views.R20250618.class) JsonNode outputSchema,
        @JsonView(Views.R20250326.class) ToolAnnotations annotations,
        @JsonView(Views.R20260728.class) Execution execution,
        @JsonProperty("_meta") @JsonView(Views.R20250618.class) JsonNode meta) {

    /** Hints for the client about what the tool does. */
    public record ToolAnnotations(String title, boolean readOnlyHint, boolean destructiveHint, boolean idempotentHint,
            boolean openWorldHint) {
    }

    /** How the tool may be run: {@code taskSupport} of the tasks extension. */
    public record Execution(String taskSupport) {
    }
}
