package io.quiver.core.internal.handlers;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The shape of every paginated list result. */
final class ListResults {

    private ListResults() {
    }

    static Map<String, Object> of(String field, List<?> items, String nextCursor) {
        Map<String, Object> result = new LinkedHashMap<>();
        result.put(field, items);
        if (nextCursor != null) {
            result.put("nextCursor", nextCursor);
        }
        return result;
    }
}
