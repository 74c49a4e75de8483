package io.quiver.upstream.internal;

import java.io.IOException;
import java.util.Map;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A connection to one upstream server that carries JSON-RPC messages both ways: a child process's
 * stdin/stdout ({@link StdioConnection}) or a Streamable HTTP endpoint ({@link HttpConnection}).
 */
interface Connection {

    /** Where the connection's messages and its end go; called on the connection's own threads. */
    interface Listener {

        /**
         * One message from the server.
         *
         * @param relatedTo the id of the request whose response stream carried it (HTTP), or null where
         *     the transport does not say (stdio, the GET stream)
         */
        void message(ObjectNode message, JsonNode relatedTo);

        /** The connection ended (the process exited, the stream broke); called once. */
        void closed(String why, boolean clean);
    }

    /** Opens the connection (starts the process); messages then reach the listener. */
    void open(Listener listener) throws IOException;

    /**
     * Sends one message; throws when the connection is gone.
     *
     * @param headers transport headers for this message only (HTTP's {@code Mcp-Param-*}); others ignore them
     */
    void send(ObjectNode message, Map<String, String> headers) throws IOException;

    default void send(ObjectNode message) throws IOException {
        send(message, Map.of());
    }

    /**
     * The revision agreed on. A session revision ({@code initialize}) is named on every later request by
     * transports that do so; a stateless one (2026-07-28 and later) travels in each request's own
     * {@code _meta}, and the transport keeps no session.
     */
    default void negotiated(String protocolVersion, boolean stateless) {
    }

    /**
     * A session revision's session is initialized ({@code notifications/initialized} sent): the transport
     * opens what it keeps open for the session (HTTP's GET stream) before the first request goes out.
     */
    default void initialized() {
    }

    /**
     * Gives up on a request's exchange at the transport (Streamable HTTP closes its response stream and
     * stops resuming it). True when that closed a stream, which in a stateless revision is itself the
     * request's cancellation; otherwise the caller sends {@code notifications/cancelled}.
     */
    default boolean abandon(JsonNode requestId) {
        return false;
    }

    /** Whether the transport is Streamable HTTP (where tools' {@code x-mcp-header} annotations apply). */
    default boolean http() {
        return false;
    }

    /** Ends the connection and everything it started (the child process and its children); idempotent. */
    void close();

    /** For the shell: the process id, or the URL. */
    String detail();
}
