package io.quiver.tools.conformance.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quiver.api.completion.Completion;
import io.quiver.api.content.EmbeddedResource;
import io.quiver.api.content.ImageContent;
import io.quiver.api.content.ResourceContents;
import io.quiver.api.content.TextContent;
import io.quiver.api.prompt.PromptArgument;
import io.quiver.api.prompt.PromptMessage;
import io.quiver.api.prompt.PromptResult;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PromptsTest {

    @Test
    void simplePromptIsOneUserMessage() {
        PromptResult result = new SimplePrompt().get(new FakeRequests.Render("test_simple_prompt", Map.of()));
        assertEquals(List.of(new PromptMessage("user", new TextContent("This is a simple prompt for testing."))),
                result.messages());
    }

    @Test
    void promptWithArgumentsDeclaresAndSubstitutesBoth() {
        PromptWithArguments prompt = new PromptWithArguments();
        assertEquals(List.of("arg1", "arg2"), prompt.arguments().stream().map(PromptArgument::name).toList());
        assertTrue(prompt.arguments().stream().allMatch(PromptArgument::required));

        PromptResult result = prompt.get(new FakeRequests.Render(PromptWithArguments.NAME,
                Map.of("arg1", "testValue1", "arg2", "testValue2")));
        TextContent text = assertInstanceOf(TextContent.class, result.messages().get(0).content());
        assertEquals("Prompt with arguments: arg1='testValue1', arg2='testValue2'", text.text());
    }

    @Test
    void embeddedResourcePromptEmbedsTheGivenUri() {
        PromptWithEmbeddedResource prompt = new PromptWithEmbeddedResource();
        assertEquals("resourceUri", prompt.arguments().get(0).name());
        PromptResult result = prompt.get(new FakeRequests.Render("test_prompt_with_embedded_resource",
                Map.of("resourceUri", "test://example-resource")));
        EmbeddedResource embedded = assertInstanceOf(EmbeddedResource.class, result.messages().get(0).content());
        assertEquals(new ResourceContents.Text("test://example-resource", "text/plain",
                "Embedded resource content for testing."), embedded.resource());
        assertEquals(2, result.messages().size());
    }

    @Test
    void imagePromptStartsWithThePng() {
        PromptResult result = new PromptWithImage().get(new FakeRequests.Render("test_prompt_with_image", Map.of()));
        ImageContent image = assertInstanceOf(ImageContent.class, result.messages().get(0).content());
        assertEquals("image/png", image.mimeType());
        assertEquals(Fixtures.PNG_BASE64, image.data());
    }

    @Test
    void completerSuggestsValuesStartingWithWhatWasTyped() {
        PromptArgumentsCompleter completer = new PromptArgumentsCompleter();
        Completion arg1 = completer.complete(new FakeRequests.Complete("arg1", "test"));
        assertEquals(List.of("testValue1", "testAlpha"), arg1.values());
        assertEquals(2, arg1.total());
        assertEquals(List.of("testValue2"), completer.complete(new FakeRequests.Complete("arg2", "TESTv")).values());
        assertEquals(3, completer.complete(new FakeRequests.Complete("arg2", "")).values().size());
        assertEquals(Completion.none(), completer.complete(new FakeRequests.Complete("arg3", "t")));
    }
}
