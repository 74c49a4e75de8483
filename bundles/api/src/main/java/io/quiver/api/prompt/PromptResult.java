package io.quiver.api.prompt;

import java.util.List;

/** A rendered prompt. */
public record PromptResult(String description, List<PromptMessage> messages) {

    public PromptResult {
        messages = List.copyOf(messages);
    }
}
