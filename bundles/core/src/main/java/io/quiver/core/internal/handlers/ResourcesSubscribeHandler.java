package io.quiver.core.internal.handlers;

import io.quiver.api.call.Target;
import io.quiver.core.internal.pipeline.Authorize;
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

    private final Authorize authorize;
    private final ResourceWatches watches;
    private final EngineSettings settings;

    ResourcesSubscribeHandler(Authorize authorize, ResourceWatches watches, EngineSettings settings) {
        this.authorize = authorize;
        this.watches = watches;
        this.settings = settings;
    }

    @Override
    public EmptyResult handle(RequestScope scope, ObjectNode params) {
        String uri = Params.requireString(params, "uri");
        ListenHandler.checkLength(uri, settings.config().maxResourceUriLength());
        // a resource the caller may not read is not there for it: nothing to hear about, nothing kept
        if (!authorize.allows(scope.caller(), Target.resource(uri))) {
            return EmptyResult.INSTANCE;
        }
        Session session = scope.session();
        int max = settings.config().maxResourceSubscriptions();
        switch (watches.add(session, scope.caller(), uri, max, settings.maxResourceSubscriptionBytes())) {
            case FULL -> throw McpException.invalidParams("Invalid params: this session is subscribed to " + max
                    + " resources, the most it may be (maxResourceSubscriptions); unsubscribe from one first");
            case SERVER_FULL -> throw ListenHandler.serverFull();
            case FIRST -> session.onClose(() -> watches.removeAll(session));
            default -> {
                // subscribed now, or already
            }
        }
        return EmptyResult.INSTANCE;
    }
}
