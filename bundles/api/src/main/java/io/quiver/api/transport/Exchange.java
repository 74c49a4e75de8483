package io.quiver.api.transport;

import java.util.List;
import org.osgi.annotation.versioning.ProviderType;

/** One client request being served. */
@ProviderType
public interface Exchange {

    /**
     * Starts serving the request. Interim messages (progress, log messages, server-to-client
     * requests) and then the response reach the sink, on other threads.
     */
    void start(MessageSink sink);

    /**
     * Serves the request on the calling thread where the engine can: a transport whose thread may
     * wait until the request is over calls this instead of {@link #start}, and the engine saves the
     * hand-off to its own threads (a {@code tools/call} runs its tool here) while few requests do
     * so; beyond that, and for requests that must not hold the caller, it starts them as
     * {@link #start} does. The response may still reach the sink on another thread (a tool that
     * overruns its timeout is answered from the engine's timer while this thread waits for it).
     */
    default void run(MessageSink sink) {
        start(sink);
    }

    /**
     * Serves the request on the calling thread if it can be served there without waiting on anything
     * (no I/O, no lock held long, no answer from a client or host): {@code true} when it did, and the
     * answer reaches the sink as with {@link #run}. {@code false} when the request may wait; nothing
     * happened then, and the transport hands it to a thread that may wait ({@link #run} there). A
     * transport calls this on a thread that must never block, such as the thread that read the
     * request from its connection. Control methods ({@code ping}, {@code tools/list}, ...) and calls of
     * tools declared non-blocking ({@code mcp.tool.blocking=false}) qualify (since 1.3).
     */
    default boolean runNow(MessageSink sink) {
        return false;
    }

    /**
     * Whether {@link #runNow} would serve this request: it waits on nothing. A transport may answer
     * such a request plainly where it would otherwise open a stream for it, since its answer comes at
     * once (since 1.3).
     */
    default boolean quick() {
        return false;
    }

    /** The JSON-RPC method of the request; for a 2025-03-26 batch, that of its first request. */
    String method();

    /**
     * The methods of the requests this exchange answers, in order: its one request's, or those of a
     * 2025-03-26 JSON-RPC batch, which the engine serves as one exchange whose response is the array of
     * theirs. A transport that counts a caller's requests or tool calls, or decides by method how to
     * answer, looks at each (since 1.4).
     */
    default List<String> methods() {
        return List.of(method());
    }

    /** The protocol revision the request is served under. */
    String protocolVersion();

    /** What the transport does with the stream that carries this exchange's messages. */
    StreamPolicy streamPolicy();

    /**
     * The JSON-RPC error that refuses this exchange's request with its own id, for a transport that
     * decides not to serve it after all (a limit of its own is reached); for a 2025-03-26 batch, the
     * array of errors for each of its answered requests. {@code null} when the engine cannot say; the
     * transport then sends {@link McpEngine#errorResponse} (a null id). The transport still calls
     * {@link #abandon} (since 1.5).
     */
    default byte[] refusal(int code, String message) {
        return null;
    }

    /**
     * The transport lost the client; the engine stops the work where the revision says so. A
     * transport that decides not to {@link #start} an exchange after all (a limit of its own is
     * reached) abandons it, so the engine forgets the request.
     */
    void abandon();
}
