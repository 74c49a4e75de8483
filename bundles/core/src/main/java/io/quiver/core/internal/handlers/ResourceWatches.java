package io.quiver.core.internal.handlers;

import io.quiver.api.CallerIdentity;
import io.quiver.api.call.Target;
import io.quiver.api.resource.Subscribable;
import io.quiver.core.internal.catalog.Catalog;
import io.quiver.core.internal.catalog.Scope;
import io.quiver.core.internal.pipeline.Authorize;
import io.quiver.core.internal.rpc.ErrorCodes;
import io.quiver.core.internal.rpc.McpException;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The resource subscriptions of every session and listen stream (the one record of them), and which services clients
 * are subscribed through: each subscription (a session's {@code resources/subscribe}, a
 * listen stream's {@code resourceSubscriptions}) counts for the service that would read its URI for that caller
 * (the fixed resource, else every matching template) when that service is {@link Subscribable}. A service hears
 * {@link Subscribable#subscribed} when a URI's count for it leaves zero and {@link Subscribable#unsubscribed} when
 * it comes back to zero. Catalog changes move the counts to the services that read the URIs now, on the
 * engine's timer (a burst of them once, and never on the thread that registers a service while holding the
 * catalog's lock: a service that registers another as it hears of a subscriber does not re-enter it).
 *
 * <p>The services are told outside this object's monitor, one at a time and in the order the counts changed: a
 * service that reports an update as it hears of its first subscriber sends to listen streams, whose monitors a
 * thread may hold while it waits for this one (a stream whose client left ends its subscriptions as it is written to).
 */
public final class ResourceWatches implements Catalog.Listener {

    private static final Logger LOG = LoggerFactory.getLogger(ResourceWatches.class);

    /** A URI and a service that reads it. */
    private record Watch(String uri, Subscribable service) {
    }

    /** A service to be told that a URI got its first subscriber ({@code subscribed}) or lost its last. */
    private record Told(Watch watch, boolean subscribed) {
    }

    /** A session or listen stream: whose view resolves its URIs, and the services each URI counts for now. */
    private record Subscriber(CallerIdentity caller, Map<String, Set<Subscribable>> uris) {
    }

    private final Catalog catalog;
    private final Authorize authorize;
    private final Executor moves;
    private final Map<Object, Subscriber> subscribers = new IdentityHashMap<>();
    private final Map<Watch, Integer> counts = new HashMap<>();
    /** Whether a move of the counts is due (one is queued or runs): later changes wait for it. */
    private final AtomicBoolean moveDue = new AtomicBoolean();
    /** What the subscriptions hold, by {@link #cost}. */
    private long bytes;
    private boolean closed;
    /** What the services are to hear, in order, under this object's monitor; told by {@link #tell}. */
    private final ArrayDeque<Told> toTell = new ArrayDeque<>();
    /** The thread telling the services now, under this object's monitor; null when none is. */
    private Thread telling;

    /** @param moves where the counts move after catalog changes (the engine's timer) */
    public ResourceWatches(Catalog catalog, Authorize authorize, Executor moves) {
        this.catalog = catalog;
        this.authorize = authorize;
        this.moves = moves;
    }

    /**
     * Subscribes {@code owner} (a session or listen stream) to {@code uri}, unless it holds {@code most} already or
     * all subscriptions together would hold more than {@code budget} bytes, and counts it for the services that
     * read it.
     */
    public Added add(Object owner, CallerIdentity caller, String uri, int most, long budget) {
        Added added;
        synchronized (this) {
            added = counted(owner, caller, uri, most, budget);
        }
        tell();
        return added;
    }

    private Added counted(Object owner, CallerIdentity caller, String uri, int most, long budget) {
        Subscriber subscriber = subscribers.get(owner);
        if (closed || subscriber != null && subscriber.uris().containsKey(uri)) {
            return Added.ALREADY; // (a stopped engine counts nothing more)
        }
        if ((subscriber == null ? 0 : subscriber.uris().size()) >= most) {
            return Added.FULL;
        }
        if (!authorize.allows(caller, Target.resource(uri))) {
            return Added.DENIED; // a resource the caller may not read is not there for it: nothing to hear, nothing kept
        }
        if (bytes + cost(uri) > budget) {
            return Added.SERVER_FULL;
        }
        Set<Subscribable> services = resolve(caller, uri);
        boolean first = subscriber == null;
        if (first) {
            subscriber = new Subscriber(caller, new HashMap<>());
            subscribers.put(owner, subscriber);
        }
        bytes += cost(uri);
        subscriber.uris().put(uri, services);
        services.forEach(s -> up(new Watch(uri, s)));
        return first ? Added.FIRST : Added.MORE;
    }

    /** Drops one subscription of {@code owner}, if it has it (the owner stays known until {@link #removeAll}). */
    public void remove(Object owner, String uri) {
        synchronized (this) {
            Subscriber subscriber = subscribers.get(owner);
            Set<Subscribable> services = subscriber == null ? null : subscriber.uris().remove(uri);
            if (services != null) {
                bytes -= cost(uri);
                services.forEach(s -> down(new Watch(uri, s)));
            }
        }
        tell();
    }

    /** Drops every subscription of {@code owner}: its session or stream ended. */
    public void removeAll(Object owner) {
        synchronized (this) {
            Subscriber subscriber = subscribers.remove(owner);
            if (subscriber != null) {
                subscriber.uris().forEach((uri, services) -> {
                    bytes -= cost(uri);
                    services.forEach(s -> down(new Watch(uri, s)));
                });
            }
        }
        tell();
    }

    /** What all subscriptions hold now, in bytes as {@code maxResourceSubscriptionBytes} counts them. */
    public synchronized long bytes() {
        return bytes;
    }

    /** What one subscription holds: its URI and about a hundred bytes of the maps that keep it. */
    private static long cost(String uri) {
        return uri.length() + 100L;
    }

    /**
     * Whether {@code owner} (a session or listen stream) hears of an update of {@code uri}: it is subscribed to it
     * through {@code source}, the service that announced it; or, where none is named, it could read the URI.
     */
    public synchronized boolean hears(Object owner, CallerIdentity caller, String uri, Subscribable source) {
        Subscriber subscriber = subscribers.get(owner);
        Set<Subscribable> services = subscriber == null ? null : subscriber.uris().get(uri);
        if (services == null) {
            return false;
        }
        return source == null ? reads(caller, uri) : services.contains(source);
    }

    /** What {@link #add} did. */
    public enum Added {
        /** The owner's first subscription: it should {@link #removeAll} when it ends. */
        FIRST,
        /** Another subscription of the owner. */
        MORE,
        /** The owner was subscribed to the URI already. */
        ALREADY,
        /** The owner holds the most subscriptions it may: none was added. */
        FULL,
        /** All subscriptions together hold the most memory they may ({@code maxResourceSubscriptionBytes}). */
        SERVER_FULL,
        /** The caller may not read the URI: nothing was kept (answered as if subscribed: no existence oracle). */
        DENIED
    }

    @Override
    public void changed(Catalog.Kind kind, boolean removed, Set<Scope> scopes) {
        if (kind == Catalog.Kind.RESOURCES && moveDue.compareAndSet(false, true)) {
            try {
                moves.execute(() -> {
                    moveDue.set(false); // a change from now on moves them again
                    moved();
                });
            } catch (RejectedExecutionException e) {
                moveDue.set(false); // the engine stops
            }
        }
    }

    /** Every count is dropped: each service hears that its last subscriber went. Nothing is counted after. */
    public void close() {
        synchronized (this) {
            closed = true;
            for (Watch watch : List.copyOf(counts.keySet())) {
                counts.put(watch, 1);
                down(watch);
            }
            subscribers.clear();
            bytes = 0;
        }
        tell();
    }

    /** Resolves every subscription again; the counts follow the services that read the URIs now. */
    void moved() {
        synchronized (this) {
            move();
        }
        tell();
    }

    private void move() {
        if (closed) {
            return;
        }
        for (Subscriber subscriber : subscribers.values()) {
            for (Map.Entry<String, Set<Subscribable>> entry : subscriber.uris().entrySet()) {
                String uri = entry.getKey();
                Set<Subscribable> was = entry.getValue();
                Set<Subscribable> now;
                try {
                    now = resolve(subscriber.caller(), uri);
                } catch (RuntimeException e) {
                    LOG.warn("Could not tell which service reads {} now; its subscription stays where it was", uri, e);
                    continue;
                }
                if (!now.equals(was)) {
                    // the new ones first: a service that stays counted throughout is never told in between
                    now.stream().filter(s -> !was.contains(s)).forEach(s -> up(new Watch(uri, s)));
                    was.stream().filter(s -> !now.contains(s)).forEach(s -> down(new Watch(uri, s)));
                    entry.setValue(now);
                }
            }
        }
    }

    /**
     * Whether the caller could read {@code uri}: a service of its view reads it and the call policy lets it. Only
     * such callers hear of the URI's updates: a subscription to a URI of another tenant's (or one the policy hides)
     * must not tell when it changes.
     */
    private boolean reads(CallerIdentity caller, String uri) {
        return !ResourceReaders.of(catalog, authorize, caller, uri).isEmpty();
    }

    /**
     * The services that would read {@code uri} for the caller ({@link ResourceReaders}), among those that want to
     * know of subscribers.
     */
    private Set<Subscribable> resolve(CallerIdentity caller, String uri) {
        ResourceReaders.Found found = ResourceReaders.of(catalog, authorize, caller, uri);
        Set<Subscribable> services = new LinkedHashSet<>(2);
        if (found.fixed() != null && found.fixed().resource() instanceof Subscribable s) {
            services.add(s);
        }
        for (ResourceReaders.Match match : found.templates()) {
            if (match.template().template() instanceof Subscribable s) {
                services.add(s);
            }
        }
        return services;
    }

    /** Refuses a URI longer than a subscription may name ({@code maxResourceUriLength}): -32602. */
    static void checkLength(String uri, int longest) {
        if (uri.length() > longest) {
            throw McpException.invalidParams("Invalid params: a resource URI of " + uri.length()
                    + " characters, longer than the " + longest + " a subscription may name (maxResourceUriLength)");
        }
    }

    /** All subscriptions hold as much as they may: the server is busy (-32000). */
    static McpException serverFull() {
        return new McpException(ErrorCodes.SERVER_UNAVAILABLE, "Server busy: resource subscriptions hold as much memory"
                + " as this server gives them (maxResourceSubscriptionBytes); try again later");
    }

    private void up(Watch watch) {
        if (counts.merge(watch, 1, Integer::sum) == 1) {
            toTell.add(new Told(watch, true));
        }
    }

    private void down(Watch watch) {
        Integer n = counts.get(watch);
        if (n == null) {
            return;
        }
        if (n > 1) {
            counts.put(watch, n - 1);
        } else {
            counts.remove(watch);
            toTell.add(new Told(watch, false));
        }
    }

    /**
     * Tells the services what they are to hear, outside the monitor, unless another thread is telling them (it tells
     * what was queued here too, in order) or this one is, further up its stack (a service that subscribes as it is
     * told: the telling goes on once its callback returns).
     */
    private void tell() {
        while (true) {
            Told next;
            synchronized (this) {
                if (telling != null) {
                    return;
                }
                next = toTell.poll();
                if (next == null) {
                    return;
                }
                telling = Thread.currentThread();
            }
            String uri = next.watch().uri();
            try {
                if (next.subscribed()) {
                    next.watch().service().subscribed(uri);
                } else {
                    next.watch().service().unsubscribed(uri);
                }
            } catch (RuntimeException | LinkageError e) {
                // a service's failure is its own: this thread's caller (another subscriber's request) goes on
                LOG.warn("A resource failed to take the {} of {}", next.subscribed() ? "first subscription"
                        : "end of the subscriptions", uri, e);
            } finally {
                synchronized (this) {
                    telling = null;
                }
            }
        }
    }
}
