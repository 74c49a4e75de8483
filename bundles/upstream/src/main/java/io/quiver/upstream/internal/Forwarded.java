package io.quiver.upstream.internal;

import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import io.quiver.api.ProtocolError;
import io.quiver.api.RequestContext;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A prompt or resource request passed on to an upstream server as one request of Quiver's client, its
 * answer awaited on the caller's thread. The server's JSON-RPC error is the caller's (its code and
 * message); a caller that cancels, or a request the engine stops, is cancelled upstream. Questions the
 * server asks while it works on such a request belong to no tool call and are refused
 * ({@link McpClient}).
 */
final class Forwarded {

    /** How often a waiting request looks whether its caller cancelled it. */
    private static final long CANCEL_POLL_MS = 25;
    private static final int INTERNAL_ERROR = -32603;

    /**
     * The server's result.
     *
     * @throws ProtocolError its error, or why it could not answer (not ready, stopped meanwhile, cancelled)
     */
    static JsonNode request(Upstream upstream, String method, ObjectNode params, RequestContext context) {
        Upstream.Generation g = upstream.ready();
        if (g == null) {
            throw new ProtocolError(INTERNAL_ERROR, upstream.unavailable() + "; try again once it is ready");
        }
        McpClient.Request request = g.client.request(method, params);
        try {
            while (true) {
                try {
                    return request.answer().get(CANCEL_POLL_MS, TimeUnit.MILLISECONDS);
                } catch (TimeoutException stillWaiting) {
                    if (context.isCancelled()) {
                        g.client.cancel(request, "the caller cancelled the request");
                        throw new ProtocolError(INTERNAL_ERROR, "The request was cancelled.");
                    }
                }
            }
        } catch (InterruptedException e) {
            // the engine stops the request (cancelled, shutting down): so does the server
            g.client.cancel(request, "the caller cancelled the request");
            Thread.currentThread().interrupt();
            throw new ProtocolError(INTERNAL_ERROR, "The request was cancelled.");
        } catch (ExecutionException e) {
            if (e.getCause() instanceof McpClient.RpcError rpc) {
                throw new ProtocolError(rpc.code, rpc.getMessage());
            }
            throw new ProtocolError(INTERNAL_ERROR, "The upstream server " + g.serverName() + " stopped before it answered ("
                    + e.getCause().getMessage() + ").");
        }
    }

    private Forwarded() {
    }
}
