package io.quiver.core.internal.catalog;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;

/**
 * A whiteboard holder for services keyed by a name: the highest {@code service.ranking} wins a
 * name, ties go to the lowest {@code service.id}; the others are kept as shadowed and promoted when
 * the winner leaves. Readers take the immutable {@link Snapshot}; writers are serialized.
 *
 * @param <T> what each entry carries
 */
public final class RankedRegistry<T> {

    /** One registered service. */
    public record Entry<T>(String key, long serviceId, int ranking, T value) {
    }

    /**
     * The state at one moment.
     *
     * @param version increases by one on every change of the winners
     * @param winners the visible entry of each key, ordered by key
     * @param shadowed entries that lost their key to a higher-ranked one
     */
    public record Snapshot<T>(long version, TreeMap<String, Entry<T>> winners, List<Entry<T>> shadowed) {
        /** The winner for a key, or {@code null}. */
        public T get(String key) {
            Entry<T> entry = winners.get(key);
            return entry == null ? null : entry.value();
        }

        /** The winners in key order. */
        public List<T> values() {
            return winners.values().stream().map(Entry::value).toList();
        }
    }

    private static final Comparator<Entry<?>> PRECEDENCE = Comparator
            .comparingInt((Entry<?> e) -> e.ranking()).reversed()
            .thenComparingLong(Entry::serviceId);

    private final Map<Long, Entry<T>> entries = new HashMap<>();
    /** Each key's entries, best first. */
    private final Map<String, List<Entry<T>>> groups = new HashMap<>();
    private volatile Snapshot<T> snapshot = new Snapshot<>(0, new TreeMap<>(), List.of());

    /** The current state. */
    public Snapshot<T> snapshot() {
        return snapshot;
    }

    /** The entry a service has now, or {@code null}. */
    public synchronized Entry<T> entry(long serviceId) {
        return entries.get(serviceId);
    }

    /** Adds or replaces the entry of a service; true when the visible winners changed. */
    public synchronized boolean put(Entry<T> entry) {
        Entry<T> old = entries.put(entry.serviceId(), entry);
        if (old != null) {
            leave(old);
        }
        join(entry);
        return publish(old == null || old.key().equals(entry.key()) ? Set.of(entry.key()) : Set.of(old.key(), entry.key()));
    }

    /** Removes the entry of a service; true when the visible winners changed. */
    public synchronized boolean remove(long serviceId) {
        Entry<T> old = entries.remove(serviceId);
        if (old == null) {
            return false;
        }
        leave(old);
        return publish(Set.of(old.key()));
    }

    private void join(Entry<T> entry) {
        List<Entry<T>> group = groups.computeIfAbsent(entry.key(), k -> new ArrayList<>(1));
        group.add(entry);
        group.sort(PRECEDENCE);
    }

    private void leave(Entry<T> entry) {
        List<Entry<T>> group = groups.get(entry.key());
        group.removeIf(e -> e.serviceId() == entry.serviceId());
        if (group.isEmpty()) {
            groups.remove(entry.key());
        }
    }

    /**
     * The next snapshot, where only the given keys changed: a registry of thousands of services is
     * filled one service at a time, and each step costs a copy of the winners, not a new ranking of
     * every entry.
     */
    private boolean publish(Set<String> keys) {
        Snapshot<T> previous = snapshot;
        TreeMap<String, Entry<T>> winners = new TreeMap<>(previous.winners());
        boolean changed = false;
        List<Entry<T>> shadowed = new ArrayList<>();
        for (Entry<T> entry : previous.shadowed()) {
            if (!keys.contains(entry.key())) {
                shadowed.add(entry);
            }
        }
        for (String key : keys) {
            List<Entry<T>> group = groups.get(key);
            Entry<T> winner = group == null ? null : group.get(0);
            Entry<T> was = winner == null ? winners.remove(key) : winners.put(key, winner);
            changed |= !sameWinner(was, winner);
            if (group != null) {
                shadowed.addAll(group.subList(1, group.size()));
            }
        }
        shadowed.sort(Comparator.comparing((Entry<T> e) -> e.key()).thenComparing(PRECEDENCE));
        snapshot = new Snapshot<>(changed ? previous.version() + 1 : previous.version(), winners,
                List.copyOf(shadowed));
        return changed;
    }

    private static <T> boolean sameWinner(Entry<T> a, Entry<T> b) {
        if (a == null || b == null) {
            return a == b;
        }
        return a.serviceId() == b.serviceId() && Objects.equals(a.value(), b.value());
    }
}
