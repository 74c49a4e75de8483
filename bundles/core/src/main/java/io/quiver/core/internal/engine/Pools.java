package io.quiver.core.internal.engine;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/** Thread pools with named daemon threads and bounded queues. */
final class Pools {

    private Pools() {
    }

    /** Up to {@code threads} threads (idle ones die after a minute) and a bounded queue; overflow is rejected. */
    static ExecutorService bounded(String name, int threads, int queue) {
        ThreadPoolExecutor pool = new ThreadPoolExecutor(Math.max(1, threads), Math.max(1, threads), 60,
                TimeUnit.SECONDS, new LinkedBlockingQueue<>(Math.max(1, queue)), factory(name));
        pool.allowCoreThreadTimeOut(true);
        return pool;
    }

    static ScheduledExecutorService timer(String name) {
        return Executors.newSingleThreadScheduledExecutor(factory(name));
    }

    private static ThreadFactory factory(String name) {
        AtomicInteger count = new AtomicInteger();
        return runnable -> {
            Thread thread = new Thread(runnable, name + "-" + count.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        };
    }
}
