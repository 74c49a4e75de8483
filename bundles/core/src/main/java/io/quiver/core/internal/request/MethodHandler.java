package io.quiver.core.internal.request;

import io.quiver.core.internal.messages.Result;
import io.quiver.core.internal.rpc.ErrorCodes;
import io.quiver.core.internal.rpc.McpException;
import tools.jackson.databind.node.ObjectNode;

/**
 * Serves one MCP method. Knows nothing of transports or of how its result is written; throws
 * {@code McpException} for protocol errors.
 *
 * @param <R> the result it answers with
 */
@FunctionalInterface
public interface MethodHandler<R extends Result> {

    /**
     * @param scope the request being served
     * @param params the request's params object (empty when absent)
     * @return the result; {@link io.quiver.core.internal.messages.StreamOpen} when the answer is a
     *     stream that stays open
     */
    R handle(RequestScope scope, ObjectNode params);

    /**
     * The share of the tool threads this request must get before it runs (a tool's name), or
     * {@code null}: it runs at once. The engine waits for the share holding no thread.
     */
    default String share(RequestScope scope, ObjectNode params) {
        return null;
    }

    /**
     * Whether this request can be served without waiting on anything (see
     * {@code Exchange.runNow}); {@code false} unless the handler knows better.
     */
    default boolean quick(io.quiver.api.CallerIdentity caller, ObjectNode params) {
        return false;
    }

    /**
     * The request was cancelled before it ran (while it waited for its share, say): it gets no answer, and a
     * handler whose requests are recorded records it here.
     */
    default void cancelledBeforeRun(RequestScope scope, ObjectNode params) {
    }

    /** The answer when that share and its queue are full. */
    default Result busy(RequestScope scope, ObjectNode params, String reason) {
        throw new McpException(ErrorCodes.SERVER_UNAVAILABLE, reason);
    }
}
