package io.quiver.api.transport;

/** What the engine made of one inbound message. */
public sealed interface Receipt {

    /** A notification or a response: nothing will be sent back for it. */
    record Accepted() implements Receipt {
    }

    /**
     * The message was refused before any handler saw it.
     *
     * @param reason why, for the transport to map to its own status codes
     * @param body the JSON-RPC error response to send
     */
    record Rejected(Reason reason, byte[] body) implements Receipt {
    }

    /**
     * A request the engine will answer through the exchange.
     *
     * @param session the session the request belongs to (new for {@code initialize}), or {@code null}
     *     for a stateless (2026-07-28) request
     * @param exchange start it with a sink to receive the messages of this request
     */
    record Pending(McpSession session, Exchange exchange) implements Receipt {
    }

    /** Why a message was refused. */
    enum Reason {
        /** The body is not JSON. */
        PARSE_ERROR,
        /** The body is JSON but not a JSON-RPC message this server takes (a batch outside a 2025-03-26 session, say). */
        INVALID_REQUEST,
        /** The request needs a session and named none. */
        SESSION_REQUIRED,
        /** The session named is unknown or has ended. */
        SESSION_NOT_FOUND,
        /** The protocol revision named out of band is not supported. */
        UNSUPPORTED_VERSION,
        /** 2026-07-28: the per-request {@code _meta} is missing or invalid. */
        INVALID_META,
        /** 2026-07-28: a header disagrees with the body ({@code Mcp-Method}, {@code Mcp-Name}, {@code Mcp-Param-*}). */
        HEADER_MISMATCH,
        /** 2026-07-28: the method does not exist in this revision. */
        METHOD_NOT_FOUND,
        /** 2026-07-28: the request needs a client capability the client did not declare. */
        MISSING_CAPABILITY,
        /**
         * The server cannot take the request now: a limit is reached (sessions, streams, listeners)
         * or it is stopping. Transports say so with their "try again later" (HTTP 503 and Retry-After).
         */
        UNAVAILABLE
    }
}
