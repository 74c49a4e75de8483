package io.quiver.core.internal.handlers;

import io.quiver.core.internal.messages.EmptyResult;
import io.quiver.core.internal.request.MethodHandler;
import io.quiver.core.internal.request.RequestScope;
import io.quiver.core.internal.request.Session;
import io.quiver.core.internal.rpc.McpException;
import io.quiver.core.internal.settings.EngineSettings;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code resources/subscribe}: the session hears {@code notifications/resources/updated} for the URI, up to
 * {@code maxResourceSubscriptions} URIs of at most {@code maxResourceUriLength} characters, while all subscriptions
 * together hold less than {@code maxResourceSubscriptionBytes}; the service that reads the URI learns of it
 * ({@link ResourceWatches}).
 */
final class ResourcesSubscribeHandler implements MethodHandler<EmptyResult> {

    private final ResourceWatches watches;
    private final EngineSettings settings;

    ResourcesSubscribeHandler(ResourceWatches watches, EngineSettings settings) {
        this.watches = watches;
        this.settings = settings;
    }

    @Override
    public EmptyResult handle(RequestScope scope, ObjectNode params) {
        String uri = Params.requireString(params, "uri");
        ResourceWatches.checkLength(uri, settings.config().maxResourceUriLength());
        Session session = scope.session();
        int max = settings.config().maxResourceSubscriptions();
        switch (watches.add(session, scope.caller(), uri, max, settings.maxResourceSubscriptionBytes())) {
            case FULL -> throw McpException.invalidParams("Invalid params: this session is subscribed to " + max
                    + " resources, the most it may be (maxResourceSubscriptions); unsubscribe from one first");
            case SERVER_FULL -> throw ResourceWatches.serverFull();
            case FIRST -> session.onClose(() -> watches.removeAll(session));
            default -> {
                // subscribed now, or already, or a URI the caller may not read (answered alike)
            }
        }
        return EmptyResult.INSTANCE;
    }
}
