package io.quiver.core.internal.messages;

import io.quiver.api.prompt.PromptMessage;
import io.quiver.api.prompt.PromptResult;
import java.util.List;

/** The answer to {@code prompts/get}; message content an older client cannot show is replaced by a note. */
public record GetPromptResult(String description, List<PromptMessage> messages) implements Result {

    public static GetPromptResult of(PromptResult result) {
        return new GetPromptResult(result.description(), result.messages());
    }

    @Override
    public GetPromptResult forRevision(String version) {
        return new GetPromptResult(description, messages.stream()
                .map(m -> new PromptMessage(m.role(), ContentNotes.forRevision(m.content(), version))).toList());
    }
}
