package io.quiver.tools.conformance.internal;

import io.quiver.api.ClientInfo;
import io.quiver.api.McpTool;
import io.quiver.api.Outcome;
import io.quiver.api.Tool;
import io.quiver.api.ToolCall;
import io.quiver.api.input.InputRequest;
import java.util.ArrayList;
import java.util.List;
import org.osgi.service.component.annotations.Component;

/**
 * Asks only for what the client declared: a form when it supports elicitation, a completion
 * ({@code sample_input}) when it supports sampling. A client that declared neither gets a plain answer.
 */
@Component(service = Tool.class)
@McpTool(name = "test_input_required_result_capabilities",
        description = "MRTR: asks only for the kinds of input the client declared (elicitation, sampling)")
public final class InputRequiredCapabilitiesTool implements Tool {

    static final String ELICIT = "elicit_input";
    static final String SAMPLE = "sample_input";
    static final int MAX_TOKENS = 50;

    @Override
    public Outcome call(ToolCall call) {
        List<InputRequest> requests = supported(call.context().client());
        if (requests.isEmpty()) {
            return Outcome.text("No supported input capabilities declared");
        }
        return Inputs.askUnanswered(call, requests).orElseGet(() ->
                Outcome.text("capabilities-ok: received "
                        + String.join(",", requests.stream().map(InputRequest::key).toList())));
    }

    static List<InputRequest> supported(ClientInfo client) {
        List<InputRequest> requests = new ArrayList<>();
        if (client.supports("elicitation")) {
            requests.add(Elicitations.oneField(ELICIT, "Elicitation input", "value", "string", "Any value"));
        }
        if (client.supports("sampling")) {
            requests.add(Inputs.sampling(SAMPLE, "Sample request", MAX_TOKENS));
        }
        return requests;
    }
}
