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

/**
 * The elicitation fixtures' shared pieces: the two-attempt ask-then-report shape, one-field forms,
 * and reading a form answer.
 */
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

    /**
     * A form of one required field.
     *
     * @param type the field's JSON type ({@code string}, {@code boolean}, ...)
     */
    static InputRequest.Elicitation oneField(String key, String message, String field, String type,
            String description) {
        return new InputRequest.Elicitation(key, message,
                form(Fixtures.ordered(field, Fixtures.ordered("type", type, "description", description)),
                        List.of(field)));
    }

    /**
     * The value of one field of an accepted form answer; empty when the key has no answer, the
     * answer is not a form answer, the user did not accept, or the field is missing.
     */
    static Optional<Object> accepted(ToolCall call, String key, String field) {
        return call.answer(key)
                .filter(InputResponse.Elicited.class::isInstance)
                .map(InputResponse.Elicited.class::cast)
                .filter(InputResponse.Elicited::accepted)
                .map(elicited -> elicited.content().get(field));
    }

    /** Whether the user declined or cancelled the form filed under the key. */
    static boolean refused(ToolCall call, String key) {
        return call.answer(key).orElse(null) instanceof InputResponse.Elicited elicited && !elicited.accepted();
    }

    /** A form schema: {@code {type: object, properties, required}}. */
    static Map<String, Object> form(Map<String, Object> properties, List<String> required) {
        return Fixtures.ordered("type", "object", "properties", properties, "required", required);
    }
}
