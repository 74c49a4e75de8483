package io.quiver.core.internal.pipeline;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;

/** The configured limits by tool name, and the permits that enforce per-tool concurrency. */
public final class ToolLimitsRegistry {

    private static final ToolLimits NONE = new ToolLimits("", 0, 0, 0);

    private final Map<String, ToolLimits> limits = new ConcurrentHashMap<>();
    private final Map<String, Gate> gates = new ConcurrentHashMap<>();

    /** A semaphore sized for one configured limit; replaced when the limit changes. */
    record Gate(int size, Semaphore permits) {
    }

    public void put(ToolLimits value) {
        limits.put(value.tool(), value);
    }

    public void remove(String tool) {
        limits.remove(tool);
        gates.remove(tool);
    }

    ToolLimits of(String tool) {
        return limits.getOrDefault(tool, NONE);
    }

    /** The gate of a tool with a concurrency limit, or null when unlimited. */
    Semaphore gate(String tool) {
        int size = of(tool).maxConcurrentCalls();
        if (size <= 0) {
            return null;
        }
        return gates.compute(tool, (k, g) -> g != null && g.size() == size ? g : new Gate(size, new Semaphore(size)))
                .permits();
    }
}
