package io.quiver.core.internal.request;

import java.util.concurrent.ConcurrentMap;

/** Counts by key with a bound (sessions per address, tasks per subject), each change made in one step of the map. */
public final class Counts {

    private Counts() {
    }

    /** Counts one more for {@code key} unless it has {@code most}; false, and nothing counted, when it has. */
    public static boolean take(ConcurrentMap<String, Integer> counts, String key, int most) {
        boolean[] taken = {false};
        counts.compute(key, (k, n) -> {
            int now = n == null ? 0 : n;
            if (now >= most) {
                return n;
            }
            taken[0] = true;
            return now + 1;
        });
        return taken[0];
    }

    /** Counts one less for {@code key}; a key at none is dropped. */
    public static void give(ConcurrentMap<String, Integer> counts, String key) {
        counts.computeIfPresent(key, (k, n) -> n <= 1 ? null : n - 1);
    }
}
