package io.quiver.tools.conformance.internal;

import io.quiver.api.McpTool;
import io.quiver.api.Outcome;
import io.quiver.api.Tool;
import io.quiver.api.ToolCall;
import io.quiver.api.input.InputRequest;
import java.util.List;
import org.osgi.service.component.annotations.Component;

/**
 * Asks for three things in one round (a name by elicitation, a greeting by sampling, the client's
 * roots), asks again for whichever is still unanswered, and combines them once all three are in.
 */
@Component(service = Tool.class)
@McpTool(name = "test_input_required_result_multiple_inputs",
        description = "MRTR: asks in one round for a name (elicitation, user_name), a greeting (sampling, greeting) "
                + "and the client's roots (roots/list, client_roots)")
public final class InputRequiredMultipleInputsTool implements Tool {

    static final String NAME = "user_name";
    static final String GREETING = "greeting";
    static final String ROOTS = "client_roots";

    static final List<InputRequest> REQUESTS = List.of(
            Elicitations.oneField(NAME, "What is your name?", "name", "string", "Your name"),
            Inputs.sampling(GREETING, "Write a one-line friendly greeting.", 100),
            new InputRequest.Roots(ROOTS));

    @Override
    public Outcome call(ToolCall call) {
        return Inputs.askUnanswered(call, REQUESTS).orElseGet(() -> Outcome.text(
                "Hello, " + Elicitations.accepted(call, NAME, "name").orElse("whoever you are") + "! "
                        + "Greeting: " + Inputs.sampledText(call, GREETING).orElse("(none)") + ". "
                        + "Roots: " + Inputs.roots(call, ROOTS).map(Inputs::uris).orElse("(none)") + "."));
    }
}
