package io.quiver.api.transport;

import io.quiver.api.CallerIdentity;
import java.util.Locale;
import java.util.Map;

/**
 * What the transport knows about a message besides its body.
 *
 * @param sessionId the session the client named ({@code Mcp-Session-Id}), or {@code null}
 * @param protocolVersion the revision the client named out of band ({@code MCP-Protocol-Version}), or {@code null}
 * @param caller the caller as the transport authenticated it
 * @param headers the request's headers with lower-case names (first value of each), or {@code null}
 *     for transports without headers; 2026-07-28 requests over HTTP are checked against them
 * @param clientAddress the client's network address as the transport sees it (an IP address), or
 *     {@code null} where there is none (stdio, embedding); per-client limits count by it
 */
public record Inbound(String sessionId, String protocolVersion, CallerIdentity caller, Map<String, String> headers,
        String clientAddress) {

    public Inbound {
        headers = headers == null ? null : Map.copyOf(headers);
    }

    /** A message whose client address is unknown. */
    public Inbound(String sessionId, String protocolVersion, CallerIdentity caller, Map<String, String> headers) {
        this(sessionId, protocolVersion, caller, headers, null);
    }

    /** A message from a transport without headers. */
    public Inbound(String sessionId, String protocolVersion, CallerIdentity caller) {
        this(sessionId, protocolVersion, caller, null, null);
    }

    /** A header's value by case-insensitive name, or {@code null}. */
    public String header(String name) {
        return headers == null ? null : headers.get(name.toLowerCase(Locale.ROOT));
    }
}
