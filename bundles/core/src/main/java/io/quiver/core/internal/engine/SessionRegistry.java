package io.quiver.core.internal.engine;

import io.quiver.api.CallerIdentity;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** Live sessions by id. Ids are 128 random bits in hex, so they cannot be guessed. */
public final class SessionRegistry {

    private final SecureRandom random = new SecureRandom();
    private final Map<String, Session> sessions = new ConcurrentHashMap<>();

    /** Opens a session for a caller. */
    public Session create(CallerIdentity caller) {
        byte[] bytes = new byte[16];
        random.nextBytes(bytes);
        String id = HexFormat.of().formatHex(bytes);
        Session session = new Session(id, caller, s -> sessions.remove(s.id(), s));
        sessions.put(id, session);
        return session;
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

    /** Closes sessions idle for longer than the limit. */
    public void expireIdle(long idleMillis) {
        long nanos = idleMillis * 1_000_000L;
        for (Session session : all()) {
            if (session.idleFor(nanos)) {
                session.close();
            }
        }
    }

    /** Closes every session. */
    public void closeAll() {
        all().forEach(Session::close);
    }
}
