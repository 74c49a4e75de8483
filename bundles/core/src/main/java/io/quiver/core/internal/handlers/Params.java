package io.quiver.core.internal.handlers;

import io.quiver.core.internal.rpc.McpException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** Reading request params with clear invalid-params errors. */
final class Params {

    private Params() {
    }

    static String requireString(JsonNode params, String field) {
        JsonNode value = params.get(field);
        if (value == null || !value.isString() || value.stringValue().isEmpty()) {
            throw McpException.invalidParams("Invalid params: '" + field + "' must be a non-empty string");
        }
        return value.stringValue();
    }

    static String optionalString(JsonNode params, String field) {
        JsonNode value = params.get(field);
        if (value == null || value.isNull()) {
            return null;
        }
        if (!value.isString()) {
            throw McpException.invalidParams("Invalid params: '" + field + "' must be a string");
        }
        return value.stringValue();
    }

    static ObjectNode optionalObject(JsonNode params, String field) {
        JsonNode value = params.get(field);
        if (value == null || value.isNull()) {
            return null;
        }
        if (!value.isObject()) {
            throw McpException.invalidParams("Invalid params: '" + field + "' must be an object");
        }
        return (ObjectNode) value;
    }

    static String cursor(JsonNode params) {
        return optionalString(params, "cursor");
    }
}
