package io.quiver.tools.conformance.internal;

import io.quiver.api.McpTool;
import io.quiver.api.Outcome;
import io.quiver.api.Tool;
import io.quiver.api.ToolCall;
import org.osgi.service.component.annotations.Component;

/** Gathers the user's name in the call itself, then hands the rest to a task. */
@Component(service = Tool.class)
@McpTool(name = "test_tool_with_task", taskSupport = "required", inputBeforeTask = true,
        description = "Asks for a name (input_required), then answers as a task")
public final class ToolWithTask implements Tool {

    @Override
    public Outcome call(ToolCall call) {
        return Elicitations.accepted(call, "user_name", "name")
                .map(name -> call.escalated() ? Outcome.text("Task finished for " + name) : Outcome.escalate())
                .orElseGet(() -> Outcome.needsInput(Elicitations.oneField("user_name", "What is your name?", "name",
                        "string", "Your name")));
    }
}
