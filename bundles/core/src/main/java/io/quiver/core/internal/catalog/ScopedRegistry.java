package io.quiver.core.internal.catalog;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One {@link RankedRegistry} per {@link Scope}, and the views callers read: the global winners, then
 * their tenant's, then their project's, each layer shadowing the one before it name by name. A view
 * is merged once per change of its layers and kept; while nothing is scoped every caller reads the
 * global snapshot itself.
 *
 * @param <T> what each entry carries
 */
final class ScopedRegistry<T> {

    /** A service's entry and the scopes it is in. */
    record Placement<T>(RankedRegistry.Entry<T> entry, Set<Scope> scopes) {
    }

    /** A merged view and the layer snapshots it was merged from. */
    private record View<T>(List<RankedRegistry.Snapshot<T>> layers, RankedRegistry.Snapshot<T> merged) {
    }

    private final RankedRegistry<T> global = new RankedRegistry<>();
    private final Map<Scope, RankedRegistry<T>> scoped = new ConcurrentHashMap<>();
    /** Each service's entry and the scopes it is in (none: hidden everywhere). */
    private final Map<Long, Placement<T>> placed = new HashMap<>();
    private final Map<List<Scope>, View<T>> views = new ConcurrentHashMap<>();
    /** Whether any entry is scoped: if not, every view is the global one. */
    private volatile boolean anyScoped;

    /** The global entries alone. */
    RankedRegistry.Snapshot<T> global() {
        return global.snapshot();
    }

    /** What a caller in the given tenant and project ({@code null}: none) sees. */
    RankedRegistry.Snapshot<T> view(String tenant, String project) {
        RankedRegistry.Snapshot<T> base = global.snapshot();
        if (!anyScoped || tenant == null) {
            return base;
        }
        RankedRegistry<T> ofTenant = scoped.get(Scope.tenant(tenant));
        RankedRegistry<T> ofProject = project == null ? null : scoped.get(new Scope(tenant, project));
        RankedRegistry.Snapshot<T> t = ofTenant == null ? null : ofTenant.snapshot();
        RankedRegistry.Snapshot<T> p = ofProject == null ? null : ofProject.snapshot();
        boolean hasTenant = t != null && !t.winners().isEmpty();
        boolean hasProject = p != null && !p.winners().isEmpty();
        if (!hasTenant && !hasProject) {
            return base;
        }
        List<Scope> key = hasProject ? List.of(Scope.tenant(tenant), new Scope(tenant, project)) : List.of(Scope.tenant(tenant));
        List<RankedRegistry.Snapshot<T>> layers = new ArrayList<>(3);
        layers.add(base);
        if (hasTenant) {
            layers.add(t);
        }
        if (hasProject) {
            layers.add(p);
        }
        View<T> cached = views.get(key);
        if (cached != null && same(cached.layers(), layers)) {
            return cached.merged();
        }
        View<T> merged = new View<>(List.copyOf(layers), merge(layers));
        views.put(key, merged);
        return merged.merged();
    }

    /** Every non-empty scope's own snapshot (global first), for the operator. */
    Map<Scope, RankedRegistry.Snapshot<T>> all() {
        Map<Scope, RankedRegistry.Snapshot<T>> all = new TreeMap<>(
                (a, b) -> a.label().compareTo(b.label()));
        all.put(Scope.GLOBAL, global.snapshot());
        scoped.forEach((scope, registry) -> {
            RankedRegistry.Snapshot<T> s = registry.snapshot();
            if (!s.winners().isEmpty() || !s.shadowed().isEmpty()) {
                all.put(scope, s);
            }
        });
        return all;
    }

    /** The registry of a scope (made on first use). */
    RankedRegistry<T> of(Scope scope) {
        return scope.tenant() == null ? global : scoped.computeIfAbsent(scope, s -> new RankedRegistry<>());
    }

    /** The scopes a service is in now (empty when it is in none). */
    synchronized Set<Scope> scopesOf(long serviceId) {
        Placement<T> placement = placed.get(serviceId);
        return placement == null ? Set.of() : placement.scopes();
    }

    /** Every service's placement, hidden ones too. */
    synchronized Map<Long, Placement<T>> placements() {
        return Map.copyOf(placed);
    }

    /**
     * Puts a service's entry into exactly the given scopes (taking it out of those it leaves).
     *
     * @return the scopes whose visible winners changed
     */
    synchronized Set<Scope> put(RankedRegistry.Entry<T> entry, Set<Scope> scopes) {
        Set<Scope> changed = new LinkedHashSet<>();
        Set<Scope> was = scopesOf(entry.serviceId());
        for (Scope scope : was) {
            if (!scopes.contains(scope) && of(scope).remove(entry.serviceId())) {
                changed.add(scope);
            }
        }
        for (Scope scope : scopes) {
            if (of(scope).put(entry)) {
                changed.add(scope);
            }
        }
        placed.put(entry.serviceId(), new Placement<>(entry, Set.copyOf(scopes)));
        anyScoped |= scopes.stream().anyMatch(s -> s.tenant() != null);
        return changed;
    }

    /**
     * Takes a service out of every scope.
     *
     * @return the scopes whose visible winners changed
     */
    synchronized Set<Scope> remove(long serviceId) {
        Placement<T> was = placed.remove(serviceId);
        if (was == null) {
            return Set.of();
        }
        Set<Scope> changed = new LinkedHashSet<>();
        for (Scope scope : was.scopes()) {
            if (of(scope).remove(serviceId)) {
                changed.add(scope);
            }
        }
        return changed;
    }

    /** The entry a service has (also while it is hidden), or {@code null}. */
    synchronized RankedRegistry.Entry<T> entry(long serviceId) {
        Placement<T> placement = placed.get(serviceId);
        return placement == null ? null : placement.entry();
    }

    private static <T> boolean same(List<RankedRegistry.Snapshot<T>> a, List<RankedRegistry.Snapshot<T>> b) {
        if (a.size() != b.size()) {
            return false;
        }
        for (int i = 0; i < a.size(); i++) {
            if (a.get(i) != b.get(i)) {
                return false;
            }
        }
        return true;
    }

    /** The layers merged: each later layer's winners replace the earlier ones' of the same name. */
    private static <T> RankedRegistry.Snapshot<T> merge(List<RankedRegistry.Snapshot<T>> layers) {
        TreeMap<String, RankedRegistry.Entry<T>> winners = new TreeMap<>();
        List<RankedRegistry.Entry<T>> shadowed = new ArrayList<>();
        long version = 0;
        for (RankedRegistry.Snapshot<T> layer : layers) {
            version += layer.version();
            shadowed.addAll(layer.shadowed());
            for (RankedRegistry.Entry<T> winner : layer.winners().values()) {
                RankedRegistry.Entry<T> below = winners.put(winner.key(), winner);
                if (below != null) {
                    shadowed.add(below);
                }
            }
        }
        return new RankedRegistry.Snapshot<>(version, winners, List.copyOf(shadowed));
    }
}
