package io.quiver.core.internal.pipeline;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** The configured limits by tool name. */
public final class ToolLimitsRegistry {

    private static final ToolLimits NONE = new ToolLimits("", 0, 0, 0);

    private final Map<String, ToolLimits> limits = new ConcurrentHashMap<>();

    public void put(ToolLimits value) {
        limits.put(value.tool(), value);
    }

    public void remove(String tool) {
        limits.remove(tool);
    }

    /** The limits configured for a tool (zeros where none are). */
    public ToolLimits of(String tool) {
        return limits.getOrDefault(tool, NONE);
    }
}
