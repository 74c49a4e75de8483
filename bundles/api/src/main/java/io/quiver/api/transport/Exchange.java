package io.quiver.api.transport;

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

    /** The JSON-RPC method of the request. */
    String method();

    /** The protocol revision the request is served under. */
    String protocolVersion();

    /** What the transport does with the stream that carries this exchange's messages. */
    StreamPolicy streamPolicy();

    /**
     * The transport lost the client; the engine stops the work where the revision says so. A
     * transport that decides not to {@link #start} an exchange after all (a limit of its own is
     * reached) abandons it, so the engine forgets the request.
     */
    void abandon();
}
