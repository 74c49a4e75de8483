package io.quiver.core.internal.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Limits set by configurations: a configuration that renames its tool or goes takes its limits along (before, the old
 * tool kept a deleted file's timeout until a restart), and of two configurations naming one tool the first counts while
 * the other waits (before, deleting either left the tool without limits).
 */
class ToolLimitsRegistryTest {

    private final ToolLimitsRegistry limits = new ToolLimitsRegistry();
    private final Object x1 = "tool-x1";
    private final Object x2 = "tool-x2";

    @Test
    void aConfigurationsLimitsFollowItsToolAndGoWithIt() {
        limits.put(x1, new ToolLimits("a_sleep", 1_000, 0, 0));
        assertEquals(1_000, limits.of("a_sleep").timeoutMs());
        limits.put(x1, new ToolLimits("a_huge", 1_000, 0, 0));
        assertEquals(0, limits.of("a_sleep").timeoutMs(), "renamed: the old tool is no longer limited");
        assertEquals(1_000, limits.of("a_huge").timeoutMs());
        limits.remove(x1);
        assertEquals(0, limits.of("a_huge").timeoutMs(), "deleted: no limits left");
    }

    @Test
    void ofTwoConfigurationsOfOneToolTheFirstCountsAndTheOtherTakesOver() {
        limits.put(x1, new ToolLimits("a_sleep", 1_000, 0, 0));
        limits.put(x2, new ToolLimits("a_sleep", 5_000, 0, 0));
        assertEquals(1_000, limits.of("a_sleep").timeoutMs());
        assertEquals(List.of("a_sleep"), limits.limitedTwice());
        limits.remove(x1);
        assertEquals(5_000, limits.of("a_sleep").timeoutMs(), "the other file still says 5000");
        assertEquals(List.of(), limits.limitedTwice());
    }
}
