package io.quiver.core.internal.era;

import io.quiver.api.transport.StreamPolicy;
import io.quiver.core.internal.messages.ProtocolVersions;
import io.quiver.core.internal.messages.Result;
import io.quiver.core.internal.messages.Views;
import io.quiver.core.internal.request.Era;
import io.quiver.core.internal.request.MethodHandler;
import io.quiver.core.internal.rpc.ErrorCodes;
import io.quiver.core.internal.rpc.JsonRpc;
import java.util.Map;
import tools.jackson.databind.JsonNode;

/**
 * The session era (revisions 2024-11-05 to 2025-11-25): {@code initialize} opens a session; input
 * comes from requests to the client on the request's own stream; a lost connection is not a
 * cancellation (the stream is resumed with {@code Last-Event-ID}); results carry only what the
 * client's revision defines.
 */
public final class SessionEra implements Era {

    /** The first revision whose clients understand a priming event. */
    private static final String PRIMING = "2025-11-25";

    private final Map<String, MethodHandler> handlers;

    public SessionEra(Map<String, MethodHandler> handlers) {
        this.handlers = Map.copyOf(handlers);
    }

    @Override
    public String name() {
        return "session era";
    }

    @Override
    public MethodHandler handler(String method) {
        return handlers.get(method);
    }

    @Override
    public boolean asksClient() {
        return true;
    }

    @Override
    public boolean logsUnasked() {
        return true;
    }

    @Override
    public boolean offersTasks() {
        return false;
    }

    @Override
    public int resourceNotFound() {
        return ErrorCodes.RESOURCE_NOT_FOUND;
    }

    /** Resumable streams; a priming event only for clients of 2025-11-25 or later (it confuses older ones). */
    @Override
    public StreamPolicy streamPolicy(String version) {
        return new StreamPolicy(ProtocolVersions.atLeast(version, PRIMING), true, false);
    }

    /** The result as the client's revision defines it: newer properties left out, newer content replaced. */
    @Override
    public byte[] response(JsonNode id, String method, String version, Result result) {
        return JsonRpc.result(id, result.forRevision(version), Views.of(version));
    }
}
