package io.quiver.core.internal.engine;

import io.quiver.api.CallerIdentity;
import io.quiver.core.internal.catalog.Catalog;
import io.quiver.core.internal.catalog.Scope;
import io.quiver.core.internal.request.Listeners;
import io.quiver.core.internal.request.Session;
import io.quiver.core.internal.request.SessionRegistry;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import java.util.function.Predicate;

/**
 * Debounces catalog changes: a burst of changes to one list becomes one
 * {@code notifications/<list>/list_changed} to every session stream and listener whose catalog
 * changed: a change to one tenant's or project's entries reaches only the callers there.
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
     * @param scopes the scopes changed during the burst
     */
    private record Pending(long firstNanos, long generation, boolean sawRemoval, Set<Scope> scopes,
            ScheduledFuture<?> flush) {
    }

    private long generations;

    ListChangeNotifier(SessionRegistry sessions, Listeners listeners, ScheduledExecutorService timer,
            LongSupplier quietMs) {
        this.sessions = sessions;
        this.listeners = listeners;
        this.timer = timer;
        this.quietMs = quietMs;
    }

    void changed(Catalog.Kind kind, boolean removed, Set<Scope> changed) {
        long quietMs = Math.max(0, this.quietMs.getAsLong());
        synchronized (pending) {
            long now = System.nanoTime();
            Pending current = pending.get(kind);
            long first = current == null ? now : current.firstNanos();
            boolean sawRemoval = removed || current != null && current.sawRemoval();
            Set<Scope> scopes = new HashSet<>(changed);
            if (current != null) {
                scopes.addAll(current.scopes());
                if (now - first >= TimeUnit.MILLISECONDS.toNanos(quietMs * 20)) {
                    // the burst has waited long enough: its flush stays when it is, and takes this change too
                    pending.put(kind, new Pending(first, current.generation(), sawRemoval, Set.copyOf(scopes),
                            current.flush()));
                    return;
                }
                current.flush().cancel(false);
            }
            long waitMs = sawRemoval ? quietMs : Math.min(quietMs, ADDED_QUIET_MS);
            long generation = ++generations;
            try {
                pending.put(kind, new Pending(first, generation, sawRemoval, Set.copyOf(scopes),
                        timer.schedule(() -> flush(kind, generation), waitMs, TimeUnit.MILLISECONDS)));
            } catch (RejectedExecutionException e) {
                pending.remove(kind);
            }
        }
    }

    private void flush(Catalog.Kind kind, long generation) {
        Set<Scope> scopes;
        synchronized (pending) {
            Pending current = pending.get(kind);
            if (current == null || current.generation() != generation) {
                return;
            }
            pending.remove(kind);
            scopes = current.scopes();
        }
        Predicate<CallerIdentity> sees = caller -> scopes.stream().anyMatch(s -> s.covers(caller.tenant(), caller.project()));
        String method = switch (kind) {
            case TOOLS -> "notifications/tools/list_changed";
            case RESOURCES -> "notifications/resources/list_changed";
            case PROMPTS -> "notifications/prompts/list_changed";
        };
        for (Session session : sessions.all()) {
            if (sees.test(session.caller())) {
                session.notify(method, null);
            }
        }
        listeners.listChanged(kind, method, sees);
    }
}
