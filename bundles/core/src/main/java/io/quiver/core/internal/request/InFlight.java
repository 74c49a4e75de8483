package io.quiver.core.internal.request;

import tools.jackson.databind.JsonNode;

/** A request a session has in flight, as far as the session needs to know it: it can be cancelled. */
public interface InFlight {

    /** Stops the request; its client gets no response (or the revision's answer for a cancelled request). */
    void cancel();

    /**
     * The key a request id is filed under in its session: the id's JSON text, so the number
     * {@code 1} and the string {@code "1"} stay two ids, as JSON-RPC has it.
     */
    static String key(JsonNode id) {
        // the usual ids without a serializer: an integer's text, a string's in quotes (a number never starts with one)
        if (id.isInt() || id.isLong()) {
            return Long.toString(id.longValue());
        }
        if (id.isString()) {
            return "\"" + id.stringValue();
        }
        return id.toString();
    }
}
