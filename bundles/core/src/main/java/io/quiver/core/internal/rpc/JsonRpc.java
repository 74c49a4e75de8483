package io.quiver.core.internal.rpc;

import io.quiver.core.internal.json.Json;
import java.util.LinkedHashMap;
import java.util.Map;
import tools.jackson.core.JacksonException;
import tools.jackson.core.exc.StreamConstraintsException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectWriter;
import tools.jackson.databind.exc.MismatchedInputException;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.NullNode;
import tools.jackson.databind.node.ObjectNode;

/** The JSON-RPC 2.0 codec: bytes to {@link Message}, results and errors to bytes. */
public final class JsonRpc {

    private JsonRpc() {
    }

    /** What parsing one body gave: a message, or the error response to send instead. */
    public sealed interface Parsed {
        /** A well-formed message. */
        record Ok(Message message) implements Parsed {
        }

        /** Not a message; {@code id} is the request id when one could be read, else null. */
        record Bad(int code, String reason, JsonNode id) implements Parsed {
        }

        /**
         * A JSON-RPC batch: an array, each element to be read with {@link #parse(JsonNode)}. Only the
         * 2025-03-26 revision has batches (2025-06-18 removed them); whether one is taken is the engine's call.
         */
        record Batch(ArrayNode elements) implements Parsed {
        }
    }

    /** Parses one body: a JSON-RPC message, or a batch of them. */
    public static Parsed parse(byte[] body) {
        if (wideEncoding(body)) {
            return new Parsed.Bad(ErrorCodes.PARSE_ERROR, "Parse error: the body must be UTF-8 (it looks like UTF-16 or UTF-32)",
                    null);
        }
        JsonNode node;
        try {
            node = Json.MAPPER.readTree(body);
        } catch (JacksonException e) {
            return new Parsed.Bad(ErrorCodes.PARSE_ERROR, parseError(e), null);
        }
        if (node == null || node.isMissingNode()) {
            return new Parsed.Bad(ErrorCodes.PARSE_ERROR, "Parse error: the body is empty", null);
        }
        if (node.isArray()) {
            return new Parsed.Batch((ArrayNode) node);
        }
        return parse(node);
    }

    /**
     * Whether a body is in UTF-16 or UTF-32, which Jackson would detect and read though MCP messages are UTF-8: a
     * byte-order mark of those, or a zero byte among the first two (no UTF-8 JSON text has one there).
     */
    static boolean wideEncoding(byte[] body) {
        if (body.length < 2) {
            return false;
        }
        int first = body[0] & 0xff;
        int second = body[1] & 0xff;
        return first == 0 || second == 0 || (first == 0xfe && second == 0xff) || (first == 0xff && second == 0xfe);
    }

    /** How Jackson's message for a key named twice begins, the key following it in quotes. */
    private static final String DUPLICATE = "Duplicate property \"";

    /**
     * What a client is told of a body that could not be read: not valid JSON, or an object that names a key twice
     * (refused, {@link Json#MAPPER}: which of the two values counts is for each reader to guess).
     */
    static String parseError(JacksonException e) {
        String message = e.getOriginalMessage();
        if (e instanceof MismatchedInputException && message != null && message.startsWith(DUPLICATE)) {
            int end = message.indexOf('"', DUPLICATE.length());
            String key = end < 0 ? "" : message.substring(DUPLICATE.length(), end);
            return "Parse error: the key \"" + (key.length() > 64 ? key.substring(0, 64) + "..." : key)
                    + "\" appears twice in one object";
        }
        if (e instanceof StreamConstraintsException) {
            // valid JSON perhaps, but past a reader's limit (nesting deeper than 500, say): the limit is what to fix
            return "Parse error: the body exceeds a limit of the JSON reader (" + message + ")";
        }
        return "Parse error: the body is not valid JSON";
    }

