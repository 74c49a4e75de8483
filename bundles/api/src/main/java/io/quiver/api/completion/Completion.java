package io.quiver.api.completion;

import java.util.List;

/**
 * Suggested values (at most 100 are sent).
 *
 * @param total how many values exist in all, or {@code null}
 * @param hasMore whether more exist than were returned
 */
public record Completion(List<String> values, Integer total, boolean hasMore) {

    public Completion {
        values = List.copyOf(values);
    }

    /** No suggestions. */
    public static Completion none() {
        return new Completion(List.of(), 0, false);
    }
}
