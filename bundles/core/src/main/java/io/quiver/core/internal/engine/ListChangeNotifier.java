package io.quiver.core.internal.engine;

import io.quiver.core.internal.catalog.Catalog;
import io.quiver.core.internal.request.Listeners;
import io.quiver.core.internal.request.Session;
import io.quiver.core.internal.request.SessionRegistry;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * Debounces catalog changes: a burst of changes to one list becomes one
 * {@code notifications/<list>/list_changed} to every session stream and listener.
 *
 * <p>How long the notifier waits depends on the burst. Once an entry left the list it waits for the
 * whole quiet window ({@code listChangedDebounceMs}) after the burst's last change: a bundle update
 * unregisters its services and registers them again, and the clients should hear of it once, with
 * the new list. A burst of additions only (a new bundle) waits {@value #ADDED_QUIET_MS} ms after its
 * last change (at most the window), enough to take the services one bundle registers as it starts
 * in one notification, so a new tool reaches the clients without the removal's wait. Either way it
 * sends at the latest twenty windows after the first change of a burst.
 */
final class ListChangeNotifier {

    private final SessionRegistry sessions;
    private final Listeners listeners;
    private final ScheduledExecutorService timer;
    private final LongSupplier quietMs;
    private final Map<Catalog.Kind, Pending> pending = new EnumMap<>(Catalog.Kind.class);

    /** The wait after a burst of additions only (ms), when the quiet window is longer. */
    static final long ADDED_QUIET_MS = 25;

    /**
     * @param generation tells this burst's flush from a later one's
     * @param sawRemoval whether an entry left the list during the burst
     */
    private record Pending(long firstNanos, long generation, boolean sawRemoval, ScheduledFuture<?> flush) {
    }

    private long generations;

    ListChangeNotifier(SessionRegistry sessions, Listeners listeners, ScheduledExecutorService timer,
            LongSupplier quietMs) {
        this.sessions = sessions;
        this.listeners = listeners;
        this.timer = timer;
        this.quietMs = quietMs;
    }

    void changed(Catalog.Kind kind, boolean removed) {
        long quietMs = Math.max(0, this.quietMs.getAsLong());
        synchronized (pending) {
            long now = System.nanoTime();
            Pending current = pending.get(kind);
            long first = current == null ? now : current.firstNanos();
            boolean sawRemoval = removed || current != null && current.sawRemoval();
            if (current != null) {
                if (now - first >= TimeUnit.MILLISECONDS.toNanos(quietMs * 20)) {
                    return;
                }
                current.flush().cancel(false);
            }
            long waitMs = sawRemoval ? quietMs : Math.min(quietMs, ADDED_QUIET_MS);
            long generation = ++generations;
            try {
                pending.put(kind, new Pending(first, generation, sawRemoval,
                        timer.schedule(() -> flush(kind, generation), waitMs, TimeUnit.MILLISECONDS)));
            } catch (RejectedExecutionException e) {
                pending.remove(kind);
            }
        }
    }

    private void flush(Catalog.Kind kind, long generation) {
        synchronized (pending) {
            Pending current = pending.get(kind);
            if (current != null && current.generation() == generation) {
                pending.remove(kind);
            }
        }
        String method = switch (kind) {
            case TOOLS -> "notifications/tools/list_changed";
            case RESOURCES -> "notifications/resources/list_changed";
            case PROMPTS -> "notifications/prompts/list_changed";
        };
        for (Session session : sessions.all()) {
            session.notify(method, null);
        }
        listeners.listChanged(kind, method);
    }
}
