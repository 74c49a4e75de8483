package io.quiver.api.transport;

import java.util.List;
import java.util.Optional;
import org.osgi.annotation.versioning.ProviderType;

/** The protocol engine, registered as a service by the core bundle. Every transport calls it. */
@ProviderType
public interface McpEngine {

    /**
     * Takes one framed message (one JSON-RPC object, or in a 2025-03-26 session a JSON-RPC batch) from a
     * client. Never throws for bad input: malformed messages come back as {@link Receipt.Rejected} with the
     * JSON-RPC error to send. A batch is one receipt: accepted when it holds no request, one pending exchange
     * for all of its requests, or rejected (whole, with one error; or, when every element that is
     * answered was refused, with the array of their errors).
     */
    Receipt receive(byte[] message, Inbound inbound);

    /**
     * {@link #receive} for a thread that must never wait (a transport's selecting thread): the
     * receipt when the message is a request that may be served there (then serve a pending exchange
     * with {@link Exchange#runNow}, which may still decline), or {@code null} when it must be received
     * on a thread that may wait; nothing happened then, and the transport calls {@link #receive}
     * there with the same message (since 1.3).
     */
    default Receipt receiveNow(byte[] message, Inbound inbound) {
        return null;
    }

    /** A live session by id. */
    Optional<McpSession> session(String id);

    /**
     * A JSON-RPC error response with a null id, for a transport that refuses a message before the
     * engine sees it (a forbidden Host, an oversized body).
     */
    byte[] errorResponse(int code, String message);

    /** The protocol revisions this engine speaks, oldest first. */
    List<String> supportedVersions();

    /**
     * Whether a revision this engine speaks has sessions (2024-11-05 to 2025-11-25) rather than
     * standing alone per request (2026-07-28 and later): a transport refuses what only sessions have,
     * such as an HTTP GET or DELETE, to a request that names a revision without them (since 1.5).
     */
    default boolean hasSessions(String version) {
        return true;
    }

    /**
     * Stops gracefully, as a transport does when the server shuts down: new requests are refused
     * ({@link Receipt.Reason#UNAVAILABLE}) while requests in flight get the engine's grace period to
     * finish; those still running then are cancelled and answered with an error, and every stream the
     * engine holds (session streams, 2026-07-28 listen streams) gets a final message and ends. Blocks
     * until that is done; calling it again returns at once. Responses and notifications from clients
     * are still taken meanwhile, so calls in flight can get their answers.
     */
    void drain();
}
