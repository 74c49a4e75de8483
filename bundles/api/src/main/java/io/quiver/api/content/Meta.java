package io.quiver.api.content;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/** The {@code _meta} of a content block or resource contents: an unmodifiable copy in order, empty for none. */
final class Meta {

    private Meta() {
    }

    static Map<String, Object> copy(Map<String, Object> meta) {
        return meta == null || meta.isEmpty() ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(meta));
    }
}
