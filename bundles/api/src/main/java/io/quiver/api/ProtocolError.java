package io.quiver.api;

/**
 * Thrown by a tool, prompt, resource or completer that refuses a request at the protocol level rather than failing
 * at its work: the client receives a JSON-RPC error with this code and message (a task ends {@code failed}).
 * For failures the model should read and react to, return {@link ToolResult#error} instead. Any
 * other exception gives a generic error and keeps its message in the server log.
 */
public final class ProtocolError extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final int code;
    private final transient Object data;

    /**
     * @param code a JSON-RPC error code, for example -32602 for invalid params
     * @param message text for the client (never internal details)
     */
    public ProtocolError(int code, String message) {
        this(code, message, null);
    }

    /**
     * @param code a JSON-RPC error code, for example -32602 for invalid params
     * @param message text for the client (never internal details)
     * @param data the error's {@code data} member: a value the server's JSON mapper writes (a map, list, string,
     *     number or boolean), or null for none (since 1.7)
     */
    public ProtocolError(int code, String message, Object data) {
        super(message, null, false, false);
        this.code = code;
        this.data = data;
    }

    public int code() {
        return code;
    }

    /** The error's {@code data} member, or null (since 1.7). */
    public Object data() {
        return data;
    }
}
