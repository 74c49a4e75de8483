package io.quiver.tools.conformance.internal;

import io.quiver.api.content.TextContent;
import io.quiver.api.prompt.McpPrompt;
import io.quiver.api.prompt.Prompt;
import io.quiver.api.prompt.PromptMessage;
import io.quiver.api.prompt.PromptRequest;
import io.quiver.api.prompt.PromptResult;
import java.util.List;
import org.osgi.service.component.annotations.Component;

/** A prompt without arguments: one user message. */
@Component(service = Prompt.class)
@McpPrompt(name = "test_simple_prompt", title = "Simple Test Prompt", description = "A simple prompt without arguments")
public final class SimplePrompt implements Prompt {

    static final String TEXT = "This is a simple prompt for testing.";

    @Override
    public PromptResult get(PromptRequest request) {
        return new PromptResult("A simple prompt without arguments",
                List.of(new PromptMessage("user", new TextContent(TEXT))));
    }
}
