package io.quiver.tools.conformance.internal;

import io.quiver.api.McpTool;
import io.quiver.api.Outcome;
import io.quiver.api.Tool;
import io.quiver.api.ToolCall;
import io.quiver.api.input.InputRequest;
import java.util.Optional;
import org.osgi.service.component.annotations.Component;

/**
 * Two rounds of questions: the name first ({@code step1}), then, once it is known, the favourite
 * colour ({@code step2}). Every attempt sees all answers so far, so each round is decided by which
 * answers are present.
 */
@Component(service = Tool.class)
@McpTool(name = "test_input_required_result_multi_round",
        description = "MRTR: asks for a name (step1), then in a second round for a favorite color (step2), "
                + "then answers")
public final class InputRequiredMultiRoundTool implements Tool {

    static final String STEP1 = "step1";
    static final String STEP2 = "step2";
    static final InputRequest.Elicitation ASK_NAME =
            Elicitations.oneField(STEP1, "Step 1: What is your name?", "name", "string", "Your name");
    static final InputRequest.Elicitation ASK_COLOR =
            Elicitations.oneField(STEP2, "Step 2: What is your favorite color?", "color", "string", "Your favorite color");

    @Override
    public Outcome call(ToolCall call) {
        if (Elicitations.refused(call, STEP1) || Elicitations.refused(call, STEP2)) {
            return Outcome.text("Questions declined");
        }
        Optional<Object> name = Elicitations.accepted(call, STEP1, "name");
        if (name.isEmpty()) {
            return Outcome.needsInput(ASK_NAME);
        }
        Optional<Object> color = Elicitations.accepted(call, STEP2, "color");
        if (color.isEmpty()) {
            return Outcome.needsInput(ASK_COLOR);
        }
        return Outcome.text("Hello, " + name.get() + "! Your favorite color is " + color.get() + ".");
    }
}
