package io.quiver.core.internal.pipeline;

import tools.jackson.core.JacksonException;
import tools.jackson.core.exc.InputCoercionException;

/**
 * Arguments that passed the tool's schema but do not fit the Java types the tool converts them to
 * ({@link io.quiver.api.ToolCall#arguments(Class)}): a number beyond an {@code int}, say. The caller's
 * mistake, answered like a schema violation, not a failure of the tool.
 */
final class ArgumentsMismatch extends RuntimeException {

    private static final long serialVersionUID = 1L;

    ArgumentsMismatch(JacksonException cause) {
        super(describe(cause), cause);
    }

    /** Where (a JSON Pointer) and, for numbers out of range, why; never the tool's class names. */
    private static String describe(JacksonException e) {
        StringBuilder pointer = new StringBuilder();
        for (JacksonException.Reference ref : e.getPath()) {
            pointer.append('/').append(ref.getPropertyName() != null ? ref.getPropertyName() : ref.getIndex());
        }
        String where = pointer.length() == 0 ? "the arguments" : pointer.toString();
        if (e instanceof InputCoercionException coercion) {
            return where + ": the value is out of the range this tool accepts (" + coercion.getTargetType().getSimpleName()
                    + ")";
        }
        return where + ": the value does not fit the type this tool expects";
    }
}
