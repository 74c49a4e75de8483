package io.quiver.core.internal.handlers;

import io.quiver.api.call.Target;
import io.quiver.core.internal.catalog.Catalog;
import io.quiver.core.internal.pipeline.Authorize;
import io.quiver.core.internal.messages.EmptyResult;
import io.quiver.core.internal.request.MethodHandler;
import io.quiver.core.internal.request.RequestScope;
import io.quiver.core.internal.request.Session;
import io.quiver.core.internal.rpc.McpException;
import java.util.function.IntSupplier;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code resources/subscribe}: the session hears {@code notifications/resources/updated} for the URI, up to
 * {@code maxResourceSubscriptions} URIs; the service that reads the URI learns of it ({@link ResourceWatches}).
 */
final class ResourcesSubscribeHandler implements MethodHandler<EmptyResult> {

    private final Catalog catalog;
    private final Authorize authorize;
    private final ResourceWatches watches;
    private final IntSupplier most;

    ResourcesSubscribeHandler(Catalog catalog, Authorize authorize, ResourceWatches watches, IntSupplier most) {
        this.catalog = catalog;
        this.authorize = authorize;
        this.watches = watches;
        this.most = most;
    }

    @Override
    public EmptyResult handle(RequestScope scope, ObjectNode params) {
        String uri = Params.requireString(params, "uri");
        // a resource the caller may not see is not there for it: nothing to hear about
        if (catalog.resources(scope.caller()).get(uri) != null && !authorize.allows(scope.caller(), Target.resource(uri))) {
            return EmptyResult.INSTANCE;
        }
        Session session = scope.session();
        int max = most.getAsInt();
        switch (watches.add(session, scope.caller(), uri, max)) {
            case FULL -> throw McpException.invalidParams("Invalid params: this session is subscribed to " + max
                    + " resources, the most it may be (maxResourceSubscriptions); unsubscribe from one first");
            case FIRST -> session.onClose(() -> watches.removeAll(session));
            default -> {
                // subscribed now, or already
            }
        }
        return EmptyResult.INSTANCE;
    }
}
