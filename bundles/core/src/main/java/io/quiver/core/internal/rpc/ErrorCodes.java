package io.quiver.core.internal.rpc;

import io.quiver.api.transport.TransportErrors;

/** JSON-RPC 2.0 and MCP error codes. */
public final class ErrorCodes {
    public static final int PARSE_ERROR = -32700;
    public static final int INVALID_REQUEST = TransportErrors.INVALID_REQUEST;
    public static final int METHOD_NOT_FOUND = -32601;
    public static final int INVALID_PARAMS = -32602;
    public static final int INTERNAL_ERROR = TransportErrors.INTERNAL_ERROR;
    /**
     * A server error of this implementation (JSON-RPC's -32000 range): the server cannot take the
     * request now (a limit is reached, or it is stopping) or ended it while stopping.
     */
    public static final int SERVER_UNAVAILABLE = TransportErrors.SERVER_ERROR;
    /** The session named is unknown or has ended. */
    public static final int SESSION_NOT_FOUND = TransportErrors.SESSION_NOT_FOUND;
    /** MCP (2025 revisions): a resource that does not exist. */
    public static final int RESOURCE_NOT_FOUND = -32002;
    /** MCP 2026-07-28: a header disagrees with the body. */
    public static final int HEADER_MISMATCH = -32020;
    /** MCP 2026-07-28: the request needs a client capability the client did not declare. */
    public static final int MISSING_CAPABILITY = -32021;
    /** MCP 2026-07-28: the protocol revision is not supported. */
    public static final int UNSUPPORTED_VERSION = -32022;

    private ErrorCodes() {
    }
}
