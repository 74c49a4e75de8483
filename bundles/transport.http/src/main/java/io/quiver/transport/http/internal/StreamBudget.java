package io.quiver.transport.http.internal;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The SSE streams open at once, overall and per session, against their limits. Every connection
 * that carries a stream holds a {@link Ticket} and gives it back when it closes.
 */
final class StreamBudget {

    private final AtomicInteger open = new AtomicInteger();

    /** One open stream's place in the budget; released once. */
    static final class Ticket {
        private final StreamBudget budget;
        private final SessionStreams owner;
        private final AtomicBoolean released = new AtomicBoolean();

        private Ticket(StreamBudget budget, SessionStreams owner) {
            this.budget = budget;
            this.owner = owner;
        }

        void release() {
            if (released.compareAndSet(false, true)) {
                budget.open.decrementAndGet();
                if (owner != null) {
                    owner.connections().decrementAndGet();
                }
            }
        }
    }

    /**
     * A place for one more stream, or {@code null} when the server ({@code max}) or the session
     * ({@code perSession}) is at its limit; {@code force} takes a place regardless (a response that
     * turns into a stream half-way cannot be refused any more).
     *
     * @param owner the session's streams, or {@code null} for a stream outside a session
     */
    Ticket take(SessionStreams owner, int max, int perSession, boolean force) {
        if (open.incrementAndGet() > max && !force) {
            open.decrementAndGet();
            return null;
        }
        if (owner != null && owner.connections().incrementAndGet() > perSession && !force) {
            owner.connections().decrementAndGet();
            open.decrementAndGet();
            return null;
        }
        return new Ticket(this, owner);
    }

    /** Streams open now. */
    int open() {
        return open.get();
    }
}
