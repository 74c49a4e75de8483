package io.quiver.host.internal;

import io.quiver.api.CallerIdentity;
import io.quiver.api.call.Invocation;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * The host's side of every call, as correlated requests and replies. Each question the engine asks
 * becomes a request with its own id ({@code INVOCATION/N}) sent to the host's endpoint; the asking
 * thread waits until the host replies to that id. A reply is taken once: a second one is a duplicate, one
 * for a request no longer waited for (answered, timed out, its call over) is stale, one that does not fit
 * its request is refused as invalid and the request stays open for a good one. Only JDK types cross: a
 * request is a {@code Map} of JSON values, a reply too.
 */
final class Interactions {

    static final String ACCEPTED = "accepted";
    static final String STALE = "stale";
    static final String DUPLICATE = "duplicate";
    static final String UNKNOWN = "unknown";
    static final String INVALID = "invalid: ";
    /** How many ended calls and answered requests are remembered, to tell stale and duplicate from unknown. */
    private static final int REMEMBERED = 10_000;

    /** A call the host has heard of and not yet been told is over. */
    private static final class Live {
        final CallerIdentity caller;
        final Consumer<String> stop;
        final AtomicInteger requests = new AtomicInteger();

        Live(CallerIdentity caller, Consumer<String> stop) {
            this.caller = caller;
            this.stop = stop;
        }
    }

    /** A request the host has not answered yet; {@code check} says why a reply does not fit, or null. */
    private record Pending(String invocationId, CompletableFuture<Map<String, Object>> reply,
            Function<Map<String, Object>, String> check) {
    }

    private final Consumer<Map<String, Object>> endpoint;
    private final Map<String, Live> live = new ConcurrentHashMap<>();
    private final Map<String, Pending> pending = new ConcurrentHashMap<>();
    private final Set<String> ended = recent();
    private final Set<String> answered = recent();
    private volatile String shutdown;
    /** Held while the shutdown is set and the calls it stops are counted, and while a call leaves {@link #live}. */
    private final Object leaving = new Object();

    Interactions(Consumer<Map<String, Object>> endpoint) {
        this.endpoint = endpoint;
    }

    /** The host was shut down: no call is admitted any more. */
    static final class ShutDown extends RuntimeException {
        private static final long serialVersionUID = 1L;

        ShutDown(String reason) {
            super(reason, null, false, false);
        }
    }

    /** Why the host was shut down, or {@code null}: it takes calls. */
    String shutdown() {
        return shutdown;
    }

    /** A call began: the host may stop it from now on; it hears of it with its first request. */
    void begin(Invocation invocation, Consumer<String> stop) {
        live.put(invocation.invocationId(), new Live(invocation.caller(), stop));
        String reason = shutdown;
        if (reason != null) {
            stop.accept(reason);
        }
    }

    /**
     * Sends a request and waits for the host's reply.
     *
     * @param kind what is asked: admit, release, input, review, record
     * @param details what the request carries besides the call
     * @param check why a reply does not fit ({@code null}: it fits)
     * @return the reply that fit
     * @throws CancellationException when the wait was interrupted (the call cancelled or stopped, the host's time up)
     * @throws ShutDown when the host was shut down
     */
    Map<String, Object> ask(Invocation invocation, String kind, Map<String, Object> details,
            Function<Map<String, Object>, String> check) {
        String reason = shutdown;
        if (reason != null) {
            throw stopped(live.get(invocation.invocationId()), reason);
        }
        Live call = live.computeIfAbsent(invocation.invocationId(), k -> new Live(invocation.caller(), r -> { }));
        String id = invocation.invocationId() + "/" + call.requests.incrementAndGet();
        Pending waiting = new Pending(invocation.invocationId(), new CompletableFuture<>(), check);
        pending.put(id, waiting);
        try {
            endpoint.accept(Requests.request(id, kind, invocation, details));
            reason = shutdown;
            if (reason != null) {
                throw stopped(call, reason); // the shutdown may have missed this request
            }
            return waiting.reply().get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CancellationException("the wait for the host was ended");
        } catch (ExecutionException e) {
            throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
        } finally {
            pending.remove(id, waiting);
        }
    }

