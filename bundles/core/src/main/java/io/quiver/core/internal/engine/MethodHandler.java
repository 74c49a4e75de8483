package io.quiver.core.internal.engine;

import tools.jackson.databind.node.ObjectNode;

/** Serves one MCP method. Knows nothing of transports; throws {@code McpException} for protocol errors. */
@FunctionalInterface
public interface MethodHandler {

    /**
     * @param scope the request being served
     * @param params the request's params object (empty when absent)
     * @return the result, any JSON-mappable value
     */
    Object handle(RequestScope scope, ObjectNode params);
}
