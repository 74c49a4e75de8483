package io.quiver.core.internal.catalog;

import io.quiver.core.internal.rpc.McpException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.function.Function;

/**
 * Opaque pagination cursors. A cursor names the last key of the previous page, so paging stays
 * correct while the catalog changes between pages: nothing is skipped or repeated except what
 * changed.
 */
public final class Cursor {

    private static final String PREFIX = "q1:";

    private Cursor() {
    }

    /** One page of a list. */
    public record Page<T>(List<T> items, String nextCursor) {
    }

    /** Encodes the key after which the next page starts. */
    public static String encode(String lastKey) {
        return Base64.getUrlEncoder().withoutPadding()
                .encodeToString((PREFIX + lastKey).getBytes(StandardCharsets.UTF_8));
    }

    /** Decodes a cursor; a malformed one is an invalid-params error. */
    public static String decode(String cursor) {
        try {
            String text = new String(Base64.getUrlDecoder().decode(cursor), StandardCharsets.UTF_8);
            if (text.startsWith(PREFIX)) {
                return text.substring(PREFIX.length());
            }
        } catch (IllegalArgumentException e) {
            // fall through
        }
        throw McpException.invalidParams("Invalid cursor");
    }

    /**
     * Cuts one page out of a list sorted by key.
     *
     * @param sorted the items in ascending key order
     * @param cursor the client's cursor, or {@code null} for the first page
     */
    public static <T> Page<T> page(List<T> sorted, Function<T, String> key, String cursor, int pageSize) {
        int start = 0;
        if (cursor != null) {
            String after = decode(cursor);
            while (start < sorted.size() && key.apply(sorted.get(start)).compareTo(after) <= 0) {
                start++;
            }
        }
        int end = Math.min(sorted.size(), start + Math.max(1, pageSize));
        List<T> items = List.copyOf(sorted.subList(start, end));
        String next = end < sorted.size() ? encode(key.apply(sorted.get(end - 1))) : null;
        return new Page<>(items, next);
    }
}
