package io.quiver.core.internal.request;

import io.quiver.api.CallerIdentity;
import io.quiver.api.ClientInfo;
import io.quiver.api.LogLevel;
import java.util.Map;

/**
 * Who sent one request and under which revision: from the session in the session era, from the
 * request's own {@code _meta} in the stateless era.
 *
 * @param caller the caller the transport vouched for
 * @param client the client's name, version and declared capabilities
 * @param protocolVersion the revision the request is served under
 * @param logLevel the least level of log messages the client wants on this request, or {@code null}
 *     for the era's default (session era: all; stateless era: none)
 * @param headers the transport's headers (lower-case names), or {@code null}
 */
public record Peer(CallerIdentity caller, ClientInfo client, String protocolVersion, LogLevel logLevel,
        Map<String, String> headers) {

    /** The peer of a request in a session: the level the session set when the request arrived. */
    public static Peer of(Session session) {
        return new Peer(session.caller(), session.client(), session.protocolVersion(), session.logLevel(), null);
    }

    /** A header by lower-case name, or {@code null}. */
    public String header(String name) {
        return headers == null ? null : headers.get(name);
    }
}