    /** Reads one JSON-RPC message (a body, or an element of a batch); never a batch. */
    public static Parsed parse(JsonNode node) {
        if (!node.isObject()) {
            return new Parsed.Bad(ErrorCodes.INVALID_REQUEST, "Invalid Request: expected a JSON object", null);
        }
        JsonNode id = node.get("id");
        JsonNode validId = id != null && (id.isString() || id.isIntegralNumber()) ? id : null;
        if (!"2.0".equals(stringOrNull(node.get("jsonrpc")))) {
            return new Parsed.Bad(ErrorCodes.INVALID_REQUEST, "Invalid Request: jsonrpc must be \"2.0\"", validId);
        }
        JsonNode method = node.get("method");
        if (method == null) {
            if ((id == null || id.isNull()) && node.has("error") && !node.has("result")) {
                // an error about a message whose id its sender could not read: a response, to nothing of ours
                return new Parsed.Ok(new Message.Response(NullNode.getInstance(), null, node.get("error")));
            }
            if (validId == null || (node.has("result") == node.has("error"))) {
                return new Parsed.Bad(ErrorCodes.INVALID_REQUEST,
                        "Invalid Request: neither a request, a notification nor a response", validId);
            }
            return new Parsed.Ok(new Message.Response(validId, node.get("result"), node.get("error")));
        }
        if (!method.isString() || method.stringValue().isEmpty()) {
            return new Parsed.Bad(ErrorCodes.INVALID_REQUEST, "Invalid Request: method must be a string", validId);
        }
        JsonNode params = node.get("params");
        ObjectNode paramsObject;
        if (params == null || params.isNull()) {
            paramsObject = Json.MAPPER.createObjectNode();
        } else if (params.isObject()) {
            paramsObject = (ObjectNode) params;
        } else if (params.isArray() && validId != null) {
            // by-position params are valid JSON-RPC; MCP's methods take theirs by name
            return new Parsed.Bad(ErrorCodes.INVALID_PARAMS, "Invalid params: params must be an object, not an array",
                    validId);
        } else {
            return new Parsed.Bad(ErrorCodes.INVALID_REQUEST, "Invalid Request: params must be an object", validId);
        }
        if (id == null) {
            return new Parsed.Ok(new Message.Notification(method.stringValue(), paramsObject));
        }
        if (validId == null) {
            return new Parsed.Bad(ErrorCodes.INVALID_REQUEST,
                    "Invalid Request: id must be a string or an integer", null);
        }
        return new Parsed.Ok(new Message.Request(validId, method.stringValue(), paramsObject));
    }

    /** A success response. */
    public static byte[] result(JsonNode id, Object result) {
        return Json.MAPPER.writeValueAsBytes(new Response(id, result));
    }

    /**
     * A success response written for a client of one protocol revision: properties marked with a
     * later revision's view are left out.
     */
    public static byte[] result(JsonNode id, Object result, Class<?> view) {
        return WRITERS.get(view).writeValueAsBytes(new Response(id, result));
    }

    /** A writer per view, made once: {@code writerWithView} makes a new configuration at every call. */
    private static final ClassValue<ObjectWriter> WRITERS = new ClassValue<>() {
        @Override
        protected ObjectWriter computeValue(Class<?> view) {
            return Json.MAPPER.writerWithView(view);
        }
    };

    /** The envelope of a success response. */
    private record Response(String jsonrpc, JsonNode id, Object result) {
        Response(JsonNode id, Object result) {
            this("2.0", id, result);
        }
    }

    /** An error response; {@code id} may be null when the request's id could not be read. */
    public static byte[] error(JsonNode id, RpcError error) {
        ObjectNode message = Json.MAPPER.createObjectNode();
        message.put("jsonrpc", "2.0");
        message.set("id", id == null ? Json.MAPPER.nullNode() : id);
        message.set("error", Json.MAPPER.valueToTree(error));
        return Json.MAPPER.writeValueAsBytes(message);
    }

    /** A notification. */
    public static byte[] notification(String method, Object params) {
        Map<String, Object> message = new LinkedHashMap<>();
        message.put("jsonrpc", "2.0");
        message.put("method", method);
        if (params != null) {
            message.put("params", params);
        }
        return Json.MAPPER.writeValueAsBytes(message);
    }

    /** A request this side sends. */
    public static byte[] request(String id, String method, Object params) {
        Map<String, Object> message = new LinkedHashMap<>();
        message.put("jsonrpc", "2.0");
        message.put("id", id);
        message.put("method", method);
        if (params != null) {
            message.put("params", params);
        }
        return Json.MAPPER.writeValueAsBytes(message);
    }

    private static String stringOrNull(JsonNode node) {
        return node != null && node.isString() ? node.stringValue() : null;
    }
}
