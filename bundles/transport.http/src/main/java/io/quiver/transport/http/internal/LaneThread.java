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
    private static final ThreadLocal<Route> ROUTE = new ThreadLocal<>();

    private LaneThread() {
    }

    /**
     * Where a connection's next request starts, as its last one taught: a client calling tools that may
     * wait sends its next request straight to the pool (parsed there, handed over once, as Jetty would),
     * instead of having the lane read it only to hand it over. A request that turns out to wait on
     * nothing brings the connection back to the lane.
     */
    static final class Route {
        private volatile boolean pool;

        /** Whether the connection's next request should start on the pool. */
        boolean pool() {
            return pool;
        }

        /** The connection's next request should start on the pool. */
        void needsPool() {
            pool = true;
        }
    }

    /**
     * Runs {@code work} on this thread, marked as a lane thread whose waiting work goes to {@code pool}; within
     * another such run (a body's arrival handled right where it was asked for), that one's marks come back after.
     */
    static void run(Executor pool, Route route, Runnable work) {
        Executor outerPool = POOL.get();
        Route outerRoute = ROUTE.get();
        POOL.set(pool);
        ROUTE.set(route);
        try {
            work.run();
        } finally {
            // set back, not removed: a removed entry is made again by the next request's set
            POOL.set(outerPool);
            ROUTE.set(outerRoute);
        }
    }

    /** Runs {@code work} (a request of {@code route}'s connection, or its body's arrival) on this thread. */
    static void routed(Route route, Runnable work) {
        Route outer = ROUTE.get();
        ROUTE.set(route);
        try {
            work.run();
        } finally {
            ROUTE.set(outer);
        }
    }

    /** The route of the connection whose request this thread serves; null where none is kept. */
    static Route route() {
        return ROUTE.get();
    }

    /** The request this thread serves needs the pool: its connection's next requests start there. */
    static void needsPool() {
        Route route = ROUTE.get();
        if (route != null) {
            route.needsPool();
        }
    }

    /** The request this thread serves waits on nothing: its connection's next requests start on the lane. */
    static void waitsOnNothing() {
        Route route = ROUTE.get();
        if (route != null) {
            route.pool = false;
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
