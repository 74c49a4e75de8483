package io.quiver.transport.http.internal;

import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * Reads one request body without holding a thread while the client is slow (servlet non-blocking
 * I/O), within a deadline, up to a size limit. A body over the limit is read on and dropped, up to a
 * bound, so that the client, still sending, is not cut off before it can read its 413; a body that
 * takes too long ends with 408. Exactly one outcome is reported.
 */
final class BodyReader implements ReadListener {

    /** What became of the body. */
    interface Outcome {
        /** The whole body. */
        void body(byte[] body);

        /** Over the size limit; {@code drained} when the client sent it all (the connection can say so). */
        void tooLarge(boolean drained);

        /** Not complete within the deadline, or stalled until the connection's idle timeout. */
        void tooSlow();

        /** The client went away, or the read failed: nothing can be answered. */
        void lost(Throwable cause);

        /** The body was not HTTP ({@link HttpErrors#malformed}): answered 400, and the connection closed. */
        void malformed(Throwable cause);
    }

    private final ServletInputStream in;
    private final long maxBytes;
    private final long maxDrainBytes;
    private final Outcome outcome;
    private final byte[] chunk = new byte[8192];
    private ByteArrayOutputStream body;
    private long total;
    private boolean tooLarge;
    private boolean done;
    private ScheduledFuture<?> deadline;

    private BodyReader(ServletInputStream in, long maxBytes, long maxDrainBytes, long expectedBytes, Outcome outcome) {
        this.in = in;
        this.maxBytes = maxBytes;
        this.maxDrainBytes = maxDrainBytes;
        this.outcome = outcome;
        this.body = new ByteArrayOutputStream((int) Math.min(Math.max(expectedBytes, 256), Math.min(maxBytes, 1 << 16)));
    }

    /**
     * Starts reading: the outcome is reported on a container or timer thread.
     *
     * @param expectedBytes the declared length, or -1
     */
    static void read(ServletInputStream in, long maxBytes, long maxDrainBytes, long expectedBytes, long timeoutMs,
            ScheduledExecutorService timer, Outcome outcome) {
        BodyReader reader = new BodyReader(in, maxBytes, maxDrainBytes, expectedBytes, outcome);
        synchronized (reader) {
            reader.deadline = timer.schedule(reader::expire, timeoutMs, TimeUnit.MILLISECONDS);
        }
        in.setReadListener(reader);
    }

    @Override
    public synchronized void onDataAvailable() throws IOException {
        while (!done && in.isReady()) {
            int n = in.read(chunk);
            if (n < 0) {
                return; // onAllDataRead follows
            }
            total += n;
            if (!tooLarge) {
                if (body.size() + (long) n > maxBytes) {
                    tooLarge = true;
                    body = null;
                } else {
                    body.write(chunk, 0, n);
                }
            }
            if (tooLarge && total > maxBytes + maxDrainBytes) {
                finish();
                outcome.tooLarge(false);
                return;
            }
        }
    }

    @Override
    public synchronized void onAllDataRead() {
        if (done) {
            return;
        }
        finish();
        if (tooLarge) {
            outcome.tooLarge(true);
        } else {
            outcome.body(body.toByteArray());
        }
    }

    @Override
    public synchronized void onError(Throwable t) {
        if (done) {
            return;
        }
        finish();
        if (HttpErrors.timedOut(t)) {
            outcome.tooSlow();
        } else if (HttpErrors.malformed(t)) {
            outcome.malformed(t);
        } else {
            outcome.lost(t);
        }
    }

    /** The deadline passed before the body was complete. */
    private synchronized void expire() {
        if (done) {
            return;
        }
        finish();
        outcome.tooSlow();
    }

    private void finish() {
        done = true;
        body = tooLarge ? null : body;
        if (deadline != null) {
            deadline.cancel(false);
        }
    }
}
