package io.quiver.lib.feature;

import java.lang.reflect.Array;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import tools.jackson.databind.JsonNode;

/**
 * Converts the properties of one feature configuration into Configuration Admin values, following
 * the OSGi Configurator conventions: a key may carry a type ({@code "port:Integer": 7711},
 * {@code "hosts:String[]": [...]}, {@code "ids:Collection<Long>": [...]}); without one, a JSON string
 * is a String, an integral number a Long, a decimal a Double, a boolean a Boolean, an array of one of
 * those an array of it, and an object its JSON text. Keys starting with {@code :configurator:} are
 * the Configurator's own and are skipped.
 */
public final class ConfigValues {

    private ConfigValues() {
    }

    public static Map<String, Object> convert(String pid, JsonNode properties) {
        if (!properties.isObject()) {
            throw new IllegalArgumentException("configuration " + pid + " is not a JSON object");
        }
        Map<String, Object> result = new LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> e : properties.properties()) {
            String key = e.getKey();
            if (key.startsWith(":configurator:")) {
                continue;
            }
            int colon = key.indexOf(':');
            try {
                if (colon < 0) {
                    result.put(key, untyped(e.getValue()));
                } else {
                    result.put(key.substring(0, colon), typed(key.substring(colon + 1).trim(), e.getValue()));
                }
            } catch (IllegalArgumentException ex) {
                throw new IllegalArgumentException("configuration " + pid + ", property " + key + ": " + ex.getMessage(), ex);
            }
        }
        return result;
    }

    private static Object untyped(JsonNode v) {
        if (v.isArray()) {
            List<Object> items = new ArrayList<>();
            Class<?> common = null;
            for (JsonNode item : v.values()) {
                Object s = scalar(item);
                items.add(s);
                common = common == null || common == s.getClass() ? s.getClass() : String.class;
            }
            Class<?> type = common == null ? String.class : common;
            Object array = Array.newInstance(type, items.size());
            for (int i = 0; i < items.size(); i++) {
                Object item = items.get(i);
                Array.set(array, i, type == String.class ? String.valueOf(item) : item);
            }
            return array;
        }
        return scalar(v);
    }

    private static Object scalar(JsonNode v) {
        if (v.isString()) {
            return v.stringValue();
        }
        if (v.isBoolean()) {
            return v.booleanValue();
        }
        if (v.isIntegralNumber()) {
            return v.asLong();
        }
        if (v.isNumber()) {
            return v.asDouble();
        }
        if (v.isNull()) {
            throw new IllegalArgumentException("null is not a configuration value");
        }
        return v.toString();
    }

    private static Object typed(String type, JsonNode v) {
        if (type.endsWith("[]")) {
            String element = type.substring(0, type.length() - 2).trim();
            List<Object> items = elements(element, v);
            Class<?> cls = primitive(element) != null ? primitive(element) : boxed(element);
            Object array = Array.newInstance(cls, items.size());
            for (int i = 0; i < items.size(); i++) {
                Array.set(array, i, items.get(i));
            }
            return array;
        }
        if (type.startsWith("Collection<") && type.endsWith(">")) {
            return List.copyOf(elements(type.substring("Collection<".length(), type.length() - 1).trim(), v));
        }
        if (type.equals("Collection")) {
            return List.copyOf(elements("String", v));
        }
        if (v.isArray()) {
            throw new IllegalArgumentException("an array for scalar type " + type);
        }
        return one(type, v);
    }

    private static List<Object> elements(String element, JsonNode v) {
        List<Object> items = new ArrayList<>();
        if (v.isArray()) {
            for (JsonNode item : v.values()) {
                items.add(one(element, item));
            }
        } else {
            items.add(one(element, v));
        }
        return items;
    }

    private static Object one(String type, JsonNode v) {
        String text = v.isString() ? v.stringValue() : v.isValueNode() ? v.asString() : v.toString();
        try {
            return switch (type) {
                case "String" -> text;
                case "Integer", "int" -> Integer.valueOf(text.trim());
                case "Long", "long" -> Long.valueOf(text.trim());
                case "Short", "short" -> Short.valueOf(text.trim());
                case "Byte", "byte" -> Byte.valueOf(text.trim());
                case "Float", "float" -> Float.valueOf(text.trim());
                case "Double", "double" -> Double.valueOf(text.trim());
                case "Boolean", "boolean" -> Boolean.valueOf(text.trim());
                case "Character", "char" -> {
                    if (text.length() != 1) {
                        throw new IllegalArgumentException("'" + text + "' is not one character");
                    }
                    yield text.charAt(0);
                }
                default -> throw new IllegalArgumentException("unsupported type " + type);
            };
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("'" + text + "' is not a " + type, e);
        }
    }

    private static Class<?> primitive(String type) {
        return switch (type) {
            case "int" -> int.class;
            case "long" -> long.class;
            case "short" -> short.class;
            case "byte" -> byte.class;
            case "float" -> float.class;
            case "double" -> double.class;
            case "boolean" -> boolean.class;
            case "char" -> char.class;
            default -> null;
        };
    }

    private static Class<?> boxed(String type) {
        return switch (type) {
            case "String" -> String.class;
            case "Integer" -> Integer.class;
            case "Long" -> Long.class;
            case "Short" -> Short.class;
            case "Byte" -> Byte.class;
            case "Float" -> Float.class;
            case "Double" -> Double.class;
            case "Boolean" -> Boolean.class;
            case "Character" -> Character.class;
            default -> throw new IllegalArgumentException("unsupported type " + type + "[]");
        };
    }
}
