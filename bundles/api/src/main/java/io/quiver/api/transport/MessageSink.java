package io.quiver.api.transport;

import org.osgi.annotation.versioning.ConsumerType;

/** Where the engine delivers the messages of one exchange or one session stream. */
@ConsumerType
public interface MessageSink {

    /** An interim message: a notification or a server-to-client request. */
    void send(byte[] message);

    /**
     * The exchange is over.
     *
     * @param response the JSON-RPC response, or {@code null} when none is owed (the request was cancelled)
     */
    void complete(byte[] response);
}
