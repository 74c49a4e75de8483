package io.quiver.transport.http.internal;

import io.quiver.api.transport.McpSession;
import io.quiver.api.transport.MessageSink;

/**
 * A session's standalone GET stream: the engine's session sink, bound to one SSE stream at a time.
 * A new GET replaces the stream before it, connected or not.
 */
final class StandaloneStream {

    private SseStream stream;
    private AutoCloseable attachment;

    /**
     * Opens a fresh stream for the session in place of the one it had, which ends (its response completes): a client
     * opens a GET again when it believes its stream lost, and a connection its network dropped without a word (a
     * laptop's sleep, a changed network) looks alive here for as long as TCP retries, minutes. Refusing the new one
     * would leave the session without its notifications. Null when the session is closed.
     */
    synchronized SseStream open(McpSession session, SessionStreams streams) {
        close();
        SseStream created = streams.create('g');
        // what the engine sends here may come from any request's thread, a lane thread among them: a lane
        // thread's writes (and what queues behind them) go to its pool; any other thread writes itself, since
        // no write waits for the client (Connection)
        HandOff handOff = new HandOff();
        AutoCloseable handle = session.attach(new MessageSink() {
            @Override
            public void send(byte[] message) {
                if (!handOff.defer(() -> created.send(message))) {
                    created.send(message);
                }
            }

            @Override
            public void complete(byte[] response) {
                if (!handOff.defer(() -> created.finish(response))) {
                    created.finish(response);
                }
            }
        });
        if (handle == null) {
            created.close();
            return null;
        }
        stream = created;
        attachment = handle;
        return created;
    }

    /**
     * Whether the session has a stream here with a connection that holds a place (a new GET then takes that place
     * over); a stream whose connection is gone gave its place back already.
     */
    synchronized boolean holdsStream() {
        return stream != null && stream.connected();
    }

    synchronized void close() {
        if (attachment != null) {
            try {
                attachment.close();
            } catch (Exception e) {
                // detaching cannot fail in a way that matters here
            }
            attachment = null;
        }
        if (stream != null) {
            stream.close();
            stream = null;
        }
    }
}
