package io.quiver.upstream.internal;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import io.quiver.api.ProtocolError;
import io.quiver.api.RequestContext;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A prompt, resource or completion request passed on to an upstream server as one request of Quiver's
 * client, its answer awaited on the caller's thread for at most the server's {@code callTimeoutMs} (0:
 * {@value #DEFAULT_TIMEOUT_MS} ms). The server's JSON-RPC error is the caller's (its code and message); a
 * caller that cancels, a request the engine stops, or one that overruns is cancelled upstream. Questions
 * the server asks while it works on such a request belong to no tool call: asked as requests, they are
 * refused ({@link #refusing}); asked as a stateless revision's {@code input_required}, the request ends
 * with an error saying so.
 */
final class Forwarded {

    /** How long a forwarded request may take when the server's settings name no {@code callTimeoutMs}. */
    static final long DEFAULT_TIMEOUT_MS = 60_000;
    /** How often a waiting request looks whether its caller cancelled it. */
    private static final long CANCEL_POLL_MS = 25;
    private static final int INTERNAL_ERROR = -32603;

    /** How long a request of Quiver's own may wait for the server: {@code callTimeoutMs}, or 60 s where it is 0. */
    static long timeoutMs(UpstreamConfig config) {
        return config.callTimeoutMs() > 0 ? config.callTimeoutMs() : DEFAULT_TIMEOUT_MS;
    }

    /**
     * The server's result.
     *
     * @throws ProtocolError its error, or why it could not answer (not ready, stopped meanwhile, cancelled,
     *     too slow, asking for input)
     */
    static JsonNode request(Upstream upstream, String method, ObjectNode params, RequestContext context) {
        Upstream.Generation g = upstream.ready();
        if (g == null) {
            throw new ProtocolError(INTERNAL_ERROR, upstream.unavailable() + "; try again once it is ready");
        }
        long timeoutMs = timeoutMs(upstream.config());
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        McpClient.Request request = g.client.request(method, params, Map.of(), refusing(g.client, method));
        JsonNode result;
        try {
            while (true) {
                try {
                    result = request.answer().get(CANCEL_POLL_MS, TimeUnit.MILLISECONDS);
                    break;
                } catch (TimeoutException stillWaiting) {
                    if (context.isCancelled()) {
                        g.client.cancel(request, "the caller cancelled the request");
                        throw new ProtocolError(INTERNAL_ERROR, "The request was cancelled.");
                    }
                    if (System.nanoTime() - deadline > 0) {
                        g.client.cancel(request, "timed out");
                        throw new ProtocolError(INTERNAL_ERROR, "The upstream server " + g.serverName() + " did not answer "
                                + method + " within " + timeoutMs + " ms.");
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
                throw refusal(g, method, rpc);
            }
            throw new ProtocolError(INTERNAL_ERROR, "The upstream server " + g.serverName() + " stopped before it answered ("
                    + e.getCause().getMessage() + ").");
        }
        String type = result.path("resultType").asString("complete");
        if (g.client.isStateless() && !type.equals("complete")) {
            throw new ProtocolError(INTERNAL_ERROR, "The upstream server " + g.serverName() + " asked for input to answer "
                    + method + " (resultType " + type + "); Quiver passes an upstream's questions on only within a tool call.");
        }
        return result;
    }

    /**
     * Errors that say something about the exchange between Quiver and the server, not about the caller's request:
     * the message it could not parse or take, a method it does not have, the 2026-07-28 header and version checks.
     */
    private static final Set<Integer> EXCHANGE_ERRORS = Set.of(-32700, -32600, -32601, -32020, -32021, -32022);

    /**
     * The caller's error for the server's JSON-RPC error: its own code, message and data; but an error about the
     * exchange with the server becomes an internal error naming the server (passed on, a "method not found" would
     * tell the caller that Quiver has no such method).
     */
    static ProtocolError refusal(Upstream.Generation g, String method, McpClient.RpcError rpc) {
        if (EXCHANGE_ERRORS.contains(rpc.code)) {
            return new ProtocolError(INTERNAL_ERROR, "The upstream server " + g.serverName() + " could not take " + method
                    + ": " + rpc.getMessage() + " (" + rpc.code + ")");
        }
        return new ProtocolError(rpc.code, rpc.getMessage(), rpc.data);
    }

    /**
     * What takes the server's own requests made while a forwarded request is in flight: each is refused. It
     * also keeps a question that names no request (over stdio) from going to the only tool call in flight,
     * which may be another caller's.
     */
    static McpClient.ServerRequests refusing(McpClient client, String method) {
        return (id, asked, params) -> client.respondError(id, INTERNAL_ERROR, "Quiver passes " + asked
                + " on to the user of a tool call only; it came while the server answered " + method);
    }

    private Forwarded() {
    }
}
