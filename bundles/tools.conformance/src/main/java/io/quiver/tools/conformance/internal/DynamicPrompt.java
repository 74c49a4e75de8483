package io.quiver.tools.conformance.internal;

import io.quiver.api.content.TextContent;
import io.quiver.api.prompt.McpPrompt;
import io.quiver.api.prompt.Prompt;
import io.quiver.api.prompt.PromptMessage;
import io.quiver.api.prompt.PromptRequest;
import io.quiver.api.prompt.PromptResult;
import java.util.List;
import java.util.Map;

/** The prompt {@code test_trigger_prompt_change} registers and unregisters (not a component of its own). */
final class DynamicPrompt implements Prompt {

    static final String NAME = "test_dynamic_prompt";
    static final String DESCRIPTION = "A prompt that test_trigger_prompt_change adds to and removes from the prompt list";

    static final Map<String, Object> PROPERTIES = Fixtures.ordered(
            McpPrompt.PREFIX_ + "name", NAME,
            McpPrompt.PREFIX_ + "description", DESCRIPTION);

    @Override
    public PromptResult get(PromptRequest request) {
        return new PromptResult(DESCRIPTION,
                List.of(new PromptMessage("user", new TextContent("This prompt comes and goes with test_trigger_prompt_change"))));
    }
}
