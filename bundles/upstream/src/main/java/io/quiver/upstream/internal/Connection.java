package io.quiver.upstream.internal;

import java.io.IOException;

import tools.jackson.databind.node.ObjectNode;

/**
 * A connection to one upstream server that carries JSON-RPC messages both ways: a child process's
 * stdin/stdout ({@link StdioConnection}) or a Streamable HTTP endpoint ({@link HttpConnection}).
 */
interface Connection {

    /** Where the connection's messages and its end go; called on the connection's own threads. */
    interface Listener {

        void message(ObjectNode message);

        /** The connection ended (the process exited, the stream broke); called once. */
        void closed(String why, boolean clean);
    }

    /** Opens the connection (starts the process); messages then reach the listener. */
    void open(Listener listener) throws IOException;

    /** Sends one message; throws when the connection is gone. */
    void send(ObjectNode message) throws IOException;

    /** The revision {@code initialize} agreed on, for transports that name it on every request. */
    default void negotiated(String protocolVersion) {
    }

    /** Ends the connection and everything it started (the child process and its children); idempotent. */
    void close();

    /** For the shell: the process id, or the URL. */
    String detail();
}
