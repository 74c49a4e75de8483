package io.quiver.core.internal.pipeline;

import io.quiver.core.internal.settings.EngineConfig;
import io.quiver.core.internal.settings.EngineSettings;
import java.util.ArrayDeque;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The limits gate in front of stage 5: fair shares of the tool pool: each tool runs at most its share of calls at once (its own
 * {@code maxConcurrentCalls}, else a percentage of the server's), further calls of it wait in its
 * own bounded queue, holding no thread, and a call beyond that queue is refused at once. So one slow
 * or flooded tool cannot take every thread from the others. The engine takes the share for a
 * {@code tools/call} before the call gets a request thread, so a waiting call costs no thread at all.
 */
public final class ToolShares {

    /** What to do with one call: start it, or answer that the tool is busy. */
    public interface Waiter {
        void start();

        void busy(String reason);
    }

    private final ToolLimitsRegistry limits;
    private final EngineSettings settings;
    private final Map<String, Gate> gates = new ConcurrentHashMap<>();

    /** One tool's calls running and waiting. Guarded by itself. */
    private static final class Gate {
        int running;
        final Queue<Waiter> waiting = new ArrayDeque<>();
    }

    public ToolShares(ToolLimitsRegistry limits, EngineSettings settings) {
        this.limits = limits;
        this.settings = settings;
    }

    /** How many calls of a tool may run at once: its own limit, else its share of the tool threads. */
    int permits(String tool) {
        int own = limits.of(tool).maxConcurrentCalls();
        if (own > 0) {
            return own;
        }
        EngineConfig c = settings.config();
        return Math.max(1, (int) Math.ceil(c.maxConcurrentCalls() * c.toolSharePercent() / 100.0));
    }

    /**
     * Starts a call now, queues it, or refuses it; {@link #release} must follow every started call.
     *
     * @return whether it was queued (it starts later, or is {@link #withdraw withdrawn})
     */
    public boolean admit(String tool, Waiter call) {
        return admit(tool, call, false);
    }

    /** {@link #admit}; {@code queueAnyway}: queued even past the tool's queue bound when no share is free. */
    public boolean admit(String tool, Waiter call, boolean queueAnyway) {
        Gate gate = gates.computeIfAbsent(tool, t -> new Gate());
        int limit = permits(tool);
        String refusal = null;
        boolean start = false;
        synchronized (gate) {
            if (gate.running < limit) {
                gate.running++;
                start = true;
            } else if (queueAnyway || gate.waiting.size() < settings.config().maxQueuedPerTool()) {
                gate.waiting.add(call);
            } else {
                refusal = "The tool " + tool + " is busy: " + gate.running + " calls are running and "
                        + gate.waiting.size() + " waiting, its limit. Try again shortly.";
            }
        }
        if (start) {
            call.start();
        } else if (refusal != null) {
            call.busy(refusal);
        }
        return !start && refusal == null;
    }

    /** A started call of the tool is over: the next waiting one starts. */
    public void release(String tool) {
        Gate gate = gates.get(tool);
        if (gate == null) {
            return;
        }
        Waiter next;
        synchronized (gate) {
            next = gate.waiting.poll();
            if (next == null) {
                gate.running = Math.max(0, gate.running - 1);
            }
        }
        if (next != null) {
            next.start();
        }
    }

    /**
     * Takes a call out of its tool's queue (cancelled while it waited): true when it was waiting there, and then
     * it never starts; false when it started already (or was never queued).
     */
    public boolean withdraw(String tool, Waiter call) {
        Gate gate = gates.get(tool);
        if (gate == null) {
            return false;
        }
        synchronized (gate) {
            return gate.waiting.remove(call);
        }
    }

    /** Calls of a tool running now. */
    public int running(String tool) {
        Gate gate = gates.get(tool);
        if (gate == null) {
            return 0;
        }
        synchronized (gate) {
            return gate.running;
        }
    }
}
