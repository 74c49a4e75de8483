package io.quiver.core.internal.handlers;

import io.quiver.core.internal.catalog.Catalog;
import io.quiver.core.internal.messages.EmptyResult;
import io.quiver.core.internal.request.MethodHandler;
import io.quiver.core.internal.request.RequestScope;
import tools.jackson.databind.node.ObjectNode;

/** {@code resources/subscribe}: the session hears {@code notifications/resources/updated} for the URI. */
final class ResourcesSubscribeHandler implements MethodHandler<EmptyResult> {

    private final Catalog catalog;

    ResourcesSubscribeHandler(Catalog catalog) {
        this.catalog = catalog;
    }

    @Override
    public EmptyResult handle(RequestScope scope, ObjectNode params) {
        String uri = Params.requireString(params, "uri");
        scope.session().subscriptions().add(uri);
        return EmptyResult.INSTANCE;
    }
}
