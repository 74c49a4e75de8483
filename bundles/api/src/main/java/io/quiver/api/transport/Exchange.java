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
