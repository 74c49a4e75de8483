package io.quiver.transport.http.internal;

import java.util.ArrayDeque;
import java.util.concurrent.Executor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps writes off a {@link LaneThread}, in order. One per response or stream: an action offered on
 * a lane thread (where a write may not block) is queued and run on the lane's pool; from then on,
 * while anything waits in the queue, actions offered from any thread queue behind it, so the stream
 * keeps its order. With nothing queued, off the lane, the caller runs the action itself, unless the
 * hand-off has a writer pool of its own: then every thread's actions go there (a session's stream,
 * which any request's thread may notify, must not hold that thread when its client stops reading).
 * The lock here is never held while an action runs, so a lane thread never waits on a write.
 */
final class HandOff {

    private static final Logger LOG = LoggerFactory.getLogger(HandOff.class);

    private final ArrayDeque<Runnable> queue = new ArrayDeque<>();
    /** Where every thread's actions go, or null: only a lane thread's (and what queues behind them). */
    private final Executor writers;
    private Executor pool;
    private Thread draining;
    private boolean scheduled;

    /** Only a lane thread's actions (and what queues behind them) are handed off. */
    HandOff() {
        this(null);
    }

    /** @param writers where every thread's actions are handed, or null: only a lane thread's */
    HandOff(Executor writers) {
        this.writers = writers;
    }

    /** Whether {@code action} was queued; {@code false}: run it now, on this thread. */
    boolean defer(Runnable action) {
        Executor lane = LaneThread.pool();
        Executor target = lane != null ? lane : writers;
        synchronized (this) {
            if (draining == Thread.currentThread()) {
                return false; // an action that offers another: it runs in order where it is
            }
            if (target == null && !scheduled) {
                return false; // off the lane with nothing waiting
            }
            if (!scheduled) {
                pool = target;
            }
            queue.add(action);
            if (scheduled) {
                return true;
            }
            scheduled = true;
        }
        if (!LaneThread.execute(pool, this::drain)) {
            if (lane == null) {
                drain(); // every writer is busy: this thread may wait, so it writes, in order
            } else {
                // the lane's pool takes nothing more (stopping, or flooded): out in order all the same
                Thread thread = new Thread(this::drain, "quiver-hand-off");
                thread.setDaemon(true);
                thread.start();
            }
        }
        return true;
    }

    /** Whether nothing waits (a lane thread may then write without blocking on its own). */
    synchronized boolean idle() {
        return !scheduled;
    }

    private void drain() {
        while (true) {
            Runnable next;
            synchronized (this) {
                next = queue.poll();
                if (next == null) {
                    scheduled = false;
                    draining = null;
                    return;
                }
                draining = Thread.currentThread();
            }
            try {
                next.run();
            } catch (RuntimeException | Error e) {
                LOG.warn("Writing to a client failed", e);
            }
        }
    }
}
