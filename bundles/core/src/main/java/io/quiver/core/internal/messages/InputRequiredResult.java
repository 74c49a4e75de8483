package io.quiver.core.internal.messages;

import java.util.Map;

/**
 * The stateless era's answer when input is needed first: what to ask the user, and the signed state
 * to send back with the answers.
 */
public record InputRequiredResult(Map<String, InputRequestWire> inputRequests, String requestState) implements Result {

    /** One request for input: the method that would ask for it in the session era, and its params. */
    public record InputRequestWire(String method, Map<String, Object> params) {
    }

    @Override
    public String resultType() {
        return "input_required";
    }
}
