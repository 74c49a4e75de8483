package io.quiver.core.internal.pipeline;

import io.quiver.api.call.CallListener;
import io.quiver.api.call.CallPolicy;
import io.quiver.api.call.HostChannel;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The call SPIs other bundles provide, as the pipeline uses them: the highest-ranked {@link CallPolicy}
 * and {@link HostChannel} (none: allow everything, no host) and every {@link CallListener}. The wiring
 * adds and removes them as their services come and go; a call reads the ones in place when it gets to
 * the stage that uses them.
 */
public final class Extensions {

    /** One registered service: the higher ranking wins, then the older service (lower id). */
    private record Ranked<T>(T service, int ranking, long serviceId) {
    }

    private static final Comparator<Ranked<?>> ORDER = Comparator.<Ranked<?>>comparingInt(r -> -r.ranking())
            .thenComparingLong(Ranked::serviceId);

    private final List<Ranked<CallPolicy>> policies = new ArrayList<>();
    private final List<Ranked<HostChannel>> hosts = new ArrayList<>();
    private final List<Ranked<CallListener>> listenerEntries = new ArrayList<>();
    private volatile CallPolicy policy;
    private volatile HostChannel host;
    private volatile List<CallListener> listeners = List.of();

    /** The policy in force, or {@code null}: everything is allowed. */
    public CallPolicy policy() {
        return policy;
    }

    /** The host channel, or {@code null}: no host takes part. */
    public HostChannel host() {
        return host;
    }

    /** Everyone who hears call events (often none). */
    public List<CallListener> listeners() {
        return listeners;
    }

    public synchronized void addPolicy(CallPolicy service, int ranking, long serviceId) {
        policy = add(policies, new Ranked<>(service, ranking, serviceId)).get(0).service();
    }

    public synchronized void removePolicy(CallPolicy service) {
        policy = best(remove(policies, service));
    }

    public synchronized void addHost(HostChannel service, int ranking, long serviceId) {
        host = add(hosts, new Ranked<>(service, ranking, serviceId)).get(0).service();
    }

    public synchronized void removeHost(HostChannel service) {
        host = best(remove(hosts, service));
    }

    public synchronized void addListener(CallListener service, int ranking, long serviceId) {
        listeners = add(listenerEntries, new Ranked<>(service, ranking, serviceId)).stream().map(Ranked::service)
                .toList();
    }

    public synchronized void removeListener(CallListener service) {
        listeners = remove(listenerEntries, service).stream().map(Ranked::service).toList();
    }

    private static <T> List<Ranked<T>> add(List<Ranked<T>> entries, Ranked<T> entry) {
        entries.removeIf(e -> e.service() == entry.service());
        entries.add(entry);
        entries.sort(ORDER);
        return entries;
    }

    private static <T> List<Ranked<T>> remove(List<Ranked<T>> entries, T service) {
        entries.removeIf(e -> e.service() == service);
        return entries;
    }

    private static <T> T best(List<Ranked<T>> entries) {
        return entries.isEmpty() ? null : entries.get(0).service();
    }
}
