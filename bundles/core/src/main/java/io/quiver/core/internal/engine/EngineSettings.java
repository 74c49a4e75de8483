package io.quiver.core.internal.engine;

/**
 * The engine's settings, as plain values (from the component configuration, or written by tests).
 *
 * @param serverName the name in {@code serverInfo}
 * @param serverVersion the version in {@code serverInfo}
 * @param instructions instructions for the model, or empty
 * @param toolTimeoutMs the default per-attempt tool timeout
 * @param maxConcurrentCalls tool attempts running at once; more are queued
 * @param maxConcurrentRequests requests served at once; more are queued
 * @param maxQueued requests or calls that may wait for a thread before the server answers "busy"
 * @param clientRequestTimeoutMs how long to wait for the client to answer elicitation, sampling or roots
 * @param sessionIdleTimeoutMs sessions without traffic, stream or requests for this long are closed
 * @param pageSize items per page of a list
 * @param listChangedDebounceMs list changes within this window yield one notification
 * @param maxInputRounds how many times one call may ask for input
 * @param maxOutputBytes the most one tool call may return (text cut, binary omitted beyond it)
 * @param listTtlMs 2026-07-28 cache hint on discover and list results
 * @param readTtlMs 2026-07-28 cache hint on resource reads
 * @param cacheScope 2026-07-28 cache scope: {@code public} or {@code private}
 * @param requestStateKeys keys that sign 2026-07-28 request state (the first signs, all verify); empty: one random key
 * @param requestStateTtlMs how long a request state stays valid
 * @param taskTtlMs how long a task (tasks extension) is kept after it was created
 * @param taskTimeoutMs the timeout of one attempt of a task
 * @param maxTasks tasks kept at once
 */
public record EngineSettings(String serverName, String serverVersion, String instructions, long toolTimeoutMs,
        int maxConcurrentCalls, int maxConcurrentRequests, int maxQueued, long clientRequestTimeoutMs,
        long sessionIdleTimeoutMs, int pageSize, long listChangedDebounceMs, int maxInputRounds,
        long maxOutputBytes, long listTtlMs, long readTtlMs, String cacheScope, java.util.List<String> requestStateKeys,
        long requestStateTtlMs, long taskTtlMs, long taskTimeoutMs, int maxTasks) {

    /** The defaults. */
    public static EngineSettings defaults() {
        return new EngineSettings("quiver", "0.1.0", "", 60_000, 64, 256, 1024, 300_000, 3_600_000, 100, 250, 10,
                1L << 20, 0, 0, "private", java.util.List.of(), 600_000, 3_600_000, 3_600_000, 10_000);
    }
}
