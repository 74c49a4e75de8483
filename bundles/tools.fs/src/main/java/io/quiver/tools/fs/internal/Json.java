package io.quiver.tools.fs.internal;

import java.util.List;
import java.util.Locale;
import java.util.Map;

/** JSON text of maps, lists, strings, numbers and booleans, indented by two spaces as {@code JSON.stringify(v, null, 2)}. */
final class Json {

    private Json() {
    }

    static String pretty(Object value) {
        StringBuilder out = new StringBuilder();
        write(value, out, "");
        return out.toString();
    }

    private static void write(Object value, StringBuilder out, String indent) {
        if (value instanceof Map<?, ?> map) {
            if (map.isEmpty()) {
                out.append("{}");
                return;
            }
            String inner = indent + "  ";
            out.append("{\n");
            int i = 0;
            for (Map.Entry<?, ?> e : map.entrySet()) {
                out.append(inner);
                string(String.valueOf(e.getKey()), out);
                out.append(": ");
                write(e.getValue(), out, inner);
                out.append(++i < map.size() ? ",\n" : "\n");
            }
            out.append(indent).append('}');
        } else if (value instanceof List<?> list) {
            if (list.isEmpty()) {
                out.append("[]");
                return;
            }
            String inner = indent + "  ";
            out.append("[\n");
            for (int i = 0; i < list.size(); i++) {
                out.append(inner);
                write(list.get(i), out, inner);
                out.append(i + 1 < list.size() ? ",\n" : "\n");
            }
            out.append(indent).append(']');
        } else if (value instanceof String s) {
            string(s, out);
        } else if (value == null) {
            out.append("null");
        } else {
            out.append(value);
        }
    }

    /** How many bytes (UTF-8) a string takes as a JSON string, quotes included, written as {@link #string} does. */
    static long bytes(String s) {
        long n = 2;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '"' || c == '\\' || c == '\n' || c == '\r' || c == '\t' || c == '\b' || c == '\f') {
                n += 2;
            } else if (c < 0x20) {
                n += 6;
            } else if (c < 0x80) {
                n += 1;
            } else if (c < 0x800 || Character.isSurrogate(c)) {
                n += 2; // a surrogate pair is four bytes
            } else {
                n += 3;
            }
        }
        return n;
    }

    static void string(String s, StringBuilder out) {
        out.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                case '\b' -> out.append("\\b");
                case '\f' -> out.append("\\f");
                default -> {
                    if (c < 0x20) {
                        out.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        out.append('"');
    }
}
