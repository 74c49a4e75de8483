package io.quiver.core.internal.exec;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Deadlines of work on threads the engine does not own (a tool running on the transport's thread),
 * checked every {@link #TICK_MS} by the engine's timer while any is watched, instead of one timer
 * task per call: a call that ends in time costs two set operations, no timer wake-up. A deadline
 * fires up to one tick late.
 */
public final class Watchdog {

    public static final long TICK_MS = 20;

    private final ScheduledExecutorService timer;
    private final Set<Deadline> watched = ConcurrentHashMap.newKeySet();
    private final AtomicBoolean ticking = new AtomicBoolean();

    public Watchdog(ScheduledExecutorService timer) {
        this.timer = timer;
    }

    /** One watched deadline; closing it before it passes means it never fires. */
    public final class Deadline implements AutoCloseable {
        private final long atNanos;
        private final Runnable action;

        private Deadline(long atNanos, Runnable action) {
            this.atNanos = atNanos;
            this.action = action;
        }

        @Override
        public void close() {
            watched.remove(this);
        }
    }

    /** Runs {@code action} on the timer (it must be quick) once {@code afterMs} have passed, unless closed first. */
    public Deadline watch(long afterMs, Runnable action) {
        Deadline deadline = new Deadline(System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(afterMs), action);
        watched.add(deadline);
        if (ticking.compareAndSet(false, true)) {
            schedule();
        }
        return deadline;
    }

    /** Runs {@code action} on the timer after {@code delayMs} (for the rare follow-up of a deadline). */
    public void later(long delayMs, Runnable action) {
        try {
            timer.schedule(action, delayMs, TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException e) {
            // stopping: nothing is watched any more
        }
    }

    private void schedule() {
        try {
            timer.schedule(this::tick, TICK_MS, TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException e) {
            ticking.set(false);
        }
    }

    private void tick() {
        long now = System.nanoTime();
        for (Deadline deadline : watched) {
            if (now - deadline.atNanos >= 0 && watched.remove(deadline)) {
                deadline.action.run();
            }
        }
        if (!watched.isEmpty()) {
            schedule();
            return;
        }
        ticking.set(false);
        // a deadline added after the check above found the flag still set: take over its ticking
        if (!watched.isEmpty() && ticking.compareAndSet(false, true)) {
            schedule();
        }
    }

    /** Deadlines watched now. */
    public int size() {
        return watched.size();
    }
}
