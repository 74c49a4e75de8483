package io.quiver.core.internal.messages;

import java.util.Map;

/** The result of a request, as a handler returns it: a record that is written once, for its client. */
public interface Result {

    /** The stateless era's {@code resultType}: {@code complete} unless the result says otherwise. */
    default String resultType() {
        return "complete";
    }

    /** The result's own {@code _meta}, or {@code null}; the stateless era adds the server's identity to it. */
    default Map<String, Object> meta() {
        return null;
    }

    /**
     * The result without its own {@code _meta} property, for a writer that writes {@code _meta}
     * itself ({@link #meta()} merged with more); the result itself when it has no such property.
     */
    default Result withoutMeta() {
        return this;
    }

    /** The result as a client of an older revision may receive it (content it cannot show replaced). */
    default Result forRevision(String version) {
        return this;
    }
}
