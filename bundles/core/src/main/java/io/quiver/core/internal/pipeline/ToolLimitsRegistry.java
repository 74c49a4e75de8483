package io.quiver.core.internal.pipeline;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The configured limits by tool name, each set by an owner (a configuration): an owner that renames its tool or goes
 * takes its limits with it, and of two owners naming one tool the first counts, the other waiting its turn.
 */
public final class ToolLimitsRegistry {

    private static final ToolLimits NONE = new ToolLimits("", 0, 0, 0);

    /** Guarded by this; in the order the owners came. */
    private final Map<Object, ToolLimits> byOwner = new LinkedHashMap<>();
    /** What each tool gets, made again at each change: read at every call. */
    private volatile Map<String, ToolLimits> byTool = Map.of();

    /** Sets (or replaces) the limits an owner gives. */
    public synchronized void put(Object owner, ToolLimits value) {
        byOwner.put(owner, value);
        derive();
    }

    /** The owner's limits go. */
    public synchronized void remove(Object owner) {
        byOwner.remove(owner);
        derive();
    }

    /** Limits owned by their tool's name (tests, and whoever sets one tool's limits alone). */
    public void put(ToolLimits value) {
        put(value.tool(), value);
    }

    public void remove(String tool) {
        remove((Object) tool);
    }

    private void derive() {
        Map<String, ToolLimits> tools = new HashMap<>();
        for (ToolLimits limits : byOwner.values()) {
            tools.putIfAbsent(limits.tool(), limits);
        }
        byTool = Map.copyOf(tools);
    }

    /** The tools more than one owner limits (only the first one's limits count). */
    public synchronized List<String> limitedTwice() {
        Map<String, Integer> counts = new HashMap<>();
        byOwner.values().forEach(l -> counts.merge(l.tool(), 1, Integer::sum));
        List<String> twice = new ArrayList<>();
        counts.forEach((tool, n) -> {
            if (n > 1) {
                twice.add(tool);
            }
        });
        twice.sort(null);
        return twice;
    }

    /** The limits configured for a tool (zeros where none are). */
    public ToolLimits of(String tool) {
        return byTool.getOrDefault(tool, NONE);
    }
}
