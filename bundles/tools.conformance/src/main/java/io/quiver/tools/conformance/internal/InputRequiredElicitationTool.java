package io.quiver.tools.conformance.internal;

import io.quiver.api.McpTool;
import io.quiver.api.Outcome;
import io.quiver.api.Tool;
import io.quiver.api.ToolCall;
import io.quiver.api.input.InputRequest;
import org.osgi.service.component.annotations.Component;

/**
 * Asks for the user's name under the key {@code user_name} and greets them. It needs no earlier
 * round: an answer that arrives with the first attempt is used as is, extra answers are ignored,
 * and a missing or unusable answer is asked for again.
 */
@Component(service = Tool.class)
@McpTool(name = "test_input_required_result_elicitation",
        description = "MRTR: asks for the user's name (elicitation under the key user_name), then greets them")
public final class InputRequiredElicitationTool implements Tool {

    static final String KEY = "user_name";
    static final InputRequest.Elicitation ASK =
            Elicitations.oneField(KEY, "What is your name?", "name", "string", "Your name");

    @Override
    public Outcome call(ToolCall call) {
        if (Elicitations.refused(call, KEY)) {
            return Outcome.text("Hello, whoever you are!");
        }
        return Elicitations.accepted(call, KEY, "name")
                .filter(String.class::isInstance)
                .map(name -> Outcome.text("Hello, " + name + "!"))
                .orElseGet(() -> Outcome.needsInput(ASK));
    }
}
