package io.quiver.api.transport;

import io.quiver.api.CallerIdentity;
import org.osgi.annotation.versioning.ProviderType;

/** A session of the session-based protocol revisions (2024-11-05 to 2025-11-25). */
@ProviderType
public interface McpSession {

    /** The session id (random, visible ASCII). */
    String id();

    /** The negotiated protocol revision. */
    String protocolVersion();

    /** The caller that opened the session. */
    CallerIdentity caller();

    /** What the transport does with the session's stream (the one {@link #attach} takes). */
    StreamPolicy streamPolicy();

    /**
     * Attaches the stream for messages not tied to a request (list changes, resource updates).
     * Only one is attached at a time.
     *
     * @return a handle that detaches it, or {@code null} when another stream is already attached
     */
    AutoCloseable attach(MessageSink sink);

    /** Whether a stream is attached. */
    boolean hasStream();

    /** Ends the session: in-flight requests are cancelled and its id is no longer accepted. */
    void close();

    /** Whether the session is still open. */
    boolean isOpen();

    /** Runs {@code action} once the session ends (at once when it already has). */
    void onClose(Runnable action);
}
