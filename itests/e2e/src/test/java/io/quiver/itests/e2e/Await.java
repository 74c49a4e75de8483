package io.quiver.itests.e2e;

import java.time.Duration;
import java.util.concurrent.Callable;

/** The end-to-end tests' one way of waiting: a condition polled until it holds or a deadline passes. */
final class Await {

    /** A condition that may throw (an HTTP call, a file read). */
    interface Condition {
        boolean holds() throws Exception;
    }

    private Await() {
    }

    /**
     * @param what what was waited for, with whatever helps to read a failure (a server's log): made only
     *     when the deadline passes
     * @throws AssertionError when {@code condition} does not hold within {@code limit}
     */
    static void until(Condition condition, Duration limit, Callable<String> what) throws Exception {
        long deadline = System.nanoTime() + limit.toNanos();
        while (!condition.holds()) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("not within " + limit + ": " + what.call());
            }
            Thread.sleep(20);
        }
    }
}
