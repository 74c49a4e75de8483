package io.quiver.shell.internal;

import java.util.Map;
import tools.jackson.databind.JsonNode;

/** The JSON-RPC messages the shell's in-process client sends, as records Jackson writes. */
final class Rpc {

    static final String VERSION = "2.0";

    private Rpc() {
    }

    /** A request. */
    record Request(String jsonrpc, long id, String method, Object params) {
        Request(long id, String method, Object params) {
            this(VERSION, id, method, params);
        }
    }

    /** A notification without parameters. */
    record Notification(String jsonrpc, String method) {
        Notification(String method) {
            this(VERSION, method);
        }
    }

    /** {@code notifications/cancelled}. */
    record Cancelled(String jsonrpc, String method, CancelledParams params) {
        Cancelled(long requestId, String reason) {
            this(VERSION, "notifications/cancelled", new CancelledParams(requestId, reason));
        }
    }

    record CancelledParams(long requestId, String reason) {
    }

    /** The answer to a server-to-client request the shell cannot serve. */
    record ErrorResponse(String jsonrpc, JsonNode id, Error error) {
        ErrorResponse(JsonNode id, int code, String message) {
            this(VERSION, id, new Error(code, message));
        }
    }

    record Error(int code, String message) {
    }

    /** {@code initialize} parameters: no client capabilities (no elicitation, no sampling, no roots). */
    record InitializeParams(String protocolVersion, Map<String, Object> capabilities, Implementation clientInfo) {
    }

    record Implementation(String name, String version) {
    }

    /** {@code tools/call} parameters. */
    record CallParams(String name, Map<String, Object> arguments) {
    }
}
