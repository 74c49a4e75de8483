package io.quiver.tools.conformance.internal;

import io.quiver.api.McpTool;
import io.quiver.api.Outcome;
import io.quiver.api.Tool;
import io.quiver.api.ToolCall;
import org.osgi.framework.BundleContext;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;

/**
 * Changes the tool list for real: each call registers {@link DynamicTool} when it is absent and
 * unregisters it when present, so listeners get {@code notifications/tools/list_changed}.
 */
@Component(service = Tool.class)
@McpTool(name = "test_trigger_tool_change",
        description = "Changes the tool list: adds the tool " + DynamicTool.NAME + " if it is absent, else removes it")
public final class TriggerToolChangeTool implements Tool {

    private final ServiceToggle toggle;

    @Activate
    public TriggerToolChangeTool(BundleContext context) {
        toggle = ServiceToggle.of(context, Tool.class, new DynamicTool(), DynamicTool.PROPERTIES);
    }

    @Deactivate
    void deactivate() {
        toggle.off();
    }

    @Override
    public Outcome call(ToolCall call) {
        return Outcome.text("Mutation triggered: " + DynamicTool.NAME + (toggle.flip() ? " added" : " removed"));
    }
}
