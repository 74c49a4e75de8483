package io.quiver.core.internal.pipeline;

import io.quiver.core.internal.catalog.ToolEntry;
import io.quiver.core.internal.settings.EngineSettings;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * Per-tool health: a tool that failed (threw or timed out) {@code toolFailuresBeforeCooldown} times
 * in a row cools down for {@code toolCooldownMs}: its calls are answered at once, without running
 * it, with an error naming the cooldown, so a broken tool (a dead backend, say) does not hold threads
 * and callers for its whole timeout, call after call. The first call after the cooldown runs it again;
 * a success clears the count, one more failure starts another cooldown.
 *
 * <p>Kept per registration (name and bundle), so a fixed version of a bundle starts healthy; only
 * tools with failures have an entry, and an entry holds no reference to the tool (no class loader is
 * kept alive by it).
 */
final class ToolHealth {

    private record State(int failures, long coolUntil) {
    }

    private final EngineSettings settings;
    private final LongSupplier clock;
    private final Map<String, State> states = new ConcurrentHashMap<>();

    ToolHealth(EngineSettings settings) {
        this(settings, System::currentTimeMillis);
    }

    ToolHealth(EngineSettings settings, LongSupplier clock) {
        this.settings = settings;
        this.clock = clock;
    }

    /** The milliseconds left of the tool's cooldown, or 0 when it may run. */
    long cooling(ToolEntry tool) {
        if (states.isEmpty()) { // the usual case: no tool has failed lately, and no key is made per call
            return 0;
        }
        State state = states.get(key(tool));
        if (state == null) {
            return 0;
        }
        long left = state.coolUntil() - clock.getAsLong();
        return Math.max(0, left);
    }

    void succeeded(ToolEntry tool) {
        if (!states.isEmpty()) {
            states.remove(key(tool));
        }
    }

    void failed(ToolEntry tool) {
        int threshold = settings.config().toolFailuresBeforeCooldown();
        if (threshold <= 0) {
            return;
        }
        long now = clock.getAsLong();
        long cooldown = settings.config().toolCooldownMs();
        states.compute(key(tool), (k, state) -> {
            int failures = (state == null ? 0 : state.failures()) + 1;
            return new State(failures, failures >= threshold ? now + cooldown : 0);
        });
    }

    private static String key(ToolEntry tool) {
        return tool.name() + "#" + tool.bundleId();
    }
}
