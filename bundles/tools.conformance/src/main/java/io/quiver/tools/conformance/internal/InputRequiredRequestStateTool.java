package io.quiver.tools.conformance.internal;

import io.quiver.api.McpTool;
import io.quiver.api.Outcome;
import io.quiver.api.Tool;
import io.quiver.api.ToolCall;
import io.quiver.api.input.InputRequest;
import org.osgi.service.component.annotations.Component;

/**
 * Asks for a confirmation under the key {@code confirm}. The engine carries the answers between
 * rounds in its signed {@code requestState}; the final text says {@code state-ok}.
 */
@Component(service = Tool.class)
@McpTool(name = "test_input_required_result_request_state",
        description = "MRTR: asks for a confirmation (elicitation under the key confirm) and finishes once the "
                + "answer comes back with the request state")
public final class InputRequiredRequestStateTool implements Tool {

    static final String KEY = "confirm";
    static final InputRequest.Elicitation CONFIRM =
            Elicitations.oneField(KEY, "Please confirm", "ok", "boolean", "Whether to go ahead");

    @Override
    public Outcome call(ToolCall call) {
        return confirmThen(call, "state-ok");
    }

    /** Asks for the confirmation until it is answered, then reports it after the label. */
    static Outcome confirmThen(ToolCall call, String label) {
        if (Elicitations.refused(call, KEY)) {
            return Outcome.text(label + ": confirmation declined");
        }
        return Elicitations.accepted(call, KEY, "ok")
                .map(ok -> Outcome.text(label + ": confirmed=" + ok))
                .orElseGet(() -> Outcome.needsInput(CONFIRM));
    }
}
