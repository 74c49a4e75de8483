package io.quiver.tools.conformance.internal;

import io.quiver.api.McpTool;
import io.quiver.api.Outcome;
import io.quiver.api.Tool;
import io.quiver.api.ToolCall;
import io.quiver.api.prompt.Prompt;
import org.osgi.framework.BundleContext;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;

/**
 * Changes the prompt list for real: each call registers {@link DynamicPrompt} when it is absent and
 * unregisters it when present, so listeners get {@code notifications/prompts/list_changed}.
 */
@Component(service = Tool.class)
@McpTool(name = "test_trigger_prompt_change",
        description = "Changes the prompt list: adds the prompt " + DynamicPrompt.NAME + " if it is absent, else removes it")
public final class TriggerPromptChangeTool implements Tool {

    private final ServiceToggle toggle;

    @Activate
    public TriggerPromptChangeTool(BundleContext context) {
        toggle = ServiceToggle.of(context, Prompt.class, new DynamicPrompt(), DynamicPrompt.PROPERTIES);
    }

    @Deactivate
    void deactivate() {
        toggle.off();
    }

    @Override
    public Outcome call(ToolCall call) {
        return Outcome.text("Mutation triggered: " + DynamicPrompt.NAME + (toggle.flip() ? " added" : " removed"));
    }
}
