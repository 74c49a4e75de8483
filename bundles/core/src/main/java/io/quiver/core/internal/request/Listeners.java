package io.quiver.core.internal.request;

import io.quiver.api.CallerIdentity;
import io.quiver.api.transport.MessageSink;
import io.quiver.core.internal.catalog.Catalog;
import io.quiver.core.internal.messages.Meta;
import io.quiver.core.internal.rpc.JsonRpc;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;
import java.util.function.Predicate;
import tools.jackson.databind.JsonNode;

/**
 * The open {@code subscriptions/listen} streams of 2026-07-28 clients. Each hears only what it asked
 * for, every notification tagged with its subscription id (the listen request's id).
 */
public final class Listeners {

    /**
     * One listen stream and its filter.
     *
     * @param caller who listens: it hears of changes to its own catalog only
     */
    public record Listener(JsonNode subscriptionId, Set<Catalog.Kind> lists, Set<String> resources, MessageSink sink,
            CallerIdentity caller) {
    }

    private final CopyOnWriteArrayList<Listener> open = new CopyOnWriteArrayList<>();
    /** Open streams per authenticated subject (of its tenant and project), under this object's monitor. */
    private final ConcurrentMap<String, Integer> perSubject = new ConcurrentHashMap<>();
    /** Whether {@link #closeAll} ran: no stream opens after it, under this object's monitor. */
    private boolean closed;

    /** Why a stream was not opened. */
    public enum Refusal {
        /** The server keeps as many as it may. */
        SERVER_FULL,
        /** The caller's subject has as many open as one subject may. */
        SUBJECT_FULL,
        /** The streams were closed: the engine stops. */
        CLOSED
    }

    /**
     * Opens a listen stream unless {@code max} are open, or {@code maxPerSubject} of its authenticated subject: it is
     * counted at once, and its first message ({@code first}, the acknowledgement) goes out before any notification
     * can. So that one key holder cannot take every stream from the others, as with sessions.
     *
     * @return null when it opened, else why not
     */
    public Refusal open(Listener listener, int max, int maxPerSubject, byte[] first) {
        String subject = SessionRegistry.subject(listener.caller());
        synchronized (listener) {
            synchronized (this) {
                if (closed) {
                    return Refusal.CLOSED; // admitted before the engine stopped, too late to be ended by it
                }
                if (open.size() >= max) {
                    return Refusal.SERVER_FULL;
                }
                if (subject != null && !Counts.take(perSubject, subject, maxPerSubject)) {
                    return Refusal.SUBJECT_FULL;
                }
                open.add(listener);
            }
            listener.sink().send(first);
        }
        return null;
    }

    public void remove(Listener listener) {
        synchronized (this) {
            if (open.remove(listener)) {
                String subject = SessionRegistry.subject(listener.caller());
                if (subject != null) {
                    Counts.give(perSubject, subject);
                }
            }
        }
    }

    public int size() {
        return open.size();
    }

    /** Tells the listeners of that list whose catalog {@code sees} says changed. */
    public void listChanged(Catalog.Kind kind, String method, Predicate<CallerIdentity> sees) {
        for (Listener listener : open) {
            if (listener.lists().contains(kind) && sees.test(listener.caller())) {
                send(listener, JsonRpc.notification(method, tagged(listener, Map.of())));
            }
        }
    }

    /** Tells the listeners that asked for the URI's updates, those {@code hears} lets hear it. */
    public void resourceUpdated(String uri, Predicate<Listener> hears) {
        for (Listener listener : open) {
            if (listener.resources().contains(uri) && hears.test(listener)) {
                send(listener, JsonRpc.notification("notifications/resources/updated",
                        tagged(listener, Map.of("uri", uri))));
            }
        }
    }

    /** Ends every stream with its last message ({@code ending} writes it for a subscription id), as on shutdown. */
    public void closeAll(Function<JsonNode, byte[]> ending) {
        List<Listener> ended;
        synchronized (this) {
            closed = true;
            ended = List.copyOf(open);
            open.clear();
            perSubject.clear();
        }
        for (Listener listener : ended) {
            synchronized (listener) { // after its acknowledgement, as every notification
                listener.sink().complete(ending.apply(listener.subscriptionId()));
            }
        }
    }

    /** After the listener's acknowledgement, never before it. */
    private static void send(Listener listener, byte[] notification) {
        synchronized (listener) {
            listener.sink().send(notification);
        }
    }

    /** Notification params with the subscription id in {@code _meta}. */
    static Map<String, Object> tagged(Listener listener, Map<String, Object> params) {
        Map<String, Object> tagged = new LinkedHashMap<>(params);
        tagged.put("_meta", Map.of(Meta.SUBSCRIPTION, listener.subscriptionId()));
        return tagged;
    }
}
