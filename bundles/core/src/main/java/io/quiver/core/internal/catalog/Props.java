package io.quiver.core.internal.catalog;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/** Reading typed values from service properties. */
final class Props {

    private Props() {
    }

    static String string(Map<String, Object> props, String key) {
        Object value = props.get(key);
        if (value instanceof String s && !s.isBlank()) {
            return s;
        }
        if (value instanceof String[] array && array.length > 0 && !array[0].isBlank()) {
            return array[0];
        }
        return null;
    }

    /** A property's values: a string, or the non-blank elements of an array or collection. */
    static List<String> strings(Map<String, Object> props, String key) {
        Object value = props.get(key);
        List<String> values = new ArrayList<>();
        if (value instanceof String s) {
            values.add(s);
        } else if (value instanceof String[] array) {
            values.addAll(Arrays.asList(array));
        } else if (value instanceof Collection<?> collection) {
            collection.forEach(v -> values.add(String.valueOf(v)));
        }
        return values.stream().map(String::trim).filter(v -> !v.isEmpty()).toList();
    }

    static boolean bool(Map<String, Object> props, String key, boolean otherwise) {
        Object value = props.get(key);
        if (value instanceof Boolean b) {
            return b;
        }
        if (value instanceof String s) {
            return Boolean.parseBoolean(s);
        }
        return otherwise;
    }

    static long number(Map<String, Object> props, String key, long otherwise) {
        Object value = props.get(key);
        if (value instanceof Number n) {
            return n.longValue();
        }
        if (value instanceof String s) {
            try {
                return Long.parseLong(s.trim());
            } catch (NumberFormatException e) {
                return otherwise;
            }
        }
        return otherwise;
    }

    static long serviceId(Map<String, Object> props) {
        return number(props, "service.id", 0);
    }

    static int ranking(Map<String, Object> props) {
        Object value = props.get("service.ranking");
        return value instanceof Integer i ? i : 0;
    }
}
