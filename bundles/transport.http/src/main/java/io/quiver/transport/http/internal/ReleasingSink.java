package io.quiver.transport.http.internal;

import io.quiver.api.transport.MessageSink;
import io.quiver.api.transport.Receipt;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A response that gives something back once the exchange is answered (a caller's share of calls in
 * progress, {@link CallerLimits}), however it ends: completed or failed, exactly once.
 */
final class ReleasingSink implements MessageSink {

    private final MessageSink response;
    private final Runnable release;
    private final AtomicBoolean released = new AtomicBoolean();

    ReleasingSink(MessageSink response, Runnable release) {
        this.response = response;
        this.release = release;
    }

    @Override
    public void send(byte[] message) {
        response.send(message);
    }

    /** Given back before the answer goes out: a client that sends its next call on reading it finds its place free. */
    @Override
    public void complete(byte[] answer) {
        release();
        response.complete(answer);
    }

    @Override
    public void fail(Receipt.Reason reason, byte[] answer) {
        release();
        response.fail(reason, answer);
    }

    private void release() {
        if (released.compareAndSet(false, true)) {
            release.run();
        }
    }
}
