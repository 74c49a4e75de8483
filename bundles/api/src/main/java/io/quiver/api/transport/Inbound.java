package io.quiver.api.transport;

import io.quiver.api.CallerIdentity;

/**
 * What the transport knows about a message besides its body.
 *
 * @param sessionId the session the client named ({@code Mcp-Session-Id}), or {@code null}
 * @param protocolVersion the revision the client named out of band ({@code MCP-Protocol-Version}), or {@code null}
 * @param caller the caller as the transport authenticated it
 */
public record Inbound(String sessionId, String protocolVersion, CallerIdentity caller) {
}
