package io.quiver.core.internal.request;

import io.quiver.api.transport.StreamPolicy;
import io.quiver.core.internal.messages.Result;
import tools.jackson.databind.JsonNode;

/**
 * A protocol era: the session era (revisions 2024-11-05 to 2025-11-25: {@code initialize}, a session,
 * requests to the client) or the stateless era (2026-07-28: every request stands alone). The engine
 * decides a message's era once, when it arrives; the request carries it, and everything that differs
 * between the eras asks it here, instead of testing versions or whether there is a session.
 */
public interface Era {

    /** Its name in logs and documents: {@code session era} or {@code stateless era}. */
    String name();

    /** The handler of a method in this era, or {@code null} when the era has no such method. */
    MethodHandler handler(String method);

    /**
     * Where a request gets input from the user: {@code true} by asking the client on the request's
     * own stream ({@code elicitation/create}, ...), {@code false} by answering {@code input_required}
     * for the client to retry with the answers.
     */
    boolean asksClient();

    /**
     * Whether a request gets log messages when its client set no level: yes in the session era (until
     * {@code logging/setLevel}), no in the stateless era (a request asks with its {@code _meta}).
     */
    boolean logsUnasked();

    /** Whether tool calls may become tasks (the tasks extension, for clients that declare it). */
    boolean offersTasks();

    /** The error code of a {@code resources/read} that finds nothing. */
    int resourceNotFound();

    /** What the transport does with a response stream for a client of this revision. */
    StreamPolicy streamPolicy(String version);

    /**
     * The JSON-RPC response to a request, its result written as the client's revision has it:
     * one serialisation.
     */
    byte[] response(JsonNode id, String method, String version, Result result);
}
