package io.quiver.core.internal.handlers;

import io.quiver.core.internal.messages.EmptyResult;
import io.quiver.core.internal.request.MethodHandler;
import io.quiver.core.internal.request.RequestScope;
import tools.jackson.databind.node.ObjectNode;

/** {@code ping}: an empty result. */
final class PingHandler implements MethodHandler<EmptyResult> {

    @Override
    public EmptyResult handle(RequestScope scope, ObjectNode params) {
        return EmptyResult.INSTANCE;
    }
}
