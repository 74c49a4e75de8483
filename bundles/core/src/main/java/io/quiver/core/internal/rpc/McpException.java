package io.quiver.core.internal.rpc;

/**
 * A request that fails with a JSON-RPC error. Its message goes to the client, so it must never
 * carry internal details: throw it only with text written for the client.
 */
public final class McpException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final int code;
    private final transient Object data;

    public McpException(int code, String message) {
        this(code, message, null);
    }

    public McpException(int code, String message, Object data) {
        super(message, null, false, false);
        this.code = code;
        this.data = data;
    }

    public int code() {
        return code;
    }

    public Object data() {
        return data;
    }

    public static McpException invalidParams(String message) {
        return new McpException(ErrorCodes.INVALID_PARAMS, message);
    }

    public RpcError toError() {
        return new RpcError(code, getMessage(), data);
    }
}
