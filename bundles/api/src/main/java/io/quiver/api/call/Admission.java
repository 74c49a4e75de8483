package io.quiver.api.call;

import java.util.Map;

/** The host's answer to "may this call run?". */
public sealed interface Admission {

    /**
     * Run it, with these arguments ({@code null}: unchanged). Edited arguments are validated against
     * the tool's input schema again; invalid ones fail the call.
     */
    record Approve(Map<String, Object> arguments) implements Admission {
        public Approve {
            arguments = arguments == null ? null : Map.copyOf(arguments);
        }
    }

    /** Do not run it; the caller gets an error result with this reason (the model reads it). */
    record Deny(String reason) implements Admission {
    }

    static Admission approve() {
        return new Approve(null);
    }

    static Admission approve(Map<String, Object> editedArguments) {
        return new Approve(editedArguments);
    }

    static Admission deny(String reason) {
        return new Deny(reason);
    }
}
