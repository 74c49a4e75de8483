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

    /**
     * The exchange is over with an error the transport should also signal itself (an HTTP status,
     * say). Transports that cannot, or that already started streaming, just deliver the response.
     */
    default void fail(Receipt.Reason reason, byte[] response) {
        complete(response);
    }
}
