package io.quiver.api;

import java.util.Map;
import org.osgi.annotation.versioning.ProviderType;

/** What a tool, resource, prompt or completion can know about and do for the request it serves. */
@ProviderType
public interface RequestContext {

    /** A unique id of this invocation, distinct even for identical simultaneous requests. */
    String invocationId();

    /** Who is calling, as the transport established it. */
    CallerIdentity caller();

    /** The client and its declared capabilities. */
    ClientInfo client();

    /** The negotiated protocol revision, for example {@code 2025-11-25}. */
    String protocolVersion();

    /**
     * Reports progress; sent to the client only when its request carried a progress token.
     *
     * @param progress the amount done so far (must increase from call to call)
     * @param total the total, or {@code null} when unknown
     * @param message a human-readable message, or {@code null}
     */
    void progress(double progress, Double total, String message);

    /**
     * Sends a log message to the client (filtered by the level the client set) and nowhere else.
     *
     * @param data a string or a JSON-mappable value
     */
    void log(LogLevel level, String logger, Object data);

    /** True once the client cancelled the request, the call timed out or the server is stopping. */
    boolean isCancelled();

    /**
     * The request's {@code _meta} as the client sent it, less the protocol's own keys ({@code progressToken}
     * and those under {@code io.modelcontextprotocol/}): the client's word, for a tool that passes it on
     * (an upstream server's proxy does), never a value the server vouches for.
     *
     * @return JSON values by key, empty for none
     */
    default Map<String, Object> meta() {
        return Map.of();
    }
}
