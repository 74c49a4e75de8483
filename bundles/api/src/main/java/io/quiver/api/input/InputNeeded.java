package io.quiver.api.input;

import java.util.List;

/**
 * Thrown by a prompt or resource that needs answers before it can render: the engine obtains them
 * (asking the client, or answering a 2026-07-28 client with {@code input_required}) and calls it
 * again with every answer so far in the request's {@code answers()}. Tools return
 * {@link io.quiver.api.Outcome#needsInput} instead.
 */
public final class InputNeeded extends Exception {

    private static final long serialVersionUID = 1L;

    private final transient List<InputRequest> requests;

    public InputNeeded(InputRequest... requests) {
        super("input needed", null, false, false);
        if (requests.length == 0) {
            throw new IllegalArgumentException("at least one input request is needed");
        }
        this.requests = List.of(requests);
    }

    /** What is needed. */
    public List<InputRequest> requests() {
        return requests;
    }
}
