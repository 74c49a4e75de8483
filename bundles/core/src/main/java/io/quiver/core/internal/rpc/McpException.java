package io.quiver.core.internal.rpc;

import io.quiver.api.transport.Receipt;
import java.util.Map;

/**
 * A request that fails with a JSON-RPC error. Its message goes to the client, so it must never
 * carry internal details: throw it only with text written for the client.
 */
public final class McpException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final int code;
    private final transient Object data;
    private final Receipt.Reason reason;

    public McpException(int code, String message) {
        this(code, message, null);
    }

    public McpException(int code, String message, Object data) {
        this(code, message, data, null);
    }

    /**
     * @param reason what the transport should signal besides the error response (an HTTP status),
     *     or {@code null} for an in-band error
     */
    public McpException(int code, String message, Object data, Receipt.Reason reason) {
        super(message, null, false, false);
        this.code = code;
        this.data = data;
        this.reason = reason;
    }

    /** What the transport should signal too, or {@code null}. */
    public Receipt.Reason reason() {
        return reason;
    }

    /** 2026-07-28: the request needs client capabilities the client did not declare (always HTTP 400). */
    public static McpException missingCapability(Map<String, Object> requiredCapabilities) {
        return new McpException(ErrorCodes.MISSING_CAPABILITY, "Missing required client capability",
                Map.of("requiredCapabilities", requiredCapabilities), Receipt.Reason.MISSING_CAPABILITY);
    }

    /** 2026-07-28: a header disagrees with the body. */
    public static McpException headerMismatch(String message) {
        return new McpException(ErrorCodes.HEADER_MISMATCH, message, null, Receipt.Reason.HEADER_MISMATCH);
    }

    public int code() {
        return code;
    }

    public Object data() {
        return data;
    }

    /** The server cannot take the request now (a limit, or it is stopping): try again later (HTTP 503). */
    public static McpException unavailable(String message) {
        return new McpException(ErrorCodes.SERVER_UNAVAILABLE, message, null, Receipt.Reason.UNAVAILABLE);
    }

    public static McpException invalidParams(String message) {
        return new McpException(ErrorCodes.INVALID_PARAMS, message);
    }

    public RpcError toError() {
        return new RpcError(code, getMessage(), data);
    }
}
