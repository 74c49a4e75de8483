package io.quiver.core.internal.exec;

import io.quiver.core.internal.settings.EngineConfig;
import java.util.concurrent.ScheduledExecutorService;

/**
 * The engine's threads: requests that run extension code, tool attempts, tasks, and one timer. Their
 * sizes follow the configuration while they run.
 */
public final class Workers implements AutoCloseable {

    private final Pools.Pool requests;
    private final Pools.Pool tools;
    private final Pools.Pool tasks;
    private final ScheduledExecutorService timer = Pools.timer("quiver-timer");
    private final Gate inline;
    private final Watchdog watchdog = new Watchdog(timer);

    public Workers(EngineConfig config) {
        this.requests = Pools.bounded("quiver-request", config.maxConcurrentRequests(), config.maxQueued());
        this.tools = Pools.bounded("quiver-tool", config.maxConcurrentCalls(), config.maxQueued());
        this.tasks = Pools.bounded("quiver-task", config.maxConcurrentCalls(), config.maxQueued());
        this.inline = new Gate(config.maxInlineRequests());
    }

    /** Requests served on their transport's own thread, with their tools: no hand-off at all. */
    public Gate inline() {
        return inline;
    }

    /** Requests that run extension code ({@code tools/call}, {@code prompts/get}, ...). */
    public Pools.Pool requests() {
        return requests;
    }

    /** Tool attempts, each under its timeout. */
    public Pools.Pool tools() {
        return tools;
    }

    /** Tasks of the tasks extension. */
    public Pools.Pool tasks() {
        return tasks;
    }

    /** Deadlines of work on threads that are not the engine's (inline requests). */
    public Watchdog watchdog() {
        return watchdog;
    }

    public ScheduledExecutorService timer() {
        return timer;
    }

    /** Takes new sizes; running and queued work is kept. */
    public void resize(EngineConfig config) {
        requests.resize(config.maxConcurrentRequests(), config.maxQueued());
        tools.resize(config.maxConcurrentCalls(), config.maxQueued());
        tasks.resize(config.maxConcurrentCalls(), config.maxQueued());
        inline.resize(config.maxInlineRequests());
    }

    @Override
    public void close() {
        timer.shutdownNow();
        requests.shutdownNow();
        tools.shutdownNow();
        tasks.shutdownNow();
    }
}
