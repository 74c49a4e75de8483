package io.quiver.transport.http.internal;

import io.quiver.api.transport.McpSession;
import io.quiver.api.transport.MessageSink;

/**
 * A session's standalone GET stream: the engine's session sink, bound to one SSE stream at a time.
 * A new GET replaces a stream whose connection is gone; one that is still connected is kept.
 */
final class StandaloneStream {

    private SseStream stream;
    private AutoCloseable attachment;

    /** Opens a fresh stream for the session, or returns null when a connected one exists. */
    synchronized SseStream open(McpSession session, SessionStreams streams) {
        if (stream != null && stream.connected()) {
            return null;
        }
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
