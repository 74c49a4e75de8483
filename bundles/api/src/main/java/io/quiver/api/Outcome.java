package io.quiver.api;

import io.quiver.api.input.InputRequest;
import java.util.List;
import java.util.Objects;

/** The result of one attempt of a tool call. */
public sealed interface Outcome {

    /** The call is finished. */
    record Done(ToolResult result) implements Outcome {
        public Done {
            Objects.requireNonNull(result, "result");
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

    /**
     * Hand the rest of the call to a task: the engine answers the client with a task at once and calls
     * the tool again, off the request, with every answer gathered so far and {@link ToolCall#escalated()}
     * true. For tools that gather their input in the call first ({@code inputBeforeTask}) and then do
     * long work. Where the call cannot become a task (the client did not declare the tasks extension,
     * or it already is one) the engine calls the tool again at once, in the call, the same way.
     */
    record Escalate() implements Outcome {
    }

    /** A finished call. */
    static Outcome done(ToolResult result) {
        return new Done(result);
    }

    /** A finished call with one text block. */
    static Outcome text(String text) {
        return new Done(ToolResult.text(text));
    }

    /** Hand the rest of the call to a task ({@link Escalate}). */
    static Outcome escalate() {
        return new Escalate();
    }

    /** A call that needs answers first. */
    static Outcome needsInput(InputRequest... requests) {
        return new NeedsInput(List.of(requests));
    }
}
