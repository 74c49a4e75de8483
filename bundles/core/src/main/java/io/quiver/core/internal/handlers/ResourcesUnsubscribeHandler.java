package io.quiver.core.internal.handlers;

import io.quiver.core.internal.messages.EmptyResult;
import io.quiver.core.internal.request.MethodHandler;
import io.quiver.core.internal.request.RequestScope;
import tools.jackson.databind.node.ObjectNode;

/** {@code resources/unsubscribe}: stops updates for the URI. */
final class ResourcesUnsubscribeHandler implements MethodHandler<EmptyResult> {

    private final ResourceWatches watches;

    ResourcesUnsubscribeHandler(ResourceWatches watches) {
        this.watches = watches;
    }

    @Override
    public EmptyResult handle(RequestScope scope, ObjectNode params) {
        watches.remove(scope.session(), Params.requireString(params, "uri"));
        return EmptyResult.INSTANCE;
    }
}
