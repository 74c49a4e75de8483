package io.quiver.api.call;

import io.quiver.api.CallerIdentity;
import io.quiver.api.ClientInfo;
import java.util.Map;

/**
 * One tool call as the host channel sees it.
 *
 * @param invocationId unique per call (not the JSON-RPC id: simultaneous identical calls differ)
 * @param caller who calls, as the transport established it
 * @param client the client's name, version and capabilities
 * @param protocolVersion the revision the call is served under
 * @param tool the tool's name
 * @param arguments the arguments the tool will get (already valid against its input schema)
 */
public record Invocation(String invocationId, CallerIdentity caller, ClientInfo client, String protocolVersion,
        String tool, Map<String, Object> arguments) {

    public Invocation {
        arguments = arguments == null ? Map.of() : Map.copyOf(arguments);
    }
}
