package io.quiver.examples.host;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import tools.jackson.core.JacksonException;

/**
 * A tool's question at the console: the fields of its form (a flat JSON Schema object) described one per
 * line, and a typed line turned into the answer's content. A line is either {@code field=value} pairs
 * ({@code name=Ada Lovelace language=fr}: a value runs to the next {@code field=}) or a JSON object.
 * Messages never repeat a typed value (an answer may be a secret); the console cleans what it prints.
 */
final class Forms {

    /** Where a {@code field=} begins: at the start or after white space. */
    private static final Pattern FIELD = Pattern.compile("(?:^|\\s)([A-Za-z_][A-Za-z0-9_.-]*)=");

    private Forms() {
    }

    /** One field of a form. */
    record Field(String name, String type, boolean required, List<String> choices, String label) {

        String describe() {
            StringBuilder text = new StringBuilder(name).append(" (").append(type);
            if (required) {
                text.append(", required");
            }
            if (!choices.isEmpty()) {
                text.append(", one of ").append(String.join("|", choices));
            }
            text.append(')');
            if (!label.isEmpty()) {
                text.append(": ").append(label);
            }
            return text.toString();
        }
    }

    static List<Field> fields(Map<String, Object> schema) {
        List<Field> fields = new ArrayList<>();
        List<?> required = schema.get("required") instanceof List<?> r ? r : List.of();
        if (schema.get("properties") instanceof Map<?, ?> properties) {
            for (Map.Entry<?, ?> entry : properties.entrySet()) {
                Map<?, ?> property = entry.getValue() instanceof Map<?, ?> p ? p : Map.of();
                String name = String.valueOf(entry.getKey());
                String type = property.get("type") instanceof String t ? t : "string";
                Object choices = property.get("enum");
                if (choices == null && property.get("items") instanceof Map<?, ?> items) {
                    choices = items.get("enum"); // a multi-select: an array of strings from a list
                }
                List<String> names = choices instanceof List<?> list ? list.stream().map(String::valueOf).toList() : List.of();
                String title = property.get("title") instanceof String t ? t : "";
                String description = property.get("description") instanceof String d ? d : "";
                String label = title.isEmpty() ? description : description.isEmpty() ? title : title + " - " + description;
                fields.add(new Field(name, type, required.contains(name), names, label));
            }
        }
        return fields;
    }

    /**
     * The answer's content for a typed line.
     *
     * @throws IllegalArgumentException saying what is wrong with the line (without repeating its values)
     */
    static Map<String, Object> parse(String line, Map<String, Object> schema) {
        Map<String, Field> fields = new LinkedHashMap<>();
        for (Field field : fields(schema)) {
            fields.put(field.name(), field);
        }
        String text = line.strip();
        Map<String, Object> content = new LinkedHashMap<>();
        if (text.startsWith("{")) {
            Map<?, ?> json;
            try {
                json = CallRecords.JSON.readValue(text, Map.class);
            } catch (JacksonException e) {
                throw new IllegalArgumentException("that is not a JSON object");
            }
            for (Map.Entry<?, ?> entry : json.entrySet()) {
                String name = String.valueOf(entry.getKey());
                known(fields, name);
                content.put(name, entry.getValue());
            }
        } else {
            Matcher m = FIELD.matcher(text);
            List<String> names = new ArrayList<>();
            List<Integer> starts = new ArrayList<>();
            List<Integer> values = new ArrayList<>();
            while (m.find()) {
                names.add(m.group(1));
                starts.add(m.start());
                values.add(m.end());
            }
            if (names.isEmpty() || starts.get(0) != 0) {
                throw new IllegalArgumentException("write field=value pairs or a JSON object");
            }
            for (int i = 0; i < names.size(); i++) {
                String name = names.get(i);
                Field field = known(fields, name);
                if (content.containsKey(name)) {
                    throw new IllegalArgumentException(name + " is given twice");
                }
                String value = text.substring(values.get(i), i + 1 < names.size() ? starts.get(i + 1) : text.length()).strip();
                content.put(name, value(field, value));
            }
        }
        for (Field field : fields.values()) {
            if (field.required() && content.get(field.name()) == null) {
                throw new IllegalArgumentException(field.name() + " is required");
            }
        }
        return content;
    }

    private static Field known(Map<String, Field> fields, String name) {
        Field field = fields.get(name);
        if (field == null) {
            throw new IllegalArgumentException("the form has no field " + name + "; its fields: "
                    + String.join(", ", fields.keySet()));
        }
        return field;
    }

    /** A typed value as the field's JSON type. */
    private static Object value(Field field, String value) {
        String name = field.name();
        switch (field.type()) {
            case "integer" -> {
                try {
                    return Long.parseLong(value);
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException(name + " takes a whole number");
                }
            }
            case "number" -> {
                try {
                    return new BigDecimal(value);
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException(name + " takes a number");
                }
            }
            case "boolean" -> {
                return switch (value.toLowerCase(Locale.ROOT)) {
                    case "true", "yes", "y" -> Boolean.TRUE;
                    case "false", "no", "n" -> Boolean.FALSE;
                    default -> throw new IllegalArgumentException(name + " takes true or false");
                };
            }
            case "array" -> {
                List<String> items = Arrays.stream(value.split(",")).map(String::strip).filter(s -> !s.isEmpty()).toList();
                if (!field.choices().isEmpty() && !field.choices().containsAll(items)) {
                    throw new IllegalArgumentException(name + " takes some of " + String.join(", ", field.choices()));
                }
                return items;
            }
            default -> {
                if (!field.choices().isEmpty() && !field.choices().contains(value)) {
                    throw new IllegalArgumentException(name + " is one of " + String.join(", ", field.choices()));
                }
                return value;
            }
        }
    }
}
