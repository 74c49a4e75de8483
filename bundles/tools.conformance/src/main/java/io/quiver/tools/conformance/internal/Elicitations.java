package io.quiver.tools.conformance.internal;

import io.quiver.api.Outcome;
import io.quiver.api.ToolCall;
import io.quiver.api.ToolResult;
import io.quiver.api.input.InputRequest;
import io.quiver.api.input.InputResponse;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/** The two-attempt shape every elicitation fixture shares: ask with a form, then report the answer. */
final class Elicitations {

    private Elicitations() {
    }

    /**
     * Asks for the form on the first attempt; on the next one reports the user's action and content.
     *
     * @param key the input request key
     * @param message the text shown to the user
     * @param schema the requested schema (a flat object schema)
     * @param label how the report starts, e.g. {@code User response}
     */
    static Outcome askThenReport(ToolCall call, String key, String message, Map<String, Object> schema,
            String label) {
        Optional<InputResponse> answer = call.answer(key);
        if (answer.isEmpty()) {
            return Outcome.needsInput(new InputRequest.Elicitation(key, message, schema));
        }
        if (answer.get() instanceof InputResponse.Elicited elicited) {
            // sorted, so the report reads the same whatever map the engine handed over
            return Outcome.text(label + ": action=" + elicited.action()
                    + ", content=" + new TreeMap<>(elicited.content()));
        }
        return Outcome.done(ToolResult.error("Expected an elicitation result, got " + answer.get()));
    }

    /** A form schema: {@code {type: object, properties, required}}. */
    static Map<String, Object> form(Map<String, Object> properties, List<String> required) {
        return Fixtures.ordered("type", "object", "properties", properties, "required", required);
    }
}
