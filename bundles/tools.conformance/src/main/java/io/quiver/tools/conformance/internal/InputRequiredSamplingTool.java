package io.quiver.tools.conformance.internal;

import io.quiver.api.McpTool;
import io.quiver.api.Outcome;
import io.quiver.api.Tool;
import io.quiver.api.ToolCall;
import org.osgi.service.component.annotations.Component;

/** Asks the client's model a question under the key {@code capital_question} and reports its answer. */
@Component(service = Tool.class)
@McpTool(name = "test_input_required_result_sampling",
        description = "MRTR: asks the client's model for the capital of France (sampling under the key "
                + "capital_question), then reports the answer")
public final class InputRequiredSamplingTool implements Tool {

    static final String KEY = "capital_question";
    static final String QUESTION = "What is the capital of France?";
    static final int MAX_TOKENS = 100;

    @Override
    public Outcome call(ToolCall call) {
        return Inputs.sampledText(call, KEY)
                .map(answer -> Outcome.text("Sampling result: " + answer))
                .orElseGet(() -> Outcome.needsInput(Inputs.sampling(KEY, QUESTION, MAX_TOKENS)));
    }
}
