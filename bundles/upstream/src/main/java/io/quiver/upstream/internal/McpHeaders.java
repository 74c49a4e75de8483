package io.quiver.upstream.internal;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import tools.jackson.databind.JsonNode;

/**
 * The request headers of Streamable HTTP in a stateless revision (2026-07-28) that mirror parts of the
 * body: {@code Mcp-Name} and the {@code Mcp-Param-*} headers a tool's input schema designates with
 * {@code x-mcp-header}, their value encoding (plain ASCII, or {@code =?base64?...?=} for anything a
 * header cannot carry as it is), and the rules an annotation must follow for its tool to be usable.
 */
final class McpHeaders {

    static final String ANNOTATION = "x-mcp-header";
    static final String PARAM_PREFIX = "Mcp-Param-";
    private static final String SENTINEL_START = "=?base64?";
    private static final String SENTINEL_END = "?=";
    /** RFC 9110 {@code tchar} besides letters and digits. */
    private static final String TCHAR_SYMBOLS = "!#$%&'*+-.^_`|~";
    /** JavaScript's safe integers: what a header's integer may be. */
    private static final long MAX_SAFE = (1L << 53) - 1;

    /** Keywords whose value is one subschema. */
    private static final Set<String> SCHEMA = Set.of("additionalProperties", "items", "contains", "not", "if", "then",
            "else", "propertyNames", "unevaluatedItems", "unevaluatedProperties", "additionalItems", "contentSchema");
    /** Keywords whose value is an array of subschemas. */
    private static final Set<String> SCHEMAS = Set.of("allOf", "anyOf", "oneOf", "prefixItems", "items");
    /** Keywords whose value maps names to subschemas. */
    private static final Set<String> NAMED = Set.of("properties", "patternProperties", "$defs", "definitions",
            "dependentSchemas");

    private McpHeaders() {
    }

    /** A value as a header carries it: as it is when plain printable ASCII, else in the Base64 form. */
    static String encode(String value) {
        return needsBase64(value)
                ? SENTINEL_START + Base64.getEncoder().encodeToString(value.getBytes(StandardCharsets.UTF_8)) + SENTINEL_END
                : value;
    }

