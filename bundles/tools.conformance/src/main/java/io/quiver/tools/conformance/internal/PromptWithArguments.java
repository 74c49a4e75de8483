package io.quiver.tools.conformance.internal;

import io.quiver.api.content.TextContent;
import io.quiver.api.prompt.McpPrompt;
import io.quiver.api.prompt.Prompt;
import io.quiver.api.prompt.PromptArgument;
import io.quiver.api.prompt.PromptMessage;
import io.quiver.api.prompt.PromptRequest;
import io.quiver.api.prompt.PromptResult;
import java.util.List;
import org.osgi.service.component.annotations.Component;

/** A prompt with two required arguments, both substituted into its message. */
@Component(service = Prompt.class)
@McpPrompt(name = PromptWithArguments.NAME, title = "Prompt With Arguments",
        description = "A prompt with required arguments")
public final class PromptWithArguments implements Prompt {

    static final String NAME = "test_prompt_with_arguments";

    @Override
    public List<PromptArgument> arguments() {
        return List.of(new PromptArgument("arg1", "First test argument", true),
                new PromptArgument("arg2", "Second test argument", true));
    }

    @Override
    public PromptResult get(PromptRequest request) {
        String text = "Prompt with arguments: arg1='" + request.arguments().get("arg1")
                + "', arg2='" + request.arguments().get("arg2") + "'";
        return new PromptResult("A prompt with required arguments",
                List.of(new PromptMessage("user", new TextContent(text))));
    }
}
