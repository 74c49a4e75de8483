package io.quiver.transport.http.internal;

import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;

/** Detaches a connection from its stream when the container reports it closed or broken. */
final class StreamListener implements AsyncListener {

    private final SseStream stream;
    private final Connection connection;

    StreamListener(SseStream stream, Connection connection) {
        this.stream = stream;
        this.connection = connection;
    }

    @Override
    public void onComplete(AsyncEvent event) {
        stream.lost(connection);
    }

    @Override
    public void onTimeout(AsyncEvent event) {
        stream.lost(connection);
        event.getAsyncContext().complete();
    }

    @Override
    public void onError(AsyncEvent event) {
        stream.lost(connection);
    }

    @Override
    public void onStartAsync(AsyncEvent event) {
        // nothing to do
    }
}
