package io.quiver.tools.conformance.internal;

import io.quiver.api.McpTool;
import io.quiver.api.Outcome;
import io.quiver.api.Tool;
import io.quiver.api.ToolCall;
import org.osgi.service.component.annotations.Component;

/**
 * Asks for a confirmation under the key {@code confirm}, like the request-state fixture. The suite
 * answers with a tampered {@code requestState}, which the engine must reject before this tool runs.
 */
@Component(service = Tool.class)
@McpTool(name = "test_input_required_result_tampered_state",
        description = "MRTR: asks for a confirmation (elicitation under the key confirm); a retry whose request "
                + "state was altered must be rejected")
public final class InputRequiredTamperedStateTool implements Tool {

    @Override
    public Outcome call(ToolCall call) {
        return InputRequiredRequestStateTool.confirmThen(call, "state-verified");
    }
}
