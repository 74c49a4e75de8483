package io.quiver.core.internal.exec;

import java.util.concurrent.atomic.AtomicInteger;

/** At most a number of holders at once, the number changeable while it is held; never waits. */
public final class Gate {

    private final AtomicInteger held = new AtomicInteger();
    private volatile int limit;

    public Gate(int limit) {
        resize(limit);
    }

    /** Enters when fewer than the limit are in; false (nothing taken) otherwise. */
    public boolean tryEnter() {
        while (true) {
            int now = held.get();
            if (now >= limit) {
                return false;
            }
            if (held.compareAndSet(now, now + 1)) {
                return true;
            }
        }
    }

    public void exit() {
        held.decrementAndGet();
    }

    /** A new limit; holders beyond it stay until they exit. 0 keeps everyone out. */
    public void resize(int next) {
        this.limit = Math.max(0, next);
    }

    public int held() {
        return held.get();
    }
}