    /**
     * Whether a value needs the Base64 form: a character outside printable ASCII (controls, tab and
     * non-ASCII included), whitespace at either end (a header loses it), or text that looks like the
     * Base64 form itself.
     */
    static boolean needsBase64(String value) {
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c < 0x20 || c > 0x7E) {
                return true;
            }
        }
        if (!value.isEmpty() && (value.charAt(0) == ' ' || value.charAt(value.length() - 1) == ' ')) {
            return true;
        }
        return value.startsWith(SENTINEL_START) && value.endsWith(SENTINEL_END)
                && value.length() >= SENTINEL_START.length() + SENTINEL_END.length();
    }

    /** The value a header mirrors, decoded from the Base64 form where it is in it. */
    static String decode(String header) {
        if (header.startsWith(SENTINEL_START) && header.endsWith(SENTINEL_END)
                && header.length() >= SENTINEL_START.length() + SENTINEL_END.length()) {
            String inner = header.substring(SENTINEL_START.length(), header.length() - SENTINEL_END.length());
            return new String(Base64.getDecoder().decode(inner), StandardCharsets.UTF_8);
        }
        return header;
    }

    /** The body value {@code Mcp-Name} mirrors for a method, or null when it has none. */
    static String name(String method, JsonNode params) {
        if (params == null) {
            return null;
        }
        JsonNode value = switch (method) {
            case "tools/call", "prompts/get" -> params.get("name");
            case "resources/read" -> params.get("uri");
            default -> null;
        };
        return value != null && value.isString() ? value.asString() : null;
    }

    /** One annotated parameter: the chain of property names from the root and the header's name part. */
    record Designated(List<String> path, String header) {
    }

    /**
     * Why a tool's {@code x-mcp-header} annotations make it unusable over Streamable HTTP, or null when
     * they are valid (or there are none): each must be a non-empty token of header characters, unique
     * among the schema's annotations whatever the case, on a property of type string, integer or
     * boolean, reached from the root through {@code properties} alone.
     */
    static String invalid(JsonNode inputSchema) {
        List<String> problems = new ArrayList<>();
        List<Designated> found = new ArrayList<>();
        walk(inputSchema, true, true, new ArrayList<>(), found, problems);
        Set<String> seen = new HashSet<>();
        for (Designated d : found) {
            if (!seen.add(d.header().toLowerCase(Locale.ROOT))) {
                problems.add("x-mcp-header '" + d.header() + "' is used twice (header names ignore case)");
            }
        }
        return problems.isEmpty() ? null : String.join("; ", problems);
    }

    /** The annotated parameters of a valid schema, in schema order. */
    static List<Designated> designated(JsonNode inputSchema) {
        List<Designated> found = new ArrayList<>();
        walk(inputSchema, true, true, new ArrayList<>(), found, new ArrayList<>());
        return found;
    }

    private static void walk(JsonNode schema, boolean root, boolean reachable, List<String> path, List<Designated> found,
            List<String> problems) {
        if (schema == null || !schema.isObject()) {
            return;
        }
        JsonNode annotation = schema.get(ANNOTATION);
        if (annotation != null) {
            String where = path.isEmpty() ? "the schema root" : "property " + String.join(".", path);
            if (root || !reachable) {
                problems.add("x-mcp-header on " + where + ", which is not reached from the root through properties alone");
            } else if (!annotation.isString() || !token(annotation.asString())) {
                problems.add("x-mcp-header " + annotation + " of " + where + " is not a header name token");
            } else {
                String type = schema.path("type").asString("");
                if (!type.equals("string") && !type.equals("integer") && !type.equals("boolean")) {
                    problems.add("x-mcp-header '" + annotation.asString() + "' is on " + where + " of type "
                            + (schema.has("type") ? schema.get("type").toString() : "(none)")
                            + "; only string, integer and boolean parameters may be headers");
                } else {
                    found.add(new Designated(List.copyOf(path), annotation.asString()));
                }
            }
        }
        for (Map.Entry<String, JsonNode> member : schema.properties()) {
            String keyword = member.getKey();
            JsonNode value = member.getValue();
            if (NAMED.contains(keyword) && value.isObject()) {
                boolean properties = keyword.equals("properties");
                for (Map.Entry<String, JsonNode> named : value.properties()) {
                    List<String> next = new ArrayList<>(path);
                    next.add(properties ? named.getKey() : keyword + ":" + named.getKey());
                    walk(named.getValue(), false, reachable && properties, next, found, problems);
                }
            } else if (SCHEMAS.contains(keyword) && value.isArray()) {
                for (int i = 0; i < value.size(); i++) {
                    List<String> next = new ArrayList<>(path);
                    next.add(keyword + "[" + i + "]");
                    walk(value.get(i), false, false, next, found, problems);
                }
            } else if (SCHEMA.contains(keyword) && value.isObject()) {
                List<String> next = new ArrayList<>(path);
                next.add(keyword);
                walk(value, false, false, next, found, problems);
            }
        }
    }

    /** RFC 9110 {@code 1*tchar}. */
    static boolean token(String name) {
        if (name.isEmpty()) {
            return false;
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            boolean ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
                    || TCHAR_SYMBOLS.indexOf(c) >= 0;
            if (!ok) {
                return false;
            }
        }
        return true;
    }

    /**
     * The {@code Mcp-Param-*} headers of a call: for each designated parameter that has a value in the
     * arguments (not null), its header with the value encoded. In schema order.
     */
    static Map<String, String> params(JsonNode inputSchema, JsonNode arguments) {
        Map<String, String> headers = new LinkedHashMap<>();
        if (inputSchema == null || arguments == null || !arguments.isObject()) {
            return headers;
        }
        for (Designated d : designated(inputSchema)) {
            JsonNode value = arguments;
            for (String step : d.path()) {
                value = value == null || !value.isObject() ? null : value.get(step);
            }
            String text = value == null ? null : text(value);
            if (text != null) {
                headers.put(PARAM_PREFIX + d.header(), encode(text));
            }
        }
        return headers;
    }

    /** A parameter's value as text: a string as it is, an integer in decimal, a boolean as true or false; else null. */
    static String text(JsonNode value) {
        if (value.isString()) {
            return value.asString();
        }
        if (value.isBoolean()) {
            return value.asBoolean() ? "true" : "false";
        }
        if (value.isIntegralNumber()) {
            return value.bigIntegerValue().toString();
        }
        if (value.isNumber()) {
            double d = value.asDouble();
            if (d == Math.rint(d) && Math.abs(d) <= MAX_SAFE) {
                return Long.toString((long) d);
            }
            return value.decimalValue().stripTrailingZeros().toPlainString();
        }
        return null;
    }
}
