package io.quiver.api.transport;

/**
 * What a transport does with the stream that carries an exchange's messages (or a session's
 * notifications), as the protocol revision of the client wants it. The engine decides; the transport
 * follows without knowing the revisions.
 *
 * @param prime send a priming event (an event id and empty data) when the stream opens, so the
 *     client can resume it from the start
 * @param resumable number the events and keep them, so a client that lost the connection resumes the
 *     stream with {@code Last-Event-ID}; a stream that is not resumable ends with its connection
 * @param cancelOnDisconnect the client closing the connection cancels the exchange (and a transport
 *     that finds the connection gone tells the engine with {@link Exchange#abandon()})
 */
public record StreamPolicy(boolean prime, boolean resumable, boolean cancelOnDisconnect) {

    /** Whether the transport may close a waiting stream early for the client to poll with {@code Last-Event-ID}. */
    public boolean pollable() {
        return prime && resumable;
    }
}
