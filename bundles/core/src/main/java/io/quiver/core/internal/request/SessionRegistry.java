package io.quiver.core.internal.request;

import io.quiver.api.CallerIdentity;
import io.quiver.core.internal.rpc.McpException;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Live sessions by id, bounded in number, overall, per client address and per authenticated subject (of its
 * tenant and project). Ids are 128 random bits in hex, so they cannot be guessed.
 *
 * <p>When a bound is reached a new session is refused, not made room for: evicting the least
 * recently used idle session would let a flood of {@code initialize} calls push real clients out
 * (and many clients do not notice a lost session until they next call), while a refused
 * {@code initialize} only asks its client to try again. Sessions that never send anything after
 * their {@code initialize} are closed after the short handshake timeout, so a flood clears itself.
 */
public final class SessionRegistry {

    private static final String NO_ADDRESS = "";

    private final SecureRandom random = new SecureRandom();
    private final Map<String, Session> sessions = new ConcurrentHashMap<>();
    private final ConcurrentMap<String, Integer> perAddress = new ConcurrentHashMap<>();
    private final ConcurrentMap<String, Integer> perSubject = new ConcurrentHashMap<>();
    private final AtomicInteger count = new AtomicInteger();

    /**
     * Opens a session for a caller.
     *
     * @param era the session era, whose stream policy the session's stream follows
     * @param address the client's address, or {@code null} when the transport has none
     * @throws McpException ({@link io.quiver.api.transport.Receipt.Reason#UNAVAILABLE}) when a bound is reached
     */
    public Session create(Era era, CallerIdentity caller, String address, int max, int maxPerAddress,
            int maxPerSubject) {
        String key = address == null ? NO_ADDRESS : address;
        if (count.incrementAndGet() > max) {
            count.decrementAndGet();
            throw McpException.unavailable("Server busy: " + max + " sessions are open, the most this server keeps;"
                    + " try again later");
        }
        if (!key.equals(NO_ADDRESS) && !Counts.take(perAddress, key, maxPerAddress)) {
            count.decrementAndGet();
            throw McpException.unavailable("Server busy: " + maxPerAddress + " sessions are open from your address,"
                    + " the most this server keeps per client; close some or try again later");
        }
        String subject = subject(caller);
        if (subject != null && !Counts.take(perSubject, subject, maxPerSubject)) {
            if (!key.equals(NO_ADDRESS)) {
                Counts.give(perAddress, key);
            }
            count.decrementAndGet();
            throw McpException.unavailable("Server busy: " + maxPerSubject + " sessions of yours are open, the most"
                    + " this server keeps per caller; close some or try again later");
        }
        byte[] bytes = new byte[16];
        random.nextBytes(bytes);
        String id = HexFormat.of().formatHex(bytes);
        Session session = new Session(id, era, caller, key, this::ended);
        sessions.put(id, session);
        return session;
    }

    private void ended(Session session) {
        if (sessions.remove(session.id(), session)) {
            count.decrementAndGet();
            if (!session.address().equals(NO_ADDRESS)) {
                Counts.give(perAddress, session.address());
            }
            String subject = subject(session.caller());
            if (subject != null) {
                Counts.give(perSubject, subject);
            }
        }
    }

    /** Whose sessions are counted together: an authenticated subject of its tenant and project; null for others. */
    static String subject(CallerIdentity caller) {
        return caller == null || !caller.authenticated() ? null : Owner.of(caller);
    }

    /** A live session, or {@code null}. */
    public Session get(String id) {
        Session session = id == null ? null : sessions.get(id);
        return session != null && session.isOpen() ? session : null;
    }

    /** Every live session. */
    public List<Session> all() {
        return List.copyOf(sessions.values());
    }

    /** How many sessions are open. */
    public int size() {
        return count.get();
    }

    /**
     * Closes sessions idle for longer than the limit, and those that sent nothing after their
     * {@code initialize} within the handshake timeout.
     */
    public void expireIdle(long idleMillis, long handshakeMillis) {
        long idle = idleMillis * 1_000_000L;
        long handshake = handshakeMillis * 1_000_000L;
        for (Session session : all()) {
            if (session.idleFor(idle) || session.silentSinceInitializeFor(handshake)) {
                session.close();
            }
        }
    }

    /** Closes every session. */
    public void closeAll() {
        all().forEach(Session::close);
    }
}
