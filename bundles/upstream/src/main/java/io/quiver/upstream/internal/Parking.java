package io.quiver.upstream.internal;

import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Upstream calls that wait for their user's answers between two attempts of a Quiver tool call. A
 * {@link ProxyTool} whose upstream asks a question hands it to the caller's input path as an input
 * request and parks the {@link CallExchange} here under a handle; the key of each input request names
 * the handle and the round ({@link #key}), so the next attempt, which carries every answer so far,
 * finds the exchange and goes on with it. A parked exchange belongs to the caller and the tool that
 * parked it. One not taken up within {@link #HOLD_MS} is cancelled at the server; the handles of
 * finished exchanges are remembered as long, so a later attempt that still carries their answers is
 * told apart from one whose exchange was lost (the server restarted): that one is refused, never sent
 * again.
 */
final class Parking {

    /** How long a parked exchange waits for its answers. */
    static final long HOLD_MS = TimeUnit.MINUTES.toMillis(10);
    /** Parked exchanges a server holds at most; beyond that the oldest is cancelled. */
    static final int MAX_PARKED = 256;
    /** The prefix of the input request keys of parked exchanges. */
    static final String PREFIX = "io.quiver/upstream/";
    private static final Pattern KEY = Pattern.compile(Pattern.quote(PREFIX) + "([0-9a-f]{16})/(\\d+)/(.*)", Pattern.DOTALL);
    private static final SecureRandom RANDOM = new SecureRandom();

    /**
     * An exchange waiting for answers.
     *
     * @param questions the questions of its last round, by input request key
     * @param owner the caller and tool it belongs to ({@link #owner})
     */
    record Parked(String handle, int round, CallExchange exchange, Map<String, CallExchange.Question> questions,
            String owner, long expiresAt) {
    }

    private final Map<String, Parked> parked = new ConcurrentHashMap<>();
    private final Map<String, Long> finished = new ConcurrentHashMap<>();

    static String newHandle() {
        byte[] bytes = new byte[8];
        RANDOM.nextBytes(bytes);
        return HexFormat.of().formatHex(bytes);
    }

    /** The input request key of an upstream question in a round of a parked exchange. */
    static String key(String handle, int round, String questionKey) {
        return PREFIX + handle + "/" + round + "/" + questionKey;
    }

    /** The handle in an input request key of this kind, or null for any other key. */
    static String handle(String key) {
        Matcher m = KEY.matcher(key);
        return m.matches() ? m.group(1) : null;
    }

    /** Whom a parked exchange belongs to: one principal in one place, calling one tool. */
    static String owner(String subject, String tenant, String project, String tool) {
        return subject + "\n" + tenant + "\n" + (project == null ? "" : project) + "\n" + tool;
    }

    void park(Parked p) {
        sweep();
        parked.put(p.handle(), p);
        if (parked.size() > MAX_PARKED) {
            parked.values().stream().min(Comparator.comparingLong(Parked::expiresAt))
                    .ifPresent(oldest -> expire(oldest, "too many upstream calls wait for answers"));
        }
    }

    /** What became of a handle an attempt carries answers for. */
    enum Found { PARKED, FINISHED, UNKNOWN }

    /** Takes a parked exchange for its owner; null (and what the handle is) when there is none. */
    Parked take(String handle, String owner) {
        sweep();
        Parked p = parked.get(handle);
        if (p != null && p.owner().equals(owner) && parked.remove(handle, p)) {
            return p;
        }
        return null;
    }

    Found status(String handle) {
        return parked.containsKey(handle) ? Found.PARKED : finished.containsKey(handle) ? Found.FINISHED : Found.UNKNOWN;
    }

    /** Remembers that an exchange reached its end, so later answers for it are not taken for a lost one. */
    void finished(String handle) {
        finished.put(handle, System.currentTimeMillis() + HOLD_MS);
    }

    /** Cancels the exchanges whose wait is over and forgets old finished handles. */
    void sweep() {
        long now = System.currentTimeMillis();
        for (Parked p : List.copyOf(parked.values())) {
            if (p.expiresAt() <= now) {
                expire(p, "no answer came within " + TimeUnit.MILLISECONDS.toMinutes(HOLD_MS) + " minutes");
            }
        }
        finished.values().removeIf(until -> until <= now);
    }

    private void expire(Parked p, String why) {
        if (parked.remove(p.handle(), p)) {
            p.exchange().cancel(why);
        }
    }

    /** Cancels every parked exchange (the connection ended or the server stops). */
    void cancelAll(String why) {
        for (Parked p : new ArrayList<>(parked.values())) {
            expire(p, why);
        }
    }

    int size() {
        return parked.size();
    }
}
