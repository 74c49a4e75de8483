package io.quiver.itests.paxexam.mcp;

import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.function.Predicate;

/** Bounded polling for state that settles asynchronously (a catalog after a bundle event). */
public final class Eventually {

    private Eventually() {
    }

    /** Calls {@code probe} until its value matches, at most for {@code timeout}; returns the value. */
    public static <T> T until(String what, Callable<T> probe, Predicate<T> match, Duration timeout) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        T value = probe.call();
        while (!match.test(value)) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("Not within " + timeout.toMillis() + " ms: " + what + "; last seen " + value);
            }
            Thread.sleep(25);
            value = probe.call();
        }
        return value;
    }
}
