package io.quiver.transport.http.internal;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The SSE streams open at once against their limits. Every connection that carries a stream holds
 * a {@link Ticket} and gives it back when it closes. Per session every stream counts; overall only
 * the streams that stay open until the client leaves (session GET streams, listen streams) count,
 * since a streamed response ends with its answer and the engine bounds those (tool shares, queues):
 * so a flood of idle streams never keeps a normal call from being answered.
 *
 * <p>It also counts the bytes held for clients that have not read them yet (what a socket did not take
 * of an answer or an SSE connection's events), per connection ({@code maxUnsentBytes}) and for all
 * together ({@code maxUnsentBytesTotal}), so that no number of clients that stop reading can fill the heap.
 */
final class StreamBudget {

    private static final Logger LOG = LoggerFactory.getLogger(StreamBudget.class);

    private final AtomicInteger open = new AtomicInteger();
    /** Clients that do not read filled the server-wide budget: said at most every 10 s. */
    private final Throttled full = new Throttled(LOG, 10_000);
    /** What one connection may hold that its client has not read yet ({@code maxUnsentBytes}). */
    private volatile long maxUnsentBytes = HttpConfig.DEFAULT_MAX_UNSENT_BYTES;
    /** Bytes held for clients that have not read them, all connections together. */
    private final AtomicLong unsent = new AtomicLong();
    private volatile long maxUnsentTotal = defaultUnsentTotal();

    /** One open stream's place in the budget; released once. */
    static final class Ticket {
        private final StreamBudget budget;
        private final SessionStreams owner;
        private final boolean lasting;
        private final AtomicBoolean released = new AtomicBoolean();

        private Ticket(StreamBudget budget, SessionStreams owner, boolean lasting) {
            this.budget = budget;
            this.owner = owner;
            this.lasting = lasting;
        }

        StreamBudget budget() {
            return budget;
        }

        void release() {
            if (released.compareAndSet(false, true)) {
                if (lasting) {
                    budget.open.decrementAndGet();
                }
                if (owner != null) {
                    owner.connections().decrementAndGet();
                }
            }
        }
    }

    /**
     * A place for one more stream that stays open until its client leaves, or {@code null} when the
     * server ({@code max}) or the session ({@code perSession}) is at its limit.
     *
     * @param owner the session's streams, or {@code null} for a stream outside a session
     */
    Ticket lasting(SessionStreams owner, int max, int perSession) {
        if (open.incrementAndGet() > max) {
            open.decrementAndGet();
            return null;
        }
        Ticket ticket = response(owner, perSession, false, true);
        if (ticket == null) {
            open.decrementAndGet();
        }
        return ticket;
    }

    /**
     * A place for a stream that takes over one of the same session's ({@code owner}), whatever the limits: the
     * stream it replaces ends and gives its place back, so the count is back within them then.
     */
    Ticket lastingInPlace(SessionStreams owner) {
        open.incrementAndGet();
        return response(owner, 0, true, true);
    }

    /**
     * A place for a streamed response, or {@code null} when its session is at its limit; {@code force}
     * takes one regardless (a response that turns into a stream half-way cannot be refused any more).
     */
    Ticket response(SessionStreams owner, int perSession, boolean force) {
        return response(owner, perSession, force, false);
    }

    private Ticket response(SessionStreams owner, int perSession, boolean force, boolean lasting) {
        if (owner != null && owner.connections().incrementAndGet() > perSession && !force) {
            owner.connections().decrementAndGet();
            return null;
        }
        return new Ticket(this, owner, lasting);
    }

    void maxUnsentBytes(long perConnection, long total) {
        maxUnsentBytes = perConnection;
        maxUnsentTotal = total > 0 ? total : defaultUnsentTotal();
    }

    /** What one connection may hold that its client has not read yet. */
    long maxUnsentBytes() {
        return maxUnsentBytes;
    }

    /** An eighth of the heap, at least 16 MiB. */
    private static long defaultUnsentTotal() {
        return Math.max(16L << 20, Runtime.getRuntime().maxMemory() / 8);
    }

    /**
     * Counts {@code bytes} held for a client that has not read them: false, and nothing counted, when all
     * connections together would hold more than {@code maxUnsentBytesTotal}; {@code force} counts them anyway.
     */
    boolean holdUnsent(long bytes, boolean force) {
        if (unsent.addAndGet(bytes) > maxUnsentTotal && !force) {
            unsent.addAndGet(-bytes);
            full.warn("writes found clients that do not read holding maxUnsentBytesTotal ({} bytes) of answers and"
                    + " events: SSE connections with events waiting were ended, answers written blocking", maxUnsentTotal);
            return false;
        }
        return true;
    }

    /** Bytes that {@link #holdUnsent} counted went out (or were dropped). */
    void releaseUnsent(long bytes) {
        unsent.addAndGet(-bytes);
    }

    /** Whether all connections together hold less than {@code maxUnsentBytesTotal}. */
    boolean unsentRoom() {
        return unsent.get() < maxUnsentTotal;
    }

    /** Bytes held for clients that have not read them, all connections together. */
    long unsent() {
        return unsent.get();
    }

    /** The most all connections together may hold ({@code maxUnsentBytesTotal} or the default). */
    long maxUnsentTotal() {
        return maxUnsentTotal;
    }

    /** Lasting streams open now. */
    int open() {
        return open.get();
    }
}
