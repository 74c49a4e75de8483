package io.quiver.core.internal.handlers;

import io.quiver.core.internal.catalog.Catalog;
import io.quiver.core.internal.json.Json;
import io.quiver.core.internal.messages.Meta;
import io.quiver.core.internal.messages.StreamOpen;
import io.quiver.core.internal.request.Listeners;
import io.quiver.core.internal.request.MethodHandler;
import io.quiver.core.internal.request.RequestScope;
import io.quiver.core.internal.rpc.ErrorCodes;
import io.quiver.core.internal.rpc.JsonRpc;
import io.quiver.core.internal.rpc.McpException;
import io.quiver.core.internal.settings.EngineSettings;
import java.util.EnumSet;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.function.IntSupplier;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code subscriptions/listen} (2026-07-28): acknowledges the filter it honours, then keeps the
 * response stream open for the notifications asked for, until the client goes away.
 */
final class ListenHandler implements MethodHandler<StreamOpen> {

    private final Listeners listeners;
    private final IntSupplier maxListeners;
    private final ResourceWatches watches;
    private final EngineSettings settings;

    ListenHandler(Listeners listeners, IntSupplier maxListeners, ResourceWatches watches, EngineSettings settings) {
        this.listeners = listeners;
        this.maxListeners = maxListeners;
        this.watches = watches;
        this.settings = settings;
    }

    @Override
    public StreamOpen handle(RequestScope scope, ObjectNode params) {
        JsonNode filter = params.get("notifications");
        if (filter == null || !filter.isObject()) {
            throw McpException.invalidParams("Invalid params: 'notifications' must be an object");
        }
        Set<Catalog.Kind> lists = EnumSet.noneOf(Catalog.Kind.class);
        ObjectNode honoured = Json.MAPPER.createObjectNode();
        flag(filter, honoured, "toolsListChanged", Catalog.Kind.TOOLS, lists);
        flag(filter, honoured, "promptsListChanged", Catalog.Kind.PROMPTS, lists);
        flag(filter, honoured, "resourcesListChanged", Catalog.Kind.RESOURCES, lists);
        Set<String> resources = new LinkedHashSet<>();
        JsonNode uris = filter.get("resourceSubscriptions");
        if (uris != null && uris.isArray()) {
            int longest = settings.config().maxResourceUriLength();
            for (JsonNode uri : uris) {
                if (uri.isString()) {
                    ResourceWatches.checkLength(uri.stringValue(), longest);
                    resources.add(uri.stringValue());
                }
            }
            int most = settings.config().maxResourceSubscriptions();
            if (resources.size() > most) {
                throw McpException.invalidParams("Invalid params: 'resourceSubscriptions' names " + resources.size()
                        + " resources, more than the " + most + " one stream may (maxResourceSubscriptions)");
            }
            honoured.set("resourceSubscriptions", Json.MAPPER.valueToTree(resources));
        }
        Listeners.Listener listener = new Listeners.Listener(scope.requestId(), lists, resources, scope.sink(), scope.caller());
        // counted before the acknowledgement goes out: a client that opens streams one after the other
        // meets the limit exactly (the engine refuses with 503 once it is reached)
        byte[] acknowledged = JsonRpc.notification("notifications/subscriptions/acknowledged",
                Map.of("_meta", Map.of(Meta.SUBSCRIPTION, scope.requestId()), "notifications", honoured));
        // the services that read them learn of them; they forget them when the stream ends
        long budget = settings.maxResourceSubscriptionBytes();
        for (String uri : resources) {
            if (watches.add(listener, scope.caller(), uri, Integer.MAX_VALUE, budget) // (counted above)
                    == ResourceWatches.Added.SERVER_FULL) {
                watches.removeAll(listener);
                throw ResourceWatches.serverFull();
            }
        }
        Listeners.Refusal refused = listeners.open(listener, maxListeners.getAsInt(), settings.maxListenersPerSubject(),
                acknowledged);
        if (refused != null) {
            watches.removeAll(listener);
            throw new McpException(ErrorCodes.SERVER_UNAVAILABLE, switch (refused) {
                case CLOSED -> "Server unavailable: it is shutting down";
                case SERVER_FULL -> "Server busy: " + maxListeners.getAsInt() + " listen streams are open, the most this"
                        + " server keeps; try again later";
                case SUBJECT_FULL -> "Server busy: " + settings.maxListenersPerSubject() + " listen streams of yours are"
                        + " open, the most one caller may keep (maxListenersPerSubject); close one first";
            });
        }
        scope.onCancel(() -> {
            listeners.remove(listener);
            watches.removeAll(listener);
            scope.sink().complete(null);
        });
        return StreamOpen.INSTANCE;
    }

    private static void flag(JsonNode filter, ObjectNode honoured, String field, Catalog.Kind kind,
            Set<Catalog.Kind> lists) {
        if (filter.path(field).asBoolean(false)) {
            honoured.put(field, true);
            lists.add(kind);
        }
    }
}
