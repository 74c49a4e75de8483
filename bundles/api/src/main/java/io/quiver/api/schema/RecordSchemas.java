package io.quiver.api.schema;

import java.lang.reflect.GenericArrayType;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.lang.reflect.WildcardType;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.Set;
import java.util.UUID;

/**
 * Generates JSON Schema (2020-12) from records, as JSON values ({@code Map}, {@code List},
 * {@code String}, {@code Boolean}). Supported component types: {@code String}, {@code char},
 * numbers (primitive, boxed, {@code BigDecimal}, {@code BigInteger}), {@code boolean}, enums
 * (their constant names), {@code UUID} and {@code java.time} values (strings), arrays,
 * collections, {@code Map<String, V>}, nested records, and {@code Optional} of any of these.
 * Every component is required except {@code Optional} ones; no extra properties are allowed.
 * {@link Description} on a component or record becomes its {@code description}.
 *
 * <p>Written here rather than taken from a library because the API bundle depends on nothing but
 * the JDK and OSGi annotations, and tool bundles must not need a JSON library to declare a tool.
 */
public final class RecordSchemas {

    private RecordSchemas() {
    }

    /** The schema of a record type, with its components as properties. */
    public static Map<String, Object> of(Class<?> recordType) {
        if (!recordType.isRecord()) {
            throw new IllegalArgumentException(recordType.getName() + " is not a record");
        }
        return schema(recordType, new ArrayList<>());
    }

    private static Map<String, Object> record(Class<?> type, List<Class<?>> path) {
        if (path.contains(type)) {
            throw new IllegalArgumentException("recursive record types are not supported: " + type.getName());
        }
        path.add(type);
        Map<String, Object> schema = new LinkedHashMap<>();
        schema.put("type", "object");
        describe(schema, type.getAnnotation(Description.class));
        Map<String, Object> properties = new LinkedHashMap<>();
        List<String> required = new ArrayList<>();
        for (RecordComponent component : type.getRecordComponents()) {
            Type generic = component.getGenericType();
            boolean optional = isOptional(generic);
            Map<String, Object> property = new LinkedHashMap<>(schema(generic, path));
            describe(property, component.getAnnotation(Description.class));
            properties.put(component.getName(), Collections.unmodifiableMap(property));
            if (!optional) {
                required.add(component.getName());
            }
        }
        schema.put("properties", Collections.unmodifiableMap(properties));
        if (!required.isEmpty()) {
            schema.put("required", List.copyOf(required));
        }
        schema.put("additionalProperties", Boolean.FALSE);
        path.remove(path.size() - 1);
        return Collections.unmodifiableMap(schema);
    }

    private static Map<String, Object> schema(Type type, List<Class<?>> path) {
        if (type instanceof ParameterizedType p) {
            Class<?> raw = (Class<?>) p.getRawType();
            Type[] args = p.getActualTypeArguments();
            if (raw == Optional.class) {
                return schema(args[0], path);
            }
            if (Collection.class.isAssignableFrom(raw)) {
                return array(schema(args[0], path), Set.class.isAssignableFrom(raw));
            }
            if (Map.class.isAssignableFrom(raw)) {
                if (args[0] != String.class) {
                    throw new IllegalArgumentException("map keys must be strings: " + type);
                }
                return Map.of("type", "object", "additionalProperties", schema(args[1], path));
            }
            return schema(raw, path);
        }
        if (type instanceof GenericArrayType g) {
            return array(schema(g.getGenericComponentType(), path), false);
        }
        if (type instanceof WildcardType w) {
            return schema(w.getUpperBounds()[0], path);
        }
        if (!(type instanceof Class<?> c)) {
            throw new IllegalArgumentException("unsupported type " + type);
        }
        if (c == String.class || c == char.class || c == Character.class || c == UUID.class
                || c.getName().startsWith("java.time.")) {
            return Map.of("type", "string");
        }
        if (c == boolean.class || c == Boolean.class) {
            return Map.of("type", "boolean");
        }
        if (c == int.class || c == Integer.class || c == long.class || c == Long.class || c == short.class
                || c == Short.class || c == byte.class || c == Byte.class || c == BigInteger.class
                || c == OptionalInt.class || c == OptionalLong.class) {
            return Map.of("type", "integer");
        }
        if (c == double.class || c == Double.class || c == float.class || c == Float.class || c == BigDecimal.class
                || c == OptionalDouble.class) {
            return Map.of("type", "number");
        }
        if (c.isEnum()) {
            List<String> names = new ArrayList<>();
            for (Object constant : c.getEnumConstants()) {
                names.add(((Enum<?>) constant).name());
            }
            return Map.of("type", "string", "enum", List.copyOf(names));
        }
        if (c.isArray()) {
            return array(schema(c.getComponentType(), path), false);
        }
        if (c.isRecord()) {
            return record(c, path);
        }
        if (c == Object.class) {
            return Map.of();
        }
        throw new IllegalArgumentException("unsupported type " + c.getName()
                + " (use records, strings, numbers, booleans, enums, arrays, lists and maps)");
    }

    private static Map<String, Object> array(Map<String, Object> items, boolean unique) {
        return unique ? Map.of("type", "array", "items", items, "uniqueItems", Boolean.TRUE)
                : Map.of("type", "array", "items", items);
    }

    private static boolean isOptional(Type type) {
        if (type instanceof ParameterizedType p) {
            return p.getRawType() == Optional.class;
        }
        return type == OptionalInt.class || type == OptionalLong.class || type == OptionalDouble.class;
    }

    private static void describe(Map<String, Object> schema, Description description) {
        if (description != null && !description.value().isBlank()) {
            schema.put("description", description.value());
        }
    }
}
