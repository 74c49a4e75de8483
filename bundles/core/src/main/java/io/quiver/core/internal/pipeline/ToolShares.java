package io.quiver.core.internal.engine;

import java.util.ArrayDeque;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.IntSupplier;
import java.util.function.ToIntFunction;

/**
 * Fair shares of the tool pool: each tool runs at most its share of calls at once (its own
 * {@code maxConcurrentCalls}, else a percentage of the server's), further calls of it wait in its
 * own bounded queue, holding no thread, and a call beyond that queue is refused at once. So one slow
 * or flooded tool cannot take every thread from the others.
 */
public final class ToolAdmission {

    /** What to do with one call: start it, or answer that the tool is busy. */
    public interface Call {
        void start();

        void busy(String reason);
    }

    private final ToIntFunction<String> permits;
    private final IntSupplier maxQueued;
    private final Map<String, Gate> gates = new ConcurrentHashMap<>();

    /** One tool's calls running and waiting. Guarded by itself. */
    private static final class Gate {
        int running;
        final Queue<Call> waiting = new ArrayDeque<>();
    }

    /**
     * @param permits how many calls of a tool may run at once
     * @param maxQueued how many calls of a tool may wait
     */
    public ToolAdmission(ToIntFunction<String> permits, IntSupplier maxQueued) {
        this.permits = permits;
        this.maxQueued = maxQueued;
    }

    /** Starts a call now, queues it, or refuses it; {@link #release} must follow every started call. */
    public void admit(String tool, Call call) {
        Gate gate = gates.computeIfAbsent(tool, t -> new Gate());
        int limit = Math.max(1, permits.applyAsInt(tool));
        String refusal = null;
        boolean start = false;
        synchronized (gate) {
            if (gate.running < limit) {
                gate.running++;
                start = true;
            } else if (gate.waiting.size() < maxQueued.getAsInt()) {
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
    }

    /** A started call of the tool is over: the next waiting one starts. */
    public void release(String tool) {
        Gate gate = gates.get(tool);
        if (gate == null) {
            return;
        }
        Call next;
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
