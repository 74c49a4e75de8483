package io.quiver.transport.http.internal;

import java.util.List;
import java.util.Set;

/**
 * The transport's settings as plain values.
 *
 * @param path the endpoint path
 * @param allowedHosts host names accepted in Host/Origin besides the loopback names
 * @param allowedOrigins full origins accepted besides those on allowed hosts ({@code *} for any)
 * @param maxBodyBytes the largest POST body accepted (413 above)
 * @param retryMs the reconnection delay advertised in SSE priming events
 * @param bufferEvents events kept per stream for resumption
 * @param retainedStreams finished streams kept per session for resumption
 * @param keepAliveMs interval of SSE keep-alive comments
 * @param sseMethods methods answered with an SSE stream from the start
 * @param ssePollingMs when above 0, a request stream still waiting for its response this long is
 *     closed and the client resumes it with {@code Last-Event-ID} (SSE polling, 2025-11-25 clients)
 */
public record HttpTransportSettings(String path, List<String> allowedHosts, List<String> allowedOrigins,
        long maxBodyBytes, int retryMs, int bufferEvents, int retainedStreams, long keepAliveMs,
        Set<String> sseMethods, long ssePollingMs) {

    public static HttpTransportSettings defaults() {
        return new HttpTransportSettings("/mcp", List.of(), List.of(), 4L << 20, 3000, 256, 32, 20_000,
                Set.of("tools/call"), 0);
    }
}
