package io.quiver.core.internal.catalog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class RankedRegistryTest {

    private final RankedRegistry<String> registry = new RankedRegistry<>();

    private boolean put(String key, long serviceId, int ranking, String value) {
        return registry.put(new RankedRegistry.Entry<>(key, serviceId, ranking, value));
    }

    @Test
    void highestRankingWinsAndLosersAreShadowed() {
        put("echo", 10, 0, "low");
        put("echo", 11, 5, "high");
        assertEquals("high", registry.snapshot().get("echo"));
        assertEquals(List.of(11L), registry.snapshot().winners().values().stream().map(e -> e.serviceId()).toList());
        assertEquals(List.of(10L), registry.snapshot().shadowed().stream().map(e -> e.serviceId()).toList());
    }

    @Test
    void equalRankingGoesToTheLowestServiceId() {
        put("echo", 21, 0, "later");
        put("echo", 20, 0, "earlier");
        assertEquals("earlier", registry.snapshot().get("echo"));
    }

    @Test
    void shadowedEntryIsPromotedWhenTheWinnerLeaves() {
        put("echo", 10, 0, "low");
        put("echo", 11, 5, "high");
        assertTrue(registry.remove(11));
        assertEquals("low", registry.snapshot().get("echo"));
        assertTrue(registry.snapshot().shadowed().isEmpty());
    }

    @Test
    void onlyVisibleChangesBumpTheVersion() {
        assertTrue(put("a", 1, 0, "x"));
        long version = registry.snapshot().version();
        assertFalse(put("a", 2, -1, "hidden"), "a lower-ranked duplicate changes nothing visible");
        assertEquals(version, registry.snapshot().version());
        assertFalse(registry.remove(2));
        assertFalse(registry.remove(99));
        assertTrue(put("b", 3, 0, "y"));
        assertEquals(version + 1, registry.snapshot().version());
    }

    @Test
    void winnersAreOrderedByKey() {
        put("zeta", 1, 0, "z");
        put("alpha", 2, 0, "a");
        put("mid", 3, 0, "m");
        assertEquals(List.of("a", "m", "z"), registry.snapshot().values());
    }
}
