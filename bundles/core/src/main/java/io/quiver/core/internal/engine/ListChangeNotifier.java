package io.quiver.core.internal.engine;

import io.quiver.core.internal.catalog.Catalog;
import java.util.EnumSet;
import java.util.Set;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Debounces catalog changes: a burst of changes to one list within the window becomes one
 * {@code notifications/<list>/list_changed} to every session stream.
 */
final class ListChangeNotifier {

    private final SessionRegistry sessions;
    private final ScheduledExecutorService timer;
    private final long debounceMs;
    private final Set<Catalog.Kind> pending = EnumSet.noneOf(Catalog.Kind.class);

    ListChangeNotifier(SessionRegistry sessions, ScheduledExecutorService timer, long debounceMs) {
        this.sessions = sessions;
        this.timer = timer;
        this.debounceMs = Math.max(0, debounceMs);
    }

    void changed(Catalog.Kind kind) {
        synchronized (pending) {
            if (!pending.add(kind)) {
                return;
            }
        }
        try {
            timer.schedule(() -> flush(kind), debounceMs, TimeUnit.MILLISECONDS);
        } catch (java.util.concurrent.RejectedExecutionException e) {
            // shutting down
        }
    }

    private void flush(Catalog.Kind kind) {
        synchronized (pending) {
            pending.remove(kind);
        }
        String method = switch (kind) {
            case TOOLS -> "notifications/tools/list_changed";
            case RESOURCES -> "notifications/resources/list_changed";
            case PROMPTS -> "notifications/prompts/list_changed";
        };
        for (Session session : sessions.all()) {
            session.notify(method, null);
        }
    }
}
