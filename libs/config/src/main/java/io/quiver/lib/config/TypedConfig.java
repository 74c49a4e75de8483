package io.quiver.lib.config;

import java.lang.annotation.Annotation;
import java.lang.reflect.Array;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * A configuration read into a component property type (an annotation such as a component's
 * {@code Config}), setting by setting. The annotation is the single source of defaults: a missing
 * setting takes the member's default. A value that does not convert to the member's type, or breaks
 * its {@link Min}, {@link Max} or {@link OneOf}, is not taken: the setting keeps its last good value (or the
 * default) and the problem is reported, one line each, so a typo in a file never takes a part down.
 *
 * <p>Values come as Configuration Admin gives them: text from {@code .cfg} files, typed values from
 * {@code .config} files and features. Text converts to numbers and booleans; a single value to a
 * one-element array; a list to an array.
 */
public final class TypedConfig {

    /** The property Felix FileInstall puts on a configuration it read from a file. */
    static final String FILENAME = "felix.fileinstall.filename";

    private TypedConfig() {
    }

    /**
     * A setting that was not taken.
     *
     * @param source the file the configuration came from, or its PID
     * @param key the setting
     * @param value the value given, as text
     * @param expected what the setting takes, e.g. {@code an integer of at least 1}
     * @param kept the value the setting keeps instead, as text
     */
    public record Problem(String source, String key, String value, String expected, String kept) {
        /** What is wrong, without the source. */
        public String reason() {
            return value == null ? key + " is required and missing"
                    : key + " = " + value + " is not " + expected + "; keeping " + kept;
        }

        /** One line for the log: the source and the reason. */
        public String text() {
            return source + ": " + reason();
        }
    }

    /**
     * A configuration as read.
     *
     * @param config the values to use: the good ones given, the last good or default ones elsewhere
     * @param problems the settings not taken, by name
     */
    public record Result<A extends Annotation>(A config, List<Problem> problems) {
    }

    /** The defaults of a component property type, as an instance of it. */
    public static <A extends Annotation> A defaults(Class<A> type) {
        return read(type, Map.of(), null).config();
    }

    /**
     * A configuration from given values, for tests and embedders: every value must be good.
     *
     * @throws IllegalArgumentException naming the first value that is not
     */
    public static <A extends Annotation> A of(Class<A> type, Map<String, ?> values) {
        Result<A> result = read(type, values, null);
        if (!result.problems().isEmpty()) {
            throw new IllegalArgumentException(result.problems().get(0).text());
        }
        return result.config();
    }

    /**
     * Reads a configuration.
     *
     * @param properties the configuration's properties (unknown keys are ignored)
     * @param previous the last configuration taken, whose values bad ones fall back to; {@code null}
     *     for the defaults
     */
    public static <A extends Annotation> Result<A> read(Class<A> type, Map<String, ?> properties, A previous) {
        if (!type.isAnnotation()) {
            throw new IllegalArgumentException(type + " is not an annotation type");
        }
        String source = source(properties);
        Map<String, Object> values = new LinkedHashMap<>();
        List<Problem> problems = new ArrayList<>();
        for (Method member : members(type)) {
            String key = key(member.getName());
            Object fallback = previous != null ? invoke(member, previous) : member.getDefaultValue();
            Object raw = properties.get(key);
            if (raw == null) {
                Object standard = member.getDefaultValue();
                if (standard == null) {
                    problems.add(new Problem(source, key, null, "required", text(zero(member.getReturnType()))));
                    standard = zero(member.getReturnType());
                }
                values.put(member.getName(), standard);
                continue;
            }
            try {
                Object value = convert(member, raw);
                check(member, value);
                values.put(member.getName(), value);
            } catch (Refused e) {
                Object kept = fallback != null ? fallback : zero(member.getReturnType());
                problems.add(new Problem(source, key, text(raw), e.expected, text(kept)));
                values.put(member.getName(), kept);
            }
        }
        return new Result<>(proxy(type, values), List.copyOf(problems));
    }

    /**
     * Where a configuration came from, for messages: the file FileInstall read it from, else its PID.
     */
    public static String source(Map<String, ?> properties) {
        Object file = properties.get(FILENAME);
        if (file != null) {
            String name = String.valueOf(file);
            try {
                return name.startsWith("file:") ? Path.of(URI.create(name)).toString() : name;
            } catch (IllegalArgumentException e) {
                return name;
            }
        }
        Object pid = properties.get("service.pid");
        return pid != null ? "configuration " + pid : "the configuration";
    }

    /**
     * The items of a list setting: each element split on commas (a {@code .cfg} file gives one string,
     * {@code a, b}), trimmed, blanks dropped, in order.
     */
    public static List<String> list(String... values) {
        return Arrays.stream(values).flatMap(v -> Arrays.stream(v.split(","))).map(String::trim)
                .filter(v -> !v.isEmpty()).toList();
    }

