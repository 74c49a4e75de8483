package io.quiver.core.internal.exec;

import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
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

    /**
     * A bounded pool whose thread count and queue bound follow the configuration. A task goes to an
     * idle thread when there is one, else to a new thread up to the limit, and only then waits in
     * the queue: threads are started for work that would otherwise wait, never ahead of it (a plain
     * {@link ThreadPoolExecutor} with core = max starts a thread per task until it has them all).
     */
    public static final class Pool extends ThreadPoolExecutor {

        private final BoundedQueue queue;

        private Pool(String name, int threads, int queueBound) {
            this(name, Math.max(1, threads), new BoundedQueue(queueBound));
        }

        private Pool(String name, int threads, BoundedQueue queue) {
            super(0, threads, 60, TimeUnit.SECONDS, queue, factory(name), (task, pool) -> {
                if (!queue.enqueue(task)) {
                    throw new RejectedExecutionException("the pool " + name + " and its queue are full");
                }
            });
            this.queue = queue;
            queue.pool = this;
        }

        /** Threads waiting for a task now. */
        public int idleThreads() {
            return queue.idle.get();
        }

        /** Takes new limits; running and queued tasks are kept. */
        public void resize(int threads, int queueBound) {
            setMaximumPoolSize(Math.max(1, threads));
            queue.bound = Math.max(1, queueBound);
        }
    }

    /**
     * The pool's queue: refuses a task while the pool may still start a thread and none is idle (so
     * the pool starts one), and refuses everything beyond a bound that can change.
     */
    private static final class BoundedQueue extends LinkedBlockingQueue<Runnable> {
        private static final long serialVersionUID = 1L;
        volatile int bound;
        transient Pool pool;
        /** Threads waiting for a task now. */
        private final AtomicInteger idle = new AtomicInteger();

        BoundedQueue(int bound) {
            this.bound = Math.max(1, bound);
        }

        @Override
        public boolean offer(Runnable task) {
            Pool p = pool;
            if (p != null && idle.get() <= size() && p.getPoolSize() < p.getMaximumPoolSize()) {
                return false;
            }
            return enqueue(task);
        }

        /** Queues the task when the bound allows (the pool is at its limit). */
        boolean enqueue(Runnable task) {
            return size() < bound && super.offer(task);
        }

        @Override
        public Runnable poll(long timeout, TimeUnit unit) throws InterruptedException {
            idle.incrementAndGet();
            try {
                return super.poll(timeout, unit);
            } finally {
                idle.decrementAndGet();
            }
        }

        @Override
        public Runnable take() throws InterruptedException {
            idle.incrementAndGet();
            try {
                return super.take();
            } finally {
                idle.decrementAndGet();
            }
        }
    }
}
