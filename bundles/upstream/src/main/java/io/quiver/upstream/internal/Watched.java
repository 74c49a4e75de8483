package io.quiver.upstream.internal;

import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The URIs of one connection's resources that Quiver's clients are subscribed to, and, for a session server, those
 * it was asked for the updates of: {@link #next} says which request brings the second to the first, one at a time.
 */
final class Watched {

    /** One request to send: {@code resources/subscribe} ({@code on}) or {@code resources/unsubscribe}. */
    record Change(String uri, boolean on) {
        String method() {
            return on ? "resources/subscribe" : "resources/unsubscribe";
        }
    }

    private final Set<String> watched = new LinkedHashSet<>();
    private final Set<String> subscribed = new HashSet<>();
    private boolean syncing;
    /** Whether a task that brings the server's subscriptions in step is queued: one is enough. */
    private final AtomicBoolean queued = new AtomicBoolean();
    /** A stateless server refused a listen stream naming resources: it is asked for list changes alone. */
    private volatile boolean refused;

    /** A URI got its first subscriber ({@code on}) or lost its last: whether that changed anything. */
    synchronized boolean watch(String uri, boolean on) {
        return on ? watched.add(uri) : watched.remove(uri);
    }

    synchronized boolean contains(String uri) {
        return watched.contains(uri);
    }

    /** The URIs a stateless server's listen stream should name: none once it refused them. */
    synchronized Set<String> forListen() {
        return refused ? Set.of() : Set.copyOf(watched);
    }

    void refused() {
        refused = true;
    }

    /** Whether a task should be queued to bring the server in step: false while one is queued already. */
    boolean queue() {
        return queued.compareAndSet(false, true);
    }

    /** The queued task runs: a change from now on queues another. */
    void dequeued() {
        queued.set(false);
    }

    /** Whether this caller brings the server in step: false while another one does. */
    synchronized boolean startSync() {
        if (syncing) {
            return false;
        }
        syncing = true;
        return true;
    }

    /**
     * The next request that brings the server's subscriptions to the watched URIs (taken as done), or null when
     * they are in step or {@code ready} is false: then the sync is over (another may start).
     */
    synchronized Change next(boolean ready) {
        String uri = watched.stream().filter(u -> !subscribed.contains(u)).findFirst().orElse(null);
        boolean on = uri != null;
        if (uri == null) {
            uri = subscribed.stream().filter(u -> !watched.contains(u)).findFirst().orElse(null);
        }
        if (uri == null || !ready) {
            syncing = false;
            return null;
        }
        if (on) {
            subscribed.add(uri);
        } else {
            subscribed.remove(uri);
        }
        return new Change(uri, on);
    }
}
