package io.quiver.core.internal.rpc;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** A parsed JSON-RPC 2.0 message. */
public sealed interface Message {

    /** The params of a request or notification; null for a response. */
    default ObjectNode params() {
        return null;
    }

    /** A request: has an id and a method. {@code params} is an object, possibly empty. */
    record Request(JsonNode id, String method, ObjectNode params) implements Message {
    }

    /** A notification: a method and no id. */
    record Notification(String method, ObjectNode params) implements Message {
    }

    /** A response to a request this side sent: a result or an error. */
    record Response(JsonNode id, JsonNode result, JsonNode error) implements Message {
    }
}
