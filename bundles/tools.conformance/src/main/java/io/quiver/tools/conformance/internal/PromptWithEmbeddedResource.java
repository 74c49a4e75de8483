package io.quiver.tools.conformance.internal;

import io.quiver.api.content.EmbeddedResource;
import io.quiver.api.content.ResourceContents;
import io.quiver.api.content.TextContent;
import io.quiver.api.prompt.McpPrompt;
import io.quiver.api.prompt.Prompt;
import io.quiver.api.prompt.PromptArgument;
import io.quiver.api.prompt.PromptMessage;
import io.quiver.api.prompt.PromptRequest;
import io.quiver.api.prompt.PromptResult;
import java.util.List;
import org.osgi.service.component.annotations.Component;

/** A prompt that embeds a text resource under the URI it is given, then asks to process it. */
@Component(service = Prompt.class)
@McpPrompt(name = "test_prompt_with_embedded_resource", title = "Prompt With Embedded Resource",
        description = "A prompt that includes an embedded resource")
public final class PromptWithEmbeddedResource implements Prompt {

    static final String TEXT = "Embedded resource content for testing.";

    @Override
    public List<PromptArgument> arguments() {
        return List.of(new PromptArgument("resourceUri", "URI of the resource to embed", true));
    }

    @Override
    public PromptResult get(PromptRequest request) {
        String uri = request.arguments().get("resourceUri");
        return new PromptResult("A prompt that includes an embedded resource", List.of(
                new PromptMessage("user", new EmbeddedResource(new ResourceContents.Text(uri, Fixtures.TEXT, TEXT))),
                new PromptMessage("user", new TextContent("Please process the embedded resource above."))));
    }
}
