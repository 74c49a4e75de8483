package io.quiver.transport.http.internal;

import java.util.ArrayDeque;
import java.util.concurrent.Executor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps writes off a {@link LaneThread}, in order. One per response or stream: an action offered on
 * a lane thread (where a write may not block) is queued and run on the lane's pool; from then on,
 * while anything waits in the queue, actions offered from any thread queue behind it, so the stream
 * keeps its order. With nothing queued, off the lane, the caller runs the action itself (no write
 * waits for the client: {@link Connection}). The lock here is never held while an action runs, so a
 * lane thread never waits on a write.
 */
final class HandOff {

    private static final Logger LOG = LoggerFactory.getLogger(HandOff.class);

    private final ArrayDeque<Runnable> queue = new ArrayDeque<>();
    private Executor pool;
    private Thread draining;
    private boolean scheduled;

    /** Whether {@code action} was queued; {@code false}: run it now, on this thread. */
    boolean defer(Runnable action) {
        Executor lane = LaneThread.pool();
        synchronized (this) {
            if (draining == Thread.currentThread()) {
                return false; // an action that offers another: it runs in order where it is
            }
            if (lane == null && !scheduled) {
                return false; // off the lane with nothing waiting
            }
            if (!scheduled) {
                pool = lane;
            }
            queue.add(action);
            if (scheduled) {
                return true;
            }
            scheduled = true;
        }
        if (!LaneThread.execute(pool, this::drain)) {
            // the lane's pool takes nothing more (stopping, or flooded): out in order all the same
            Thread thread = new Thread(this::drain, "quiver-hand-off");
            thread.setDaemon(true);
            thread.start();
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
