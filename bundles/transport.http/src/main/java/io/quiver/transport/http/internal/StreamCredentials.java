package io.quiver.transport.http.internal;

import io.quiver.api.CallerIdentity;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
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
 * The credentials that opened the streams still open (GET streams, 2026-07-28 listen streams), checked again
 * on every keep-alive tick and whenever an authenticator comes or goes. A stream whose credential would now be
 * refused (an API key revoked, a token expired, authentication required since it opened) or that would now be
 * another caller's ends, as the next POST with that credential would be refused: a stream is authenticated once,
 * when it opens, and would otherwise carry the session's notifications for as long as its connection lasts.
 *
 * <p>The checks run on a thread of their own, one pass at a time, each distinct credential checked once per
 * pass: verifying tokens (a signature, a JWKS fetched over the network) never holds up the transport's timer,
 * whose other work (body deadlines, keep-alives) is due on time, and many streams of one credential cost one
 * check.
 */
final class StreamCredentials {

    private static final Logger LOG = LoggerFactory.getLogger(StreamCredentials.class);
    private static final Supplier<String> NO_METADATA = () -> "";

    /** A stream (whether it is open, how to end it) with what admitted it. */
    private record Held(BooleanSupplier open, Runnable end, String authorization, String remoteAddr,
            CallerIdentity caller) {
    }

    private final Gatekeeper gate;
    private final Map<Object, Held> held = new ConcurrentHashMap<>();
    /** Whether a pass is asked for and has not begun yet. */
    private final AtomicBoolean due = new AtomicBoolean();
    /** Its thread starts with the first pass: a server without streams has none. */
    private final ExecutorService checker = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "quiver-stream-credentials");
        t.setDaemon(true);
        return t;
    });

    StreamCredentials(Gatekeeper gate) {
        this.gate = gate;
    }

    /**
     * Keeps a stream's credential for the checks to come. {@code caller} is the caller as admitted, in the
     * tenant of the path and the project of the query.
     */
    void hold(SseStream stream, Connection connection, String authorization, String remoteAddr, CallerIdentity caller) {
        // ended through the stream, which locks itself before its connection as every other writer does (closing the
        // connection alone completes the response, whose listener then waits for the stream: a deadlock with the
        // keep-alive writing under the stream's lock)
        hold(connection, connection::isOpen, () -> stream.disconnect(connection), authorization, remoteAddr, caller);
    }

    /**
     * Keeps the credential of a stream that is not a GET's connection (a 2026-07-28 {@code subscriptions/listen}
     * stream): {@code key} names it, {@code open} says whether it still is, {@code end} ends it.
     */
    void hold(Object key, BooleanSupplier open, Runnable end, String authorization, String remoteAddr,
            CallerIdentity caller) {
        if (!checker.isShutdown()) {
            held.put(key, new Held(open, end, authorization, remoteAddr, caller));
        }
    }

    /** Asks for a pass over every held credential (from any thread; one already asked for and not begun is enough). */
    void recheck() {
        if (held.isEmpty() || !due.compareAndSet(false, true)) {
            return;
        }
        try {
            checker.execute(this::pass);
        } catch (RejectedExecutionException closedMeanwhile) {
            due.set(false);
        }
    }

    /** Checks every held credential again; ends the streams whose credential is refused now. */
    private void pass() {
        due.set(false); // a change from now on asks for the next pass
        Map<String, Gatekeeper.Verdict> verdicts = new HashMap<>();
        Map<String, Integer> ended = new TreeMap<>();
        Map<String, String> why = new HashMap<>();
        for (Map.Entry<Object, Held> e : held.entrySet()) {
            Held h = e.getValue();
            if (!h.open().getAsBoolean()) {
                held.remove(e.getKey(), h);
                continue;
            }
            Gatekeeper.Verdict verdict;
            try {
                // the address is only for the log: one check per credential
                verdict = verdicts.computeIfAbsent(h.authorization() == null ? "" : h.authorization(),
                        k -> gate.check(h.authorization(), h.remoteAddr(), NO_METADATA, false));
                if (accepted(h, verdict) || !held.remove(e.getKey(), h)) {
                    continue;
                }
            } catch (RuntimeException failure) {
                LOG.warn("The credential of a stream of {} could not be checked; it is checked again at the next round",
                        h.caller().subject(), failure);
                continue;
            }
            ended.merge(h.caller().subject(), 1, Integer::sum);
            why.put(h.caller().subject(), verdict instanceof Gatekeeper.Challenged c ? " (" + c.message() + ")" : "");
            try {
                h.end().run();
            } catch (RuntimeException failure) {
                LOG.warn("A stream of {} could not be ended", h.caller().subject(), failure);
            }
        }
        for (Map.Entry<String, Integer> subject : ended.entrySet()) {
            LOG.info("{} of {} ended: the credential that opened {} is not accepted any more{}",
                    subject.getValue() == 1 ? "A stream" : subject.getValue() + " streams", subject.getKey(),
                    subject.getValue() == 1 ? "it" : "them", why.get(subject.getKey()));
        }
    }

    /** Whether the stream's credential admits, now, the caller it admitted when the stream opened. */
    private boolean accepted(Held h, Gatekeeper.Verdict verdict) {
        if (!(verdict instanceof Gatekeeper.Admitted admitted)) {
            return false;
        }
        CallerIdentity now = admitted.caller();
        return gate.place(now, h.caller().tenant(), "", NO_METADATA) instanceof Gatekeeper.Admitted
                && now.in(h.caller().tenant(), h.caller().project()).samePrincipal(h.caller());
    }

    /** Forgets every stream and stops the checking thread (the transport stops). */
    void close() {
        checker.shutdownNow();
        held.clear();
    }
}
