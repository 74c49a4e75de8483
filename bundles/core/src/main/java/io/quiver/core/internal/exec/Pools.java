package io.quiver.core.internal.exec;

import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/** Thread pools with named daemon threads and bounded queues, resizable while they run. */
public final class Pools {

    private Pools() {
    }

    /**
     * Up to {@code threads} threads (idle ones die after a minute) and a queue of at most
     * {@code queue} tasks; beyond that {@code execute} throws {@link java.util.concurrent.RejectedExecutionException}.
     */
    public static Pool bounded(String name, int threads, int queue) {
        return new Pool(name, threads, queue);
    }

    public static ScheduledExecutorService timer(String name) {
        return Executors.newSingleThreadScheduledExecutor(factory(name));
    }

    public static ThreadFactory factory(String name) {
        AtomicInteger count = new AtomicInteger();
        return runnable -> {
            Thread thread = new Thread(runnable, name + "-" + count.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        };
    }

    /** A bounded pool whose thread count and queue bound follow the configuration. */
    public static final class Pool extends ThreadPoolExecutor {

        private final BoundedQueue queue;

        private Pool(String name, int threads, int queueBound) {
            this(name, Math.max(1, threads), new BoundedQueue(queueBound));
        }

        private Pool(String name, int threads, BoundedQueue queue) {
            super(threads, threads, 60, TimeUnit.SECONDS, queue, factory(name));
            this.queue = queue;
            allowCoreThreadTimeOut(true);
        }

        /** Takes new limits; running and queued tasks are kept. */
        public void resize(int threads, int queueBound) {
            int n = Math.max(1, threads);
            if (n > getMaximumPoolSize()) {
                setMaximumPoolSize(n);
                setCorePoolSize(n);
            } else if (n < getMaximumPoolSize()) {
                setCorePoolSize(n);
                setMaximumPoolSize(n);
            }
            queue.bound = Math.max(1, queueBound);
        }
    }

    /** A queue that refuses offers beyond a bound that can change. */
    private static final class BoundedQueue extends LinkedBlockingQueue<Runnable> {
        private static final long serialVersionUID = 1L;
        volatile int bound;

        BoundedQueue(int bound) {
            this.bound = Math.max(1, bound);
        }

        @Override
        public boolean offer(Runnable task) {
            return size() < bound && super.offer(task);
        }
    }
}
