package io.quiver.transport.http.internal;

import io.quiver.api.CallerIdentity;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What one authenticated caller may ask of the server: a request rate per subject and per tenant
 * (token buckets: a sustained rate and a burst) and a number of tool calls in progress per subject.
 * Beyond them the answer is 429 with {@code Retry-After}; other callers are not affected. The
 * unauthenticated local caller (loopback without authentication) is the operator and is not limited
 * here (the engine's own limits still hold).
 *
 * <p>Idle callers' state is dropped by {@link #sweep}, so the maps hold only callers active in the
 * last minute.
 */
final class CallerLimits {

    private static final long IDLE_NANOS = 60_000_000_000L;

    /** Token bucket: {@code burst} tokens, refilled at {@code rate} per second. */
    private static final class Bucket {
        private double tokens;
        private long last;
        private long lastUsed;

        Bucket(double burst, long now) {
            this.tokens = burst;
            this.last = now;
            this.lastUsed = now;
        }

        /**
         * Takes {@code n} tokens (no more than the burst: a batch larger than it takes a full bucket): 0, or the
         * seconds until they are there, when none is taken.
         */
        synchronized long take(double rate, double burst, long now, int n) {
            double need = Math.min(n, burst);
            tokens = Math.min(burst, tokens + (now - last) / 1e9 * rate);
            last = now;
            lastUsed = now;
            if (tokens >= need) {
                tokens -= need;
                return 0;
            }
            return Math.max(1, (long) Math.ceil((need - tokens) / rate));
        }

        synchronized boolean idle(long now) {
            return now - lastUsed > IDLE_NANOS;
        }
    }

    private record Settings(double subjectRate, double subjectBurst, double tenantRate, double tenantBurst,
            int maxCallsPerSubject) {
    }

    private final Map<String, Bucket> subjects = new ConcurrentHashMap<>();
    private final Map<String, Bucket> tenants = new ConcurrentHashMap<>();
    /** Calls in progress per caller; a caller with none has no entry. */
    private final Map<String, Integer> calls = new ConcurrentHashMap<>();
    private volatile Settings settings = new Settings(0, 0, 0, 0, 0);

    void configure(HttpConfig c) {
        settings = new Settings(c.subjectRequestsPerSecond(), burst(c.subjectBurst(), c.subjectRequestsPerSecond()),
                c.tenantRequestsPerSecond(), burst(c.tenantBurst(), c.tenantRequestsPerSecond()),
                c.maxConcurrentCallsPerSubject());
    }

    private static double burst(int configured, double rate) {
        return configured > 0 ? configured : Math.max(1, Math.ceil(rate * 2));
    }

    /** Counts one request of the caller: 0 when it may go on, else the seconds to wait. */
    long admit(CallerIdentity caller) {
        return admit(caller, 1);
    }

    /**
     * Counts {@code n} requests of the caller at once (the further requests of a JSON-RPC batch): 0 when they
     * may go on, else the seconds to wait.
     */
    long admit(CallerIdentity caller, int n) {
        if (!caller.authenticated() || n <= 0) {
            return 0;
        }
        Settings s = settings;
        long now = System.nanoTime();
        if (s.subjectRate() > 0) {
            long wait = subjects.computeIfAbsent(key(caller), k -> new Bucket(s.subjectBurst(), now))
                    .take(s.subjectRate(), s.subjectBurst(), now, n);
            if (wait > 0) {
                return wait;
            }
        }
        if (s.tenantRate() > 0) {
            return tenants.computeIfAbsent(caller.tenant(), k -> new Bucket(s.tenantBurst(), now))
                    .take(s.tenantRate(), s.tenantBurst(), now, n);
        }
        return 0;
    }

    /**
     * {@code n} tool calls of the caller start together (a JSON-RPC batch's): how many were counted, which
     * {@link #exitCalls} gives back; -1, and none counted, when they would be too many. More than the limit
     * count as the limit (they start when the caller has none in progress), so a batch is never refused for
     * good. An unlimited caller counts none.
     */
    int enterCalls(CallerIdentity caller, int n) {
        int max = settings.maxCallsPerSubject();
        if (!caller.authenticated() || max <= 0 || n <= 0) {
            return 0;
        }
        int need = Math.min(n, max);
        boolean[] entered = {false};
        calls.compute(key(caller), (k, running) -> {
            int now = running == null ? 0 : running;
            if (now + need > max) {
                return running;
            }
            entered[0] = true;
            return now + need;
        });
        return entered[0] ? need : -1;
    }

    /**
     * Calls that {@link #enterCalls} let in are over: {@code counted} is what it returned, given back whatever the
     * limit is now.
     */
    void exitCalls(CallerIdentity caller, int counted) {
        if (counted <= 0) {
            return;
        }
        calls.computeIfPresent(key(caller), (k, running) -> running <= counted ? null : running - counted);
    }

    /** Drops the state of callers idle for a minute (run once a second). */
    void sweep() {
        long now = System.nanoTime();
        subjects.values().removeIf(b -> b.idle(now));
        tenants.values().removeIf(b -> b.idle(now));
    }

    private static String key(CallerIdentity caller) {
        return caller.tenant() + "\u0000" + caller.subject();
    }
}
