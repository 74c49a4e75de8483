package io.quiver.core.internal.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quiver.core.internal.settings.EngineSettings;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

class ToolSharesTest {

    private final List<String> log = new CopyOnWriteArrayList<>();
    private final ToolLimitsRegistry limits = new ToolLimitsRegistry();
    private final ToolShares shares = new ToolShares(limits,
            EngineSettings.of(Map.of("maxConcurrentCalls", 4, "toolSharePercent", 50, "maxQueuedPerTool", 1)));

    private ToolShares.Waiter waiter(String name) {
        return new ToolShares.Waiter() {
            @Override
            public void start() {
                log.add("start " + name);
            }

            @Override
            public void busy(String reason) {
                log.add("busy " + name + ": " + reason);
            }
        };
    }

    @Test
    void aToolRunsItsShareQueuesBeyondItAndIsRefusedPastTheQueue() {
        shares.admit("slow", waiter("1"));
        shares.admit("slow", waiter("2"));
        shares.admit("slow", waiter("3"));
        shares.admit("slow", waiter("4"));
        assertEquals(List.of("start 1", "start 2"), log.subList(0, 2));
        assertEquals(3, log.size());
        assertTrue(log.get(2).startsWith("busy 4: The tool slow is busy: 2 calls are running and 1 waiting"), log.get(2));
        assertEquals(2, shares.running("slow"));

        shares.admit("quick", waiter("q"));
        assertEquals("start q", log.get(3));

        shares.release("slow");
        assertEquals("start 3", log.get(4));
        assertEquals(2, shares.running("slow"));
        shares.release("slow");
        shares.release("slow");
        assertEquals(0, shares.running("slow"));
    }

    @Test
    void aToolsOwnLimitReplacesItsShare() {
        limits.put(new ToolLimits("solo", 0, 1, 0));
        assertEquals(1, shares.permits("solo"));
        assertEquals(2, shares.permits("other"));
    }
}
