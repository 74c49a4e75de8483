package io.quiver.api.operator;

/**
 * One open session.
 *
 * @param id the session id
 * @param protocolVersion the negotiated revision
 * @param client the client's name and version
 * @param caller the caller's subject, followed by its tenant (and project) in parentheses unless it is in
 *     the default tenant as a whole
 * @param streamOpen whether a GET stream is attached
 * @param requestsInFlight requests being served
 * @param idleMillis time since the last message
 */
public record SessionInfo(String id, String protocolVersion, String client, String caller, boolean streamOpen,
        int requestsInFlight, long idleMillis) {
}
