package io.quiver.transport.http.internal;

import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;

/**
 * A warning that an attack could repeat thousands of times a second: logged at most once per
 * interval, with how many times it happened since the last line. No stack traces.
 */
final class Throttled {

    private final Logger log;
    private final long intervalNanos;
    private final AtomicLong count = new AtomicLong();
    private final AtomicLong next = new AtomicLong(System.nanoTime());

    Throttled(Logger log, long intervalMs) {
        this.log = log;
        this.intervalNanos = intervalMs * 1_000_000L;
    }

    /** Counts one occurrence; logs "N what" when the interval has passed since the last line. */
    void warn(String what, Object argument) {
        warn(1, what, argument);
    }

    /** Counts {@code times} occurrences at once. */
    void warn(int times, String what, Object argument) {
        long n = count.addAndGet(times);
        long now = System.nanoTime();
        long due = next.get();
        if (now - due >= 0 && next.compareAndSet(due, now + intervalNanos)) {
            count.addAndGet(-n);
            if (log.isWarnEnabled()) {
                log.warn(n + " " + what, argument);
            }
        }
    }
}
