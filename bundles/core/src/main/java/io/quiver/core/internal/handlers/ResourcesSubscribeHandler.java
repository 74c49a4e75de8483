package io.quiver.core.internal.handlers;

import io.quiver.api.call.Target;
import io.quiver.core.internal.catalog.Catalog;
import io.quiver.core.internal.pipeline.Authorize;
import io.quiver.core.internal.messages.EmptyResult;
import io.quiver.core.internal.request.MethodHandler;
import io.quiver.core.internal.request.RequestScope;
import tools.jackson.databind.node.ObjectNode;

/** {@code resources/subscribe}: the session hears {@code notifications/resources/updated} for the URI. */
final class ResourcesSubscribeHandler implements MethodHandler<EmptyResult> {

    private final Catalog catalog;
    private final Authorize authorize;

    ResourcesSubscribeHandler(Catalog catalog, Authorize authorize) {
        this.catalog = catalog;
        this.authorize = authorize;
    }

    @Override
    public EmptyResult handle(RequestScope scope, ObjectNode params) {
        String uri = Params.requireString(params, "uri");
        // a resource the caller may not see is not there for it: nothing to hear about
        if (catalog.resources(scope.caller()).get(uri) == null || authorize.allows(scope.caller(), Target.resource(uri))) {
            scope.session().subscriptions().add(uri);
        }
        return EmptyResult.INSTANCE;
    }
}
