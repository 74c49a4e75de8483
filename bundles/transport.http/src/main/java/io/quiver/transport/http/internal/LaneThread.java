package io.quiver.transport.http.internal;

import java.util.concurrent.Executor;

/**
 * Marks the thread that read a request from its connection while it serves it there
 * ({@link SelectorLane}): a thread that must never block, or every connection it selects for waits.
 * On it the endpoint serves only what waits on nothing and writes its answer without blocking; the
 * rest goes to {@link #pool()}, a thread pool where waiting is allowed.
 */
final class LaneThread {

    private static final ThreadLocal<Executor> POOL = new ThreadLocal<>();

    private LaneThread() {
    }

    /** Runs {@code work} on this thread, marked as a lane thread whose waiting work goes to {@code pool}. */
    static void run(Executor pool, Runnable work) {
        POOL.set(pool);
        try {
            work.run();
        } finally {
            POOL.remove();
        }
    }

    /** Whether this thread must not block. */
    static boolean here() {
        return POOL.get() != null;
    }

    /**
     * Hands {@code task} to {@code pool}: {@code false} when the pool takes nothing more (its queue is
     * full, or the server is stopping), and the caller deals with it without blocking.
     */
    static boolean execute(Executor pool, Runnable task) {
        try {
            pool.execute(task);
            return true;
        } catch (java.util.concurrent.RejectedExecutionException e) {
            return false;
        }
    }

    /** Where this lane thread hands work that may wait; {@code null} off the lane. */
    static Executor pool() {
        return POOL.get();
    }
}
