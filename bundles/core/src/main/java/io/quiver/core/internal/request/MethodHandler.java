package io.quiver.core.internal.request;

import io.quiver.core.internal.messages.Result;
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
}
