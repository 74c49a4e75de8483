package io.quiver.core.internal.request;

import tools.jackson.databind.node.ObjectNode;

/** Serves one MCP method. Knows nothing of transports; throws {@code McpException} for protocol errors. */
@FunctionalInterface
public interface MethodHandler {

    /** What a handler returns when its answer is a stream that stays open (the result comes later, if ever). */
    Object STAYS_OPEN = new Object();

    /**
     * @param scope the request being served
     * @param params the request's params object (empty when absent)
     * @return the result, any JSON-mappable value
     */
    Object handle(RequestScope scope, ObjectNode params);
}
