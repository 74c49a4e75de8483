package io.quiver.tools.conformance.internal;

import io.quiver.api.content.TextContent;
import io.quiver.api.input.InputNeeded;
import io.quiver.api.input.InputResponse;
import io.quiver.api.prompt.McpPrompt;
import io.quiver.api.prompt.Prompt;
import io.quiver.api.prompt.PromptMessage;
import io.quiver.api.prompt.PromptRequest;
import io.quiver.api.prompt.PromptResult;
import java.util.List;
import org.osgi.service.component.annotations.Component;

/** A prompt that asks the user for its context before it renders (multi-round input on prompts/get). */
@Component(service = Prompt.class)
@McpPrompt(name = InputRequiredPrompt.NAME, title = "Input Required Prompt",
        description = "Asks for the context to use, then renders a prompt with it")
public final class InputRequiredPrompt implements Prompt {

    static final String NAME = "test_input_required_result_prompt";
    static final String KEY = "user_context";

    @Override
    public PromptResult get(PromptRequest request) throws InputNeeded {
        if (request.answer(KEY).orElse(null) instanceof InputResponse.Elicited answer && answer.accepted()
                && answer.content().get("context") != null) {
            String text = "Prompt with context: " + answer.content().get("context");
            return new PromptResult("A prompt rendered with the user's context",
                    List.of(new PromptMessage("user", new TextContent(text))));
        }
        throw new InputNeeded(Elicitations.oneField(KEY, "What context should the prompt use?", "context", "string",
                "The context for the prompt"));
    }
}
