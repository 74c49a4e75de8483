package io.quiver.api.call;

/**
 * What {@link HostChannel#record} throws when the host could not record a result (its store is full, say): the
 * caller gets an error result with this message, never the unrecorded result. Any other exception from
 * {@code record} fails the delivery too, but the caller reads only that the host failed (its message may name
 * the host's internals), and the log has the rest (since 1.3).
 */
public class RecordingFailed extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** @param reason what the caller reads, after "The host could not record it: " */
    public RecordingFailed(String reason) {
        super(reason);
    }
}
