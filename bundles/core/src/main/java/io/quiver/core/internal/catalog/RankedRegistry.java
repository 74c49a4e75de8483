package io.quiver.core.internal.catalog;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
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
    private volatile Snapshot<T> snapshot = new Snapshot<>(0, new TreeMap<>(), List.of());

    /** The current state. */
    public Snapshot<T> snapshot() {
        return snapshot;
    }

    /** Adds or replaces the entry of a service; true when the visible winners changed. */
    public synchronized boolean put(Entry<T> entry) {
        entries.put(entry.serviceId(), entry);
        return rebuild();
    }

    /** Removes the entry of a service; true when the visible winners changed. */
    public synchronized boolean remove(long serviceId) {
        if (entries.remove(serviceId) == null) {
            return false;
        }
        return rebuild();
    }

    private boolean rebuild() {
        Map<String, List<Entry<T>>> byKey = new HashMap<>();
        for (Entry<T> entry : entries.values()) {
            byKey.computeIfAbsent(entry.key(), k -> new ArrayList<>()).add(entry);
        }
        TreeMap<String, Entry<T>> winners = new TreeMap<>();
        List<Entry<T>> shadowed = new ArrayList<>();
        for (Map.Entry<String, List<Entry<T>>> group : byKey.entrySet()) {
            List<Entry<T>> candidates = group.getValue();
            candidates.sort(PRECEDENCE);
            winners.put(group.getKey(), candidates.get(0));
            shadowed.addAll(candidates.subList(1, candidates.size()));
        }
        shadowed.sort(Comparator.comparing((Entry<T> e) -> e.key()).thenComparing(PRECEDENCE));
        Snapshot<T> previous = snapshot;
        boolean changed = !sameWinners(previous.winners(), winners);
        snapshot = new Snapshot<>(changed ? previous.version() + 1 : previous.version(), winners,
                List.copyOf(shadowed));
        return changed;
    }

    private static <T> boolean sameWinners(Map<String, Entry<T>> a, Map<String, Entry<T>> b) {
        if (!a.keySet().equals(b.keySet())) {
            return false;
        }
        for (Map.Entry<String, Entry<T>> e : a.entrySet()) {
            Entry<T> other = b.get(e.getKey());
            if (e.getValue().serviceId() != other.serviceId()
                    || !Objects.equals(e.getValue().value(), other.value())) {
                return false;
            }
        }
        return true;
    }
}