    /**
     * A glob from a setting, compiled: {@code *} stands for any run of characters (slashes too),
     * {@code ?} for one, everything else for itself. It must match a whole value.
     */
    public static Pattern glob(String glob) {
        String g = glob.trim();
        StringBuilder b = new StringBuilder();
        int literalStart = 0;
        for (int i = 0; i < g.length(); i++) {
            char c = g.charAt(i);
            if (c == '*' || c == '?') {
                if (i > literalStart) {
                    b.append(Pattern.quote(g.substring(literalStart, i)));
                }
                b.append(c == '*' ? ".*" : ".");
                literalStart = i + 1;
            }
        }
        if (literalStart < g.length()) {
            b.append(Pattern.quote(g.substring(literalStart)));
        }
        return Pattern.compile(b.toString());
    }

    /**
     * The name of one instance of a factory configuration: {@code ci-bot} for the file
     * {@code <factoryPid>-ci-bot.cfg} or the configuration {@code <factoryPid>~ci-bot}; else its PID.
     */
    public static String factoryName(Map<String, ?> properties, String factoryPid) {
        Object file = properties.get(FILENAME);
        if (file != null) {
            String name = String.valueOf(file).replace('\\', '/');
            name = name.substring(name.lastIndexOf('/') + 1);
            int dot = name.lastIndexOf('.');
            name = dot > 0 ? name.substring(0, dot) : name;
            return name.startsWith(factoryPid + "-") ? name.substring(factoryPid.length() + 1) : name;
        }
        Object pid = properties.get("service.pid");
        if (pid != null) {
            String p = String.valueOf(pid);
            return p.startsWith(factoryPid + "~") ? p.substring(factoryPid.length() + 1) : p;
        }
        return "unnamed";
    }

    // -------------------------------------------------------------------------------------------

    /** The members of a property type, by name (the JVM does not keep the declaration order). */
    private static List<Method> members(Class<?> type) {
        List<Method> members = new ArrayList<>();
        for (Method m : type.getDeclaredMethods()) {
            if (m.getParameterCount() == 0 && !m.isSynthetic()) {
                members.add(m);
            }
        }
        members.sort(Comparator.comparing(Method::getName));
        return members;
    }

    /** The property name of a member, as Declarative Services maps it ({@code a_b} is {@code a.b}). */
    static String key(String member) {
        StringBuilder key = new StringBuilder();
        for (int i = 0; i < member.length(); i++) {
            char c = member.charAt(i);
            if (c == '_') {
                if (i + 1 < member.length() && member.charAt(i + 1) == '_') {
                    key.append('_');
                    i++;
                } else {
                    key.append('.');
                }
            } else if (c == '$') {
                if (i + 1 < member.length() && member.charAt(i + 1) == '$') {
                    key.append('$');
                    i++;
                }
            } else {
                key.append(c);
            }
        }
        return key.toString();
    }

    private static final class Refused extends Exception {
        private static final long serialVersionUID = 1L;
        final String expected;

        Refused(String expected) {
            super(expected, null, false, false);
            this.expected = expected;
        }
    }

    private static Object convert(Method member, Object raw) throws Refused {
        Class<?> type = member.getReturnType();
        if (type.isArray()) {
            Class<?> component = type.getComponentType();
            List<Object> items = new ArrayList<>();
            if (raw.getClass().isArray()) {
                for (int i = 0; i < Array.getLength(raw); i++) {
                    items.add(Array.get(raw, i));
                }
            } else if (raw instanceof Collection<?> c) {
                items.addAll(c);
            } else {
                items.add(raw);
            }
            Object array = Array.newInstance(component, items.size());
            for (int i = 0; i < items.size(); i++) {
                Array.set(array, i, scalar(component, items.get(i)));
            }
            return array;
        }
        Object value = raw;
        if (raw.getClass().isArray()) {
            if (Array.getLength(raw) != 1) {
                throw new Refused(expected(type) + " (one value)");
            }
            value = Array.get(raw, 0);
        } else if (raw instanceof Collection<?> c) {
            if (c.size() != 1) {
                throw new Refused(expected(type) + " (one value)");
            }
            value = c.iterator().next();
        }
        return scalar(type, value);
    }

