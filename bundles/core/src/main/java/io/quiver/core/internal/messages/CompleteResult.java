package io.quiver.core.internal.messages;

import java.util.List;

/** The answer to {@code completion/complete}. */
public record CompleteResult(Values completion) implements Result {

    /** The values offered, how many there are in all, and whether more exist than were sent. */
    public record Values(List<String> values, int total, boolean hasMore) {
    }
}
