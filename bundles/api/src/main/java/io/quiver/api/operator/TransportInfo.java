package io.quiver.api.operator;

/**
 * What one MCP transport holds at this moment: the figures an operator looks at when clients stop
 * reading, streams pile up or blocking calls wait.
 *
 * @param name the transport ({@code http})
 * @param openStreams streams that stay open until their client leaves (session GET streams, 2026-07-28
 *     listen streams)
 * @param maxStreams the most of them ({@code maxStreams}, or what the heap sized it to)
 * @param unsentBytes bytes of answers and events held in memory for clients that have not read them yet
 * @param maxUnsentBytes the most all connections together may hold ({@code maxUnsentBytesTotal}, or what
 *     the heap sized it to)
 * @param callThreads the call pool's threads (blocking tool calls), running or idle
 * @param busyCallThreads of those, the ones running a call now
 * @param maxCallThreads the most the call pool grows to ({@code maxCallThreads})
 * @param queuedCalls calls waiting for a call thread
 * @param maxQueuedCalls the most that may wait ({@code maxQueuedCalls})
 * @param stuckCallThreads threads still in a call that was answered without them (its tool ignored the timeout's
 *     interrupt): they gave their place in the pool to new threads and count in none of the figures above; at most
 *     {@code maxCallThreads}
 */
public record TransportInfo(String name, int openStreams, int maxStreams, long unsentBytes, long maxUnsentBytes,
        int callThreads, int busyCallThreads, int maxCallThreads, int queuedCalls, int maxQueuedCalls,
        int stuckCallThreads) {

    /** A transport without a call pool that gives up threads: none stuck. */
    public TransportInfo(String name, int openStreams, int maxStreams, long unsentBytes, long maxUnsentBytes,
            int callThreads, int busyCallThreads, int maxCallThreads, int queuedCalls, int maxQueuedCalls) {
        this(name, openStreams, maxStreams, unsentBytes, maxUnsentBytes, callThreads, busyCallThreads, maxCallThreads,
                queuedCalls, maxQueuedCalls, 0);
    }
}
