package io.quiver.deployer.internal;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;

/**
 * Configuration values from feature JSON: a key may carry a type ({@code "port:Integer"}); without
 * one a string is a String, an integral number a Long, a decimal a Double, a boolean a Boolean and
 * an array of strings a String[].
 */
final class ConfigValues {

    private ConfigValues() {
    }

    static Map<String, Object> convert(JsonNode object) {
        Map<String, Object> result = new LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> e : object.properties()) {
            String key = e.getKey();
            int colon = key.indexOf(':');
            if (colon > 0) {
                result.put(key.substring(0, colon), typed(key.substring(colon + 1).trim(), e.getValue()));
            } else {
                result.put(key, untyped(e.getValue()));
            }
        }
        return result;
    }

    private static Object untyped(JsonNode v) {
        if (v.isBoolean()) {
            return v.booleanValue();
        }
        if (v.isIntegralNumber()) {
            return v.longValue();
        }
        if (v.isNumber()) {
            return v.doubleValue();
        }
        if (v.isArray()) {
            List<String> items = new ArrayList<>();
            v.forEach(item -> items.add(item.asString()));
            return items.toArray(String[]::new);
        }
        return v.asString();
    }

    private static Object typed(String type, JsonNode v) {
        return switch (type) {
            case "Integer", "int" -> v.asInt();
            case "Long", "long" -> v.asLong();
            case "Double", "double" -> v.asDouble();
            case "Float", "float" -> (float) v.asDouble();
            case "Boolean", "boolean" -> v.asBoolean();
            case "String" -> v.asString();
            case "String[]" -> untyped(v) instanceof String[] a ? a : new String[] {v.asString()};
            default -> throw new IllegalArgumentException("unsupported configuration type " + type);
        };
    }
}
