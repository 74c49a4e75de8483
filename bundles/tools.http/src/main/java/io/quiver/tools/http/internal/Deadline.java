package io.quiver.tools.http.internal;

import java.io.IOException;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/** The end of one fetch (all of it: lookups, connects, TLS, every redirect, every read), and its cancellation. */
final class Deadline {

    /** The fetch ran out of time. */
    static final class TimedOut extends IOException {
        private static final long serialVersionUID = 1L;

        TimedOut() {
            super("timed out", null);
        }
    }

    /** The call was cancelled (by the client, the server's own time limit, or a shutdown). */
    static final class Cancelled extends IOException {
        private static final long serialVersionUID = 1L;

        Cancelled() {
            super("cancelled", null);
        }
    }

    private final long end;
    private final int timeoutMs;
    private final BooleanSupplier cancelled;

    Deadline(int timeoutMs, BooleanSupplier cancelled) {
        this.timeoutMs = timeoutMs;
        this.end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        this.cancelled = cancelled;
    }

    /** The time limit of the whole fetch. */
    int timeoutMs() {
        return timeoutMs;
    }

    /** The milliseconds left (at least 1), for a connect or socket timeout. */
    int remainingMillis() throws IOException {
        if (cancelled.getAsBoolean()) {
            throw new Cancelled();
        }
        long left = TimeUnit.NANOSECONDS.toMillis(end - System.nanoTime());
        if (left <= 0) {
            throw new TimedOut();
        }
        return (int) Math.min(left, Integer.MAX_VALUE);
    }
}
