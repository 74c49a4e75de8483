package io.quiver.upstream.internal;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import tools.jackson.databind.JsonNode;

/**
 * Upstream calls that wait for their user's answers between two attempts of a Quiver tool call. A
 * {@link ProxyTool} whose upstream asks a question hands it to the caller's input path as an input
 * request and parks the {@link CallExchange} here under a handle; the key of each input request names
 * the handle and the round ({@link #key}), so the next attempt, which carries every answer so far,
 * finds the exchange and goes on with it. A parked exchange belongs to the caller and the tool that
 * parked it; a 2026-07-28 caller's retry, whose first attempt carries none of its answers yet, finds it
 * by the call itself (the caller, the tool and the arguments: {@link #waiting}). One not taken up within {@link #HOLD_MS} is cancelled at the server; the handles of
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
     * @param call the owner and the call's arguments ({@link #call}), how a retry that carries no
     *     answer of it yet finds it
     */
    record Parked(String handle, int round, CallExchange exchange, Map<String, CallExchange.Question> questions,
            String owner, String call, long expiresAt) {
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

    /** A call as a retry names it again: its owner and its arguments, whatever the order of their members. */
    static String call(String owner, JsonNode arguments) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(canonical(arguments).getBytes(StandardCharsets.UTF_8));
            return owner + "\n" + HexFormat.of().formatHex(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String canonical(JsonNode node) {
        if (node == null) {
            return "null";
        }
        if (node.isObject()) {
            Map<String, JsonNode> sorted = new TreeMap<>();
            node.properties().forEach(e -> sorted.put(e.getKey(), e.getValue()));
            StringBuilder out = new StringBuilder("{");
            sorted.forEach((k, v) -> out.append(McpClient.JSON.getNodeFactory().stringNode(k)).append(':')
                    .append(canonical(v)).append(','));
            return out.append('}').toString();
        }
        if (node.isArray()) {
            StringBuilder out = new StringBuilder("[");
            node.forEach(v -> out.append(canonical(v)).append(','));
            return out.append(']').toString();
        }
        return node.isNumber() ? node.decimalValue().stripTrailingZeros().toPlainString() : node.toString();
    }

    /**
     * The exchange a call that carries no answer of it waits in, left parked: a 2026-07-28 caller's
     * retry runs the tool first with the answers it had before (none, the first time) and gives the
     * answers it brings only to the questions asked again, so the exchange asks its questions again,
     * under the same keys. Null when none waits (the call is new).
     */
    Parked waiting(String call) {
        sweep();
        Parked newest = null;
        for (Parked p : parked.values()) {
            if (p.call().equals(call) && (newest == null || p.expiresAt() > newest.expiresAt())) {
                newest = p;
            }
        }
        return newest;
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
