package io.quiver.core.internal.engine;

import io.quiver.api.CallerIdentity;
import io.quiver.api.ClientInfo;
import io.quiver.api.LogLevel;
import java.util.Map;

/**
 * Who sent one request and under which revision: from the session for the session-based
 * revisions, from the request's own {@code _meta} for 2026-07-28.
 *
 * @param caller the caller the transport vouched for
 * @param client the client's name, version and declared capabilities
 * @param protocolVersion the revision the request is served under
 * @param stateless whether the request is a 2026-07-28 one (no session)
 * @param logLevel 2026-07-28 only: the level the request asked for, or {@code null} for no log messages
 * @param headers the transport's headers (lower-case names), or {@code null}
 */
public record Peer(CallerIdentity caller, ClientInfo client, String protocolVersion, boolean stateless,
        LogLevel logLevel, Map<String, String> headers) {

    /** The peer of a request in a session. */
    static Peer of(Session session) {
        return new Peer(session.caller(), session.client(), session.protocolVersion(), false, null, null);
    }

    /** A header by lower-case name, or {@code null}. */
    public String header(String name) {
        return headers == null ? null : headers.get(name);
    }
}
