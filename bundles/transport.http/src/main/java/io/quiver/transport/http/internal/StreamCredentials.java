package io.quiver.transport.http.internal;

import io.quiver.api.CallerIdentity;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The credentials that opened the streams still open (GET streams, 2026-07-28 listen streams), checked again on every keep-alive tick and
 * whenever an authenticator comes or goes. A stream whose credential would now be refused (an API key
 * revoked, a token expired, authentication required since it opened) or that would now be another
 * caller's ends, as the next POST with that credential would be refused: a stream is authenticated once,
 * when it opens, and would otherwise carry the session's notifications for as long as its connection
 * lasts.
 *
 * <p>Checks that wait on nothing run on the thread that asks (the transport's timer); those of an
 * authenticator that may wait (a JWKS fetched over the network) run on a thread of their own, one at a
 * time, so that the timer's other work (body deadlines, keep-alives) never waits for them.
 */
final class StreamCredentials {

    private static final Logger LOG = LoggerFactory.getLogger(StreamCredentials.class);
    private static final Supplier<String> NO_METADATA = () -> "";

    /** A stream (whether it is open, how to end it) with what admitted it. */
    private record Held(BooleanSupplier open, Runnable end, String authorization, String remoteAddr,
            CallerIdentity caller, AtomicBoolean checking) {
    }

    private final Gatekeeper gate;
    private final Map<Object, Held> held = new ConcurrentHashMap<>();
    private volatile ExecutorService slow;
    private volatile boolean closed;

    StreamCredentials(Gatekeeper gate) {
        this.gate = gate;
    }

    /**
     * Keeps a stream's credential for the checks to come. {@code caller} is the caller as admitted, in the
     * tenant of the path and the project of the query.
     */
    void hold(Connection connection, String authorization, String remoteAddr, CallerIdentity caller) {
        hold(connection, connection::isOpen, connection::close, authorization, remoteAddr, caller);
    }

    /**
     * Keeps the credential of a stream that is not a GET's connection (a 2026-07-28 {@code subscriptions/listen}
     * stream): {@code key} names it, {@code open} says whether it still is, {@code end} ends it.
     */
    void hold(Object key, BooleanSupplier open, Runnable end, String authorization, String remoteAddr,
            CallerIdentity caller) {
        if (!closed) {
            held.put(key, new Held(open, end, authorization, remoteAddr, caller, new AtomicBoolean()));
        }
    }

    /** Checks every held credential again; ends the streams whose credential is refused now. */
    void recheck() {
        for (Map.Entry<Object, Held> e : held.entrySet()) {
            Held h = e.getValue();
            if (!h.open().getAsBoolean()) {
                held.remove(e.getKey(), h);
                continue;
            }
            Gatekeeper.Verdict verdict = gate.check(h.authorization(), h.remoteAddr(), NO_METADATA, true);
            if (verdict != null) {
                judge(e.getKey(), h, verdict);
            } else if (h.checking().compareAndSet(false, true)) {
                try {
                    slow().execute(() -> {
                        try {
                            judge(e.getKey(), h, gate.check(h.authorization(), h.remoteAddr(), NO_METADATA, false));
                        } finally {
                            h.checking().set(false);
                        }
                    });
                } catch (RejectedExecutionException closedMeanwhile) {
                    h.checking().set(false);
                }
            }
        }
    }

    private void judge(Object key, Held h, Gatekeeper.Verdict verdict) {
        if (verdict instanceof Gatekeeper.Admitted admitted) {
            CallerIdentity now = admitted.caller();
            Gatekeeper.Verdict placed = gate.place(now, h.caller().tenant(), "", NO_METADATA);
            if (placed instanceof Gatekeeper.Admitted
                    && now.in(h.caller().tenant(), h.caller().project()).samePrincipal(h.caller())) {
                return;
            }
        }
        if (held.remove(key, h)) {
            LOG.info("A stream of {} ended: the credential that opened it is not accepted any more{}",
                    h.caller().subject(), verdict instanceof Gatekeeper.Challenged c ? " (" + c.message() + ")" : "");
            try {
                h.end().run();
            } catch (RuntimeException e) {
                LOG.warn("A stream of {} could not be ended", h.caller().subject(), e);
            }
        }
    }

    private ExecutorService slow() {
        ExecutorService s = slow;
        if (s == null) {
            synchronized (this) {
                s = slow;
                if (s == null) {
                    if (closed) {
                        throw new RejectedExecutionException("closed");
                    }
                    s = Executors.newSingleThreadExecutor(r -> {
                        Thread t = new Thread(r, "quiver-stream-credentials");
                        t.setDaemon(true);
                        return t;
                    });
                    slow = s;
                }
            }
        }
        return s;
    }

    /** Forgets every stream and stops the checking thread (the transport stops). */
    void close() {
        synchronized (this) {
            closed = true;
            if (slow != null) {
                slow.shutdownNow();
            }
        }
        held.clear();
    }
}
