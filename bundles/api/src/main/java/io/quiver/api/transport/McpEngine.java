package io.quiver.api.transport;

import java.util.List;
import java.util.Optional;
import org.osgi.annotation.versioning.ProviderType;

/** The protocol engine, registered as a service by the core bundle. Every transport calls it. */
@ProviderType
public interface McpEngine {

    /**
     * Takes one framed message (one JSON-RPC object) from a client. Never throws for bad input:
     * malformed messages come back as {@link Receipt.Rejected} with the JSON-RPC error to send.
     */
    Receipt receive(byte[] message, Inbound inbound);

    /** A live session by id. */
    Optional<McpSession> session(String id);

    /**
     * A JSON-RPC error response with a null id, for a transport that refuses a message before the
     * engine sees it (a forbidden Host, an oversized body).
     */
    byte[] errorResponse(int code, String message);

    /** The protocol revisions this engine speaks, oldest first. */
    List<String> supportedVersions();
}
