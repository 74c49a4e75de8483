package io.quiver.tools.conformance.internal;

import io.quiver.api.content.ImageContent;
import io.quiver.api.content.TextContent;
import io.quiver.api.prompt.McpPrompt;
import io.quiver.api.prompt.Prompt;
import io.quiver.api.prompt.PromptMessage;
import io.quiver.api.prompt.PromptRequest;
import io.quiver.api.prompt.PromptResult;
import java.util.List;
import org.osgi.service.component.annotations.Component;

/** A prompt made of an image and a request to analyse it. */
@Component(service = Prompt.class)
@McpPrompt(name = "test_prompt_with_image", title = "Prompt With Image",
        description = "A prompt that includes image content")
public final class PromptWithImage implements Prompt {

    @Override
    public PromptResult get(PromptRequest request) {
        return new PromptResult("A prompt that includes image content", List.of(
                new PromptMessage("user", new ImageContent(Fixtures.PNG_BASE64, Fixtures.PNG)),
                new PromptMessage("user", new TextContent("Please analyze the image above."))));
    }
}