    /**
     * The failure of a call that saw the shutdown, after the call is stopped: the shutdown's own thread
     * may not have reached it yet, and a wait that failed on a call not yet stopped would read as the
     * host's refusal rather than as the stop.
     */
    private static ShutDown stopped(Live call, String reason) {
        if (call != null) {
            call.stop.accept(reason);
        }
        return new ShutDown(reason);
    }

    /**
     * A reply from the host.
     *
     * @return {@link #ACCEPTED}, {@link #STALE}, {@link #DUPLICATE}, {@link #UNKNOWN} or {@link #INVALID} and why
     */
    String reply(String id, Map<String, Object> reply) {
        if (id == null) {
            return UNKNOWN;
        }
        Pending waiting = pending.get(id);
        if (waiting == null) {
            if (answered.contains(id)) {
                return DUPLICATE;
            }
            int slash = id.lastIndexOf('/');
            String invocationId = slash < 0 ? id : id.substring(0, slash);
            return ended.contains(invocationId) || live.containsKey(invocationId) ? STALE : UNKNOWN;
        }
        String problem = reply == null ? "no reply" : waiting.check().apply(reply);
        if (problem != null) {
            return INVALID + problem;
        }
        synchronized (waiting) {
            if (waiting.reply().isDone()) {
                return DUPLICATE;
            }
            answered.add(id);
            waiting.reply().complete(Collections.unmodifiableMap(new LinkedHashMap<>(reply)));
        }
        return ACCEPTED;
    }

    /** The call is over: the host is told (with {@code details}: how it ended), and later replies for it are stale. */
    void over(Invocation invocation, Map<String, Object> details) {
        Live call;
        synchronized (leaving) {
            call = live.remove(invocation.invocationId());
        }
        ended.add(invocation.invocationId());
        if (call != null && call.requests.get() > 0) {
            try {
                endpoint.accept(Requests.request(invocation.invocationId() + "/over", "over", invocation, details));
            } catch (RuntimeException e) {
                // the host hears of calls it took part in; one that fails to hear the end loses nothing
            }
        }
    }

    /** Stops one call; {@link #STALE} or {@link #UNKNOWN} when it is not running. */
    String stop(String invocationId, String reason) {
        Live call = invocationId == null ? null : live.get(invocationId);
        if (call == null) {
            return invocationId != null && ended.contains(invocationId) ? STALE : UNKNOWN;
        }
        call.stop.accept(reason);
        return ACCEPTED;
    }

    /** Stops every running call of one caller (by subject, and tenant when given); how many. */
    int stopCaller(String subject, String tenant, String reason) {
        int stopped = 0;
        for (Live call : List.copyOf(live.values())) {
            if (call.caller.subject().equals(subject) && (tenant == null || tenant.equals(call.caller.tenant()))) {
                call.stop.accept(reason);
                stopped++;
            }
        }
        return stopped;
    }

    /**
     * Stops admitting calls, stops every running one and ends every open request: no call waits for the
     * host any more. How many calls were stopped.
     */
    int shutDown(String reason) {
        List<Live> calls;
        synchronized (leaving) {
            // a call that sees the shutdown (after sending its request) stops itself at once: it is counted first
            shutdown = reason == null || reason.isBlank() ? "the host shut down" : reason;
            calls = new ArrayList<>(live.values());
        }
        calls.forEach(call -> call.stop.accept(shutdown));
        for (Pending waiting : List.copyOf(pending.values())) {
            waiting.reply().completeExceptionally(new ShutDown(shutdown));
        }
        return calls.size();
    }

    /** Calls running now (for the host's view and the tests). */
    int running() {
        return live.size();
    }

    private static Set<String> recent() {
        return Collections.synchronizedSet(Collections.newSetFromMap(new LinkedHashMap<>(16, 0.75f, false) {
            private static final long serialVersionUID = 1L;

            @Override
            protected boolean removeEldestEntry(Map.Entry<String, Boolean> eldest) {
                return size() > REMEMBERED;
            }
        }));
    }
}