    private static Object scalar(Class<?> type, Object value) throws Refused {
        if (value == null) {
            throw new Refused(expected(type));
        }
        if (type == String.class) {
            return String.valueOf(value);
        }
        String text = value instanceof String s ? s.trim() : null;
        try {
            if (type == int.class || type == Integer.class) {
                long n = integral(value, text, type);
                if (n < Integer.MIN_VALUE || n > Integer.MAX_VALUE) {
                    throw new Refused(expected(type));
                }
                return (int) n;
            }
            if (type == long.class || type == Long.class) {
                return integral(value, text, type);
            }
            if (type == double.class || type == Double.class) {
                return value instanceof Number n ? n.doubleValue() : Double.parseDouble(text);
            }
        } catch (NumberFormatException | NullPointerException e) {
            throw new Refused(expected(type));
        }
        if (type == boolean.class || type == Boolean.class) {
            if (value instanceof Boolean b) {
                return b;
            }
            if ("true".equalsIgnoreCase(text) || "false".equalsIgnoreCase(text)) {
                return Boolean.parseBoolean(text);
            }
            throw new Refused(expected(type));
        }
        if (type.isEnum()) {
            for (Object constant : type.getEnumConstants()) {
                if (((Enum<?>) constant).name().equalsIgnoreCase(String.valueOf(value).trim())) {
                    return constant;
                }
            }
            throw new Refused(expected(type));
        }
        throw new IllegalArgumentException("settings of type " + type.getName() + " are not supported");
    }

    private static long integral(Object value, String text, Class<?> type) throws Refused {
        if (value instanceof Number n) {
            if (n.doubleValue() != Math.rint(n.doubleValue())) {
                throw new Refused(expected(type));
            }
            return n.longValue();
        }
        return Long.parseLong(text);
    }

    private static void check(Method member, Object value) throws Refused {
        Min min = member.getAnnotation(Min.class);
        Max max = member.getAnnotation(Max.class);
        if (value instanceof Number n && (min != null && n.longValue() < min.value()
                || max != null && n.longValue() > max.value())) {
            String range = min != null && max != null ? " from " + min.value() + " to " + max.value()
                    : min != null ? " of at least " + min.value() : " of at most " + max.value();
            throw new Refused(expected(member.getReturnType()) + range);
        }
        OneOf oneOf = member.getAnnotation(OneOf.class);
        if (oneOf != null && !Arrays.asList(oneOf.value()).contains(String.valueOf(value))) {
            throw new Refused("one of " + String.join(", ", oneOf.value()));
        }
    }

    private static String expected(Class<?> type) {
        if (type == int.class || type == Integer.class) {
            return "an integer";
        }
        if (type == long.class || type == Long.class) {
            return "a whole number";
        }
        if (type == double.class || type == Double.class) {
            return "a number";
        }
        if (type == boolean.class || type == Boolean.class) {
            return "true or false";
        }
        if (type.isEnum()) {
            return "one of " + Arrays.toString(type.getEnumConstants());
        }
        return "a text";
    }

    private static Object zero(Class<?> type) {
        if (type.isArray()) {
            return Array.newInstance(type.getComponentType(), 0);
        }
        if (type == int.class) {
            return 0;
        }
        if (type == long.class) {
            return 0L;
        }
        if (type == double.class) {
            return 0.0;
        }
        if (type == boolean.class) {
            return false;
        }
        return type == String.class ? "" : null;
    }

    private static String text(Object value) {
        if (value == null) {
            return "(none)";
        }
        if (value.getClass().isArray()) {
            List<String> items = new ArrayList<>();
            for (int i = 0; i < Array.getLength(value); i++) {
                items.add(String.valueOf(Array.get(value, i)));
            }
            return String.join(", ", items);
        }
        String s = String.valueOf(value);
        return s.isEmpty() ? "(empty)" : s;
    }

    private static Object invoke(Method member, Object instance) {
        try {
            return member.invoke(instance);
        } catch (ReflectiveOperationException e) {
            return member.getDefaultValue();
        }
    }

    @SuppressWarnings("unchecked")
    private static <A extends Annotation> A proxy(Class<A> type, Map<String, Object> values) {
        return (A) Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type}, (self, method, args) -> {
            switch (method.getName()) {
                case "annotationType":
                    return type;
                case "toString":
                    return "@" + type.getName() + values;
                case "hashCode":
                    return values.hashCode();
                case "equals":
                    return args[0] != null && Proxy.isProxyClass(args[0].getClass()) && type.isInstance(args[0])
                            && sameValues(type, self, args[0]);
                default:
                    Object value = values.get(method.getName());
                    return value != null && value.getClass().isArray() ? cloneArray(value) : value;
            }
        });
    }

    private static boolean sameValues(Class<?> type, Object a, Object b) {
        for (Method m : members(type)) {
            if (!Objects.deepEquals(invoke(m, a), invoke(m, b))) {
                return false;
            }
        }
        return true;
    }

    private static Object cloneArray(Object array) {
        int length = Array.getLength(array);
        Object copy = Array.newInstance(array.getClass().getComponentType(), length);
        System.arraycopy(array, 0, copy, 0, length);
        return copy;
    }

    /** Whether two configurations of one type differ in the named setting. */
    public static boolean changed(Annotation a, Annotation b, String member) {
        try {
            Method m = a.annotationType().getMethod(member);
            return !Objects.deepEquals(m.invoke(a), m.invoke(b));
        } catch (ReflectiveOperationException e) {
            throw new IllegalArgumentException(member, e);
        }
    }
}
