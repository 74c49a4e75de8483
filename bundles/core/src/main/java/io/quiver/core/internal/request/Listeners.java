package io.quiver.core.internal.request;

import io.quiver.api.transport.MessageSink;
import io.quiver.core.internal.catalog.Catalog;
import io.quiver.core.internal.messages.Meta;
import io.quiver.core.internal.rpc.JsonRpc;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;
import tools.jackson.databind.JsonNode;

/**
 * The open {@code subscriptions/listen} streams of 2026-07-28 clients. Each hears only what it asked
 * for, every notification tagged with its subscription id (the listen request's id).
 */
public final class Listeners {

    /** One listen stream and its filter. */
    public record Listener(JsonNode subscriptionId, Set<Catalog.Kind> lists, Set<String> resources, MessageSink sink) {
    }

    private final CopyOnWriteArrayList<Listener> open = new CopyOnWriteArrayList<>();

    public void add(Listener listener) {
        open.add(listener);
    }

    public void remove(Listener listener) {
        open.remove(listener);
    }

    public int size() {
        return open.size();
    }

    public void listChanged(Catalog.Kind kind, String method) {
        for (Listener listener : open) {
            if (listener.lists().contains(kind)) {
                listener.sink().send(JsonRpc.notification(method, tagged(listener, Map.of())));
            }
        }
    }

    public void resourceUpdated(String uri) {
        for (Listener listener : open) {
            if (listener.resources().contains(uri)) {
                listener.sink().send(JsonRpc.notification("notifications/resources/updated",
                        tagged(listener, Map.of("uri", uri))));
            }
        }
    }

    /** Ends every stream with its last message ({@code ending} writes it for a subscription id), as on shutdown. */
    public void closeAll(Function<JsonNode, byte[]> ending) {
        for (Listener listener : open) {
            listener.sink().complete(ending.apply(listener.subscriptionId()));
        }
        open.clear();
    }

    /** Notification params with the subscription id in {@code _meta}. */
    static Map<String, Object> tagged(Listener listener, Map<String, Object> params) {
        Map<String, Object> tagged = new LinkedHashMap<>(params);
        tagged.put("_meta", Map.of(Meta.SUBSCRIPTION, listener.subscriptionId()));
        return tagged;
    }
}
