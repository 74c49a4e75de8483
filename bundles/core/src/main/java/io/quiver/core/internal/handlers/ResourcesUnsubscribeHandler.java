package io.quiver.core.internal.handlers;

import io.quiver.core.internal.request.MethodHandler;
import io.quiver.core.internal.request.RequestScope;
import java.util.Map;
import tools.jackson.databind.node.ObjectNode;

/** {@code resources/unsubscribe}: stops updates for the URI. */
final class ResourcesUnsubscribeHandler implements MethodHandler {

    @Override
    public Object handle(RequestScope scope, ObjectNode params) {
        scope.session().subscriptions().remove(Params.requireString(params, "uri"));
        return Map.of();
    }
}
