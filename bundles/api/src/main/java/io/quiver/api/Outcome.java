package io.quiver.api;

import io.quiver.api.input.InputRequest;
import java.util.List;

/** The result of one attempt of a tool call. */
public sealed interface Outcome {

    /** The call is finished. */
    record Done(ToolResult result) implements Outcome {
        public Done {
            java.util.Objects.requireNonNull(result, "result");
        }
    }

    /**
     * The call needs answers before it can finish. The engine asks (the client, or the host) and
     * calls the tool again with every answer gathered so far.
     */
    record NeedsInput(List<InputRequest> requests) implements Outcome {
        public NeedsInput {
            if (requests == null || requests.isEmpty()) {
                throw new IllegalArgumentException("at least one input request is needed");
            }
            requests = List.copyOf(requests);
        }
    }

    /** A finished call. */
    static Outcome done(ToolResult result) {
        return new Done(result);
    }

    /** A finished call with one text block. */
    static Outcome text(String text) {
        return new Done(ToolResult.text(text));
    }

    /** A call that needs answers first. */
    static Outcome needsInput(InputRequest... requests) {
        return new NeedsInput(List.of(requests));
    }
}
