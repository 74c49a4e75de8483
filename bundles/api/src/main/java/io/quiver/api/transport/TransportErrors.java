package io.quiver.api.transport;

/**
 * The JSON-RPC error codes a transport answers with when it refuses a message itself (before or
 * instead of the engine), so that every transport and the engine use the same ones.
 */
public final class TransportErrors {

    /** JSON-RPC: the message is not a valid request (a missing session id, an unsupported revision). */
    public static final int INVALID_REQUEST = -32600;
    /** JSON-RPC: the server failed. */
    public static final int INTERNAL_ERROR = -32603;
    /**
     * A refusal of this server (JSON-RPC's implementation-defined range): a foreign Host or Origin, a
     * wrong media type, a body too large or too slow, a limit reached, the server stopping. The HTTP
     * status says which.
     */
    public static final int SERVER_ERROR = -32000;
    /** The session named is unknown or has ended (HTTP 404): the client starts a new one. */
    public static final int SESSION_NOT_FOUND = -32001;

    private TransportErrors() {
    }
}
