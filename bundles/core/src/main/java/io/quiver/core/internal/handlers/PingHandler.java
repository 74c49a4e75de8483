package io.quiver.core.internal.handlers;

import io.quiver.core.internal.request.MethodHandler;
import io.quiver.core.internal.request.RequestScope;
import java.util.Map;
import tools.jackson.databind.node.ObjectNode;

/** {@code ping}: an empty result. */
final class PingHandler implements MethodHandler {

    @Override
    public Object handle(RequestScope scope, ObjectNode params) {
        return Map.of();
    }
}
