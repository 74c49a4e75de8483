package io.quiver.core.internal.messages;

import java.util.List;

/** The pages of the four lists, each with the cursor of the next page ({@code null} on the last). */
public final class Lists {

    private Lists() {
    }

    /** A page of {@code tools/list}. */
    public record Tools(List<ToolDescriptor> tools, String nextCursor) implements Result {
    }

    /** A page of {@code resources/list}. */
    public record Resources(List<ResourceDescriptor> resources, String nextCursor) implements Result {
    }

    /** A page of {@code resources/templates/list}. */
    public record ResourceTemplates(List<TemplateDescriptor> resourceTemplates, String nextCursor) implements Result {
    }

    /** A page of {@code prompts/list}. */
    public record Prompts(List<PromptDescriptor> prompts, String nextCursor) implements Result {
    }
}
