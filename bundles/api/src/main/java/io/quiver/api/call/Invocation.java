package io.quiver.api.call;

import io.quiver.api.CallerIdentity;
import io.quiver.api.ClientInfo;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One tool call as the host channel sees it.
 *
 * @param invocationId unique per call (not the JSON-RPC id: simultaneous identical calls differ)
 * @param caller who calls, as the transport established it
 * @param client the client's name, version and capabilities
 * @param protocolVersion the revision the call is served under
 * @param tool the tool's name
 * @param arguments the arguments the tool will get (already valid against its input schema; after a
 *     host's edit, the edited ones)
 * @param requestedArguments the arguments as the caller sent them (since 1.2)
 * @param correlation the caller's {@code _meta} of the request (such as {@code claudecode/toolUseId} or
 *     a progress token), carried so the host can match the call with its own records; the caller
 *     wrote it, so it is never a reason to trust or allow anything (since 1.2)
 * @param toolMeta the tool's own {@code _meta} as listed (a result-size hint, for example), or empty
 *     (since 1.2)
 */
public record Invocation(String invocationId, CallerIdentity caller, ClientInfo client, String protocolVersion,
        String tool, Map<String, Object> arguments, Map<String, Object> requestedArguments,
        Map<String, Object> correlation, Map<String, Object> toolMeta) {

    public Invocation {
        arguments = copy(arguments);
        requestedArguments = requestedArguments == null ? arguments : copy(requestedArguments);
        correlation = copy(correlation);
        toolMeta = copy(toolMeta);
    }

    /** An invocation whose arguments are as the caller sent them, with no correlation or tool metadata (1.0). */
    public Invocation(String invocationId, CallerIdentity caller, ClientInfo client, String protocolVersion,
            String tool, Map<String, Object> arguments) {
        this(invocationId, caller, client, protocolVersion, tool, arguments, null, null, null);
    }

    /** Whether the host's edit changed the arguments the caller sent. */
    public boolean edited() {
        return !arguments.equals(requestedArguments);
    }

    /** JSON values may be null, which {@code Map.copyOf} refuses. */
    private static Map<String, Object> copy(Map<String, Object> map) {
        if (map == null || map.isEmpty()) {
            return Map.of();
        }
        return Collections.unmodifiableMap(new LinkedHashMap<>(map));
    }
}
