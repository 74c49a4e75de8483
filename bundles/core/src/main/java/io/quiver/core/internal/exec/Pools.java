package io.quiver.core.internal.exec;

import java.util.AbstractQueue;
import java.util.ArrayDeque;
import java.util.Collection;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;

/** Thread pools with named daemon threads and bounded queues, resizable while they run. */
public final class Pools {

    private Pools() {
    }

    /**
     * Up to {@code threads} threads and a queue of at most {@code queue} tasks; beyond that
     * {@code execute} throws {@link RejectedExecutionException}. A task goes to the thread that became
     * idle last (its caches are warm), a new thread starts only when none is idle, and idle threads end
     * after a minute: a pool that served a burst does not rotate one client's work through all the
     * threads the burst left.
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

        private final IdleFirstQueue queue;

        private Pool(String name, int threads, int queueBound) {
            this(name, Math.max(1, threads), new IdleFirstQueue(queueBound));
        }

        private Pool(String name, int threads, IdleFirstQueue queue) {
            // no core threads: the queue refuses a task when no thread is idle, so the pool grows to its
            // maximum only under load, and queues beyond it
            super(0, threads, 60, TimeUnit.SECONDS, queue, factory(name), (task, pool) -> {
                // a thread was about to be added, but another task took the last place: queue it after all
                if (pool.isShutdown() || !queue.enqueue(task)) {
                    throw new RejectedExecutionException("no thread free and the queue is full");
                }
            });
            this.queue = queue;
            queue.pool = this;
        }

        /** Takes new limits; running and queued tasks are kept. */
        public void resize(int threads, int queueBound) {
            setMaximumPoolSize(Math.max(1, threads));
            queue.bound = Math.max(1, queueBound);
        }
    }

    /**
     * The pool's work queue: a task offered goes straight to the most recently idle thread (a stack of
     * waiting threads), else the queue refuses it while the pool may still grow (the pool starts a thread
     * for it), else it waits in a bounded backlog.
     */
    static final class IdleFirstQueue extends AbstractQueue<Runnable> implements BlockingQueue<Runnable> {

        /** A thread waiting for work; {@code task} is set once, under the lock. */
        private static final class Idle {
            final Thread thread = Thread.currentThread();
            volatile Runnable task;
        }

        private final ReentrantLock lock = new ReentrantLock();
        private final ArrayDeque<Runnable> backlog = new ArrayDeque<>();
        private final ArrayDeque<Idle> idle = new ArrayDeque<>();
        volatile int bound;
        volatile ThreadPoolExecutor pool;

        IdleFirstQueue(int bound) {
            this.bound = Math.max(1, bound);
        }

        @Override
        public boolean offer(Runnable task) {
            // read before taking the lock: the pool holds its own lock while it drains this queue
            ThreadPoolExecutor owner = pool;
            boolean mayGrow = owner != null && owner.getPoolSize() < owner.getMaximumPoolSize();
            lock.lock();
            try {
                if (handOff(task)) {
                    return true;
                }
                if (mayGrow) {
                    return false;
                }
                return backlog.size() < bound && backlog.add(task);
            } finally {
                lock.unlock();
            }
        }

        /** Queues a task the pool could not start a thread for (or hands it to a thread idle by now). */
        boolean enqueue(Runnable task) {
            lock.lock();
            try {
                return handOff(task) || backlog.size() < bound && backlog.add(task);
            } finally {
                lock.unlock();
            }
        }

        /** Caller holds the lock. */
        private boolean handOff(Runnable task) {
            Idle waiting = idle.pollFirst();
            if (waiting == null) {
                return false;
            }
            waiting.task = task;
            LockSupport.unpark(waiting.thread);
            return true;
        }

        @Override
        public Runnable poll(long timeout, TimeUnit unit) throws InterruptedException {
            return await(unit.toNanos(timeout), true);
        }

        @Override
        public Runnable take() throws InterruptedException {
            return await(0, false);
        }

        private Runnable await(long nanos, boolean timed) throws InterruptedException {
            Idle me;
            lock.lock();
            try {
                Runnable queued = backlog.pollFirst();
                if (queued != null) {
                    return queued;
                }
                if (Thread.interrupted()) {
                    throw new InterruptedException();
                }
                me = new Idle();
                idle.addFirst(me);
            } finally {
                lock.unlock();
            }
            long deadline = System.nanoTime() + nanos;
            while (true) {
                Runnable task = me.task;
                if (task != null) {
                    return task;
                }
                boolean interrupted = Thread.interrupted();
                long left = deadline - System.nanoTime();
                if (interrupted || timed && left <= 0) {
                    lock.lock();
                    try {
                        if (me.task != null) {
                            if (interrupted) {
                                Thread.currentThread().interrupt();
                            }
                            return me.task;
                        }
                        idle.remove(me);
                    } finally {
                        lock.unlock();
                    }
                    if (interrupted) {
                        throw new InterruptedException();
                    }
                    return null;
                }
                if (timed) {
                    LockSupport.parkNanos(this, left);
                } else {
                    LockSupport.park(this);
                }
            }
        }

        @Override
        public Runnable poll() {
            lock.lock();
            try {
                return backlog.pollFirst();
            } finally {
                lock.unlock();
            }
        }

        @Override
        public Runnable peek() {
            lock.lock();
            try {
                return backlog.peekFirst();
            } finally {
                lock.unlock();
            }
        }

        @Override
        public boolean offer(Runnable task, long timeout, TimeUnit unit) {
            return offer(task);
        }

        @Override
        public void put(Runnable task) {
            if (!enqueue(task)) {
                throw new IllegalStateException("the queue is full");
            }
        }

        @Override
        public int size() {
            lock.lock();
            try {
                return backlog.size();
            } finally {
                lock.unlock();
            }
        }

        @Override
        public int remainingCapacity() {
            return Math.max(0, bound - size());
        }

        @Override
        public boolean remove(Object task) {
            lock.lock();
            try {
                return backlog.remove(task);
            } finally {
                lock.unlock();
            }
        }

        @Override
        public Iterator<Runnable> iterator() {
            lock.lock();
            try {
                return List.copyOf(backlog).iterator();
            } finally {
                lock.unlock();
            }
        }

        @Override
        public int drainTo(Collection<? super Runnable> sink) {
            return drainTo(sink, Integer.MAX_VALUE);
        }

        @Override
        public int drainTo(Collection<? super Runnable> sink, int max) {
            lock.lock();
            try {
                int n = 0;
                while (n < max && !backlog.isEmpty()) {
                    sink.add(backlog.pollFirst());
                    n++;
                }
                return n;
            } finally {
                lock.unlock();
            }
        }
    }
}
