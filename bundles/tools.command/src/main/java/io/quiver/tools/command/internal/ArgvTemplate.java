package io.quiver.tools.command.internal;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * A command line with placeholders, filled from a call's validated arguments into argv elements,
 * never into text a shell reads.
 *
 * <p>An element is literal text with placeholders in it: {@code {name}} (the argument {@code name};
 * the call is refused when it is absent), {@code {name?}} (the element is left out when the argument
 * is absent or null) and {@code {name*}} (an array argument, one element per item; it must be the
 * whole element). {@code {{} and {@code }}} stand for literal braces. Whatever a value holds (spaces,
 * quotes, {@code ;}, {@code $(…)}, newlines), it stays inside its one element.
 *
 * <p>Option injection: a value that would begin an element with {@code -} (so a program could read it
 * as an option) is refused, unless its argument is one of the allowed option arguments or the element
 * comes after a literal {@code --} element (the end of options). In a shell command every element is
 * a positional parameter of the script, which may use it anywhere, so {@code --} does not count there.
 * A NUL character is refused everywhere (it cannot be in an argument of a process).
 */
final class ArgvTemplate {

    /** What a placeholder may be called: a top-level argument name. */
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_][A-Za-z0-9_.-]*");

    /** One piece of an element. */
    sealed interface Part {
        /** Text as written. */
        record Literal(String text) implements Part {
        }

        /** A placeholder. */
        record Slot(String name, boolean optional, boolean spread) implements Part {
        }
    }

    /**
     * One element of the command line.
     *
     * @param afterEndOfOptions whether it comes after a literal {@code --} (never in a shell command)
     */
    record Element(List<Part> parts, boolean afterEndOfOptions) {
        boolean literal() {
            return parts.stream().allMatch(p -> p instanceof Part.Literal);
        }
    }

    /** A call the command is not run for, with the reason for the model. */
    static final class Refused extends Exception {
        private static final long serialVersionUID = 1L;

        Refused(String reason) {
            super(reason, null, false, false);
        }
    }

    private final List<Element> elements;

    private ArgvTemplate(List<Element> elements) {
        this.elements = List.copyOf(elements);
    }

    List<Element> elements() {
        return elements;
    }

    /**
     * Parses the elements.
     *
     * @param shell whether they are the positional parameters of a shell script (no end of options)
     * @throws IllegalArgumentException saying which element is not valid and why
     */
    static ArgvTemplate parse(List<String> elements, boolean shell) {
        List<Element> parsed = new ArrayList<>();
        boolean ended = false;
        for (String element : elements) {
            List<Part> parts = parts(element);
            Element e = new Element(parts, ended && !shell);
            if (parts.stream().anyMatch(p -> p instanceof Part.Slot s && s.spread()) && parts.size() != 1) {
                throw new IllegalArgumentException("argv element '" + element + "': a {name*} placeholder must be the"
                        + " whole element");
            }
            parsed.add(e);
            if (e.literal() && "--".equals(text(parts))) {
                ended = true;
            }
        }
        return new ArgvTemplate(parsed);
    }

    private static String text(List<Part> parts) {
        StringBuilder b = new StringBuilder();
        parts.forEach(p -> b.append(((Part.Literal) p).text()));
        return b.toString();
    }

    private static List<Part> parts(String element) {
        List<Part> parts = new ArrayList<>();
        StringBuilder literal = new StringBuilder();
        int i = 0;
        while (i < element.length()) {
            char c = element.charAt(i);
            if (c == '{' && i + 1 < element.length() && element.charAt(i + 1) == '{') {
                literal.append('{');
                i += 2;
            } else if (c == '}' && i + 1 < element.length() && element.charAt(i + 1) == '}') {
                literal.append('}');
                i += 2;
            } else if (c == '{') {
                int close = element.indexOf('}', i);
                String inside = close < 0 ? "" : element.substring(i + 1, close);
                boolean optional = inside.endsWith("?");
                boolean spread = inside.endsWith("*");
                String name = optional || spread ? inside.substring(0, inside.length() - 1) : inside;
                if (close < 0 || !NAME.matcher(name).matches()) {
                    throw new IllegalArgumentException("argv element '" + element + "': '{' starts a placeholder"
                            + " {name}, {name?} or {name*}; write {{ for a literal brace");
                }
                if (literal.length() > 0) {
                    parts.add(new Part.Literal(literal.toString()));
                    literal.setLength(0);
                }
                parts.add(new Part.Slot(name, optional, spread));
                i = close + 1;
            } else if (c == '}') {
                throw new IllegalArgumentException("argv element '" + element + "': a lone '}'; write }} for a literal"
                        + " brace");
            } else {
                literal.append(c);
                i++;
            }
        }
        if (literal.length() > 0 || parts.isEmpty()) {
            parts.add(new Part.Literal(literal.toString()));
        }
        return parts;
    }

    /** Every placeholder, in order. */
    List<Part.Slot> slots() {
        List<Part.Slot> slots = new ArrayList<>();
        for (Element e : elements) {
            for (Part p : e.parts()) {
                if (p instanceof Part.Slot s) {
                    slots.add(s);
                }
            }
        }
        return slots;
    }

    /** The names of the arguments the placeholders take. */
    Set<String> names() {
        Set<String> names = new LinkedHashSet<>();
        slots().forEach(s -> names.add(s.name()));
        return names;
    }

    /**
     * The argv elements for a call.
     *
     * @param arguments the call's validated arguments
     * @param defaults values of absent arguments (their schema's {@code default})
     * @param optionArguments the arguments whose values may begin an element with {@code -}
     * @throws Refused when a value cannot be one argv element, or would be read as an option
     */
    List<String> fill(Map<String, Object> arguments, Map<String, Object> defaults, Set<String> optionArguments)
            throws Refused {
        List<String> argv = new ArrayList<>();
        for (Element e : elements) {
            if (e.parts().size() == 1 && e.parts().get(0) instanceof Part.Slot s && s.spread()) {
                Object value = value(s.name(), arguments, defaults);
                if (value == null) {
                    continue;
                }
                if (!(value instanceof Collection<?> items)) {
                    throw new Refused("the argument '" + s.name() + "' must be an array (it fills {" + s.name() + "*})");
                }
                for (Object item : items) {
                    String text = scalar(s.name(), item);
                    check(s.name(), text, e, optionArguments);
                    argv.add(text);
                }
                continue;
            }
            StringBuilder b = new StringBuilder();
            String leading = null; // the argument the element's first character comes from, if any
            boolean leadingFixed = false;
            boolean dropped = false;
            for (Part p : e.parts()) {
                if (p instanceof Part.Literal l) {
                    b.append(l.text());
                    if (!l.text().isEmpty() && leading == null) {
                        leadingFixed = true;
                    }
                    continue;
                }
                Part.Slot s = (Part.Slot) p;
                Object value = value(s.name(), arguments, defaults);
                if (value == null) {
                    if (s.optional()) {
                        dropped = true;
                        break;
                    }
                    throw new Refused("the argument '" + s.name() + "' is needed by the command and is missing");
                }
                String text = scalar(s.name(), value);
                if (text.indexOf('\0') >= 0) {
                    throw new Refused("the argument '" + s.name() + "' contains a NUL character");
                }
                if (!leadingFixed && leading == null && !text.isEmpty()) {
                    leading = s.name();
                    if (text.startsWith("-") && !e.afterEndOfOptions() && !optionArguments.contains(s.name())) {
                        throw optionRefused(s.name(), text);
                    }
                }
                b.append(text);
            }
            if (!dropped) {
                argv.add(b.toString());
            }
        }
        return argv;
    }

    private static void check(String name, String text, Element e, Set<String> optionArguments) throws Refused {
        if (text.indexOf('\0') >= 0) {
            throw new Refused("the argument '" + name + "' contains a NUL character");
        }
        if (text.startsWith("-") && !e.afterEndOfOptions() && !optionArguments.contains(name)) {
            throw optionRefused(name, text);
        }
    }

    private static Refused optionRefused(String name, String text) {
        String shown = text.length() > 40 ? text.substring(0, 40) + "…" : text;
        return new Refused("the argument '" + name + "' = '" + shown + "' begins with '-', which the command could read"
                + " as an option; this tool does not take options through its arguments");
    }

    private static Object value(String name, Map<String, Object> arguments, Map<String, Object> defaults) {
        Object value = arguments.get(name);
        return value != null ? value : defaults.get(name);
    }

    /** A JSON value as one argv element: text as it is, numbers in plain notation, true/false. */
    static String scalar(String name, Object value) throws Refused {
        if (value instanceof String s) {
            return s;
        }
        if (value instanceof Boolean b) {
            return b.toString();
        }
        if (value instanceof Integer || value instanceof Long || value instanceof Short || value instanceof Byte
                || value instanceof BigInteger) {
            return value.toString();
        }
        if (value instanceof Number n) {
            BigDecimal d = n instanceof BigDecimal big ? big : new BigDecimal(n.toString());
            return d.signum() == 0 ? "0" : d.stripTrailingZeros().toPlainString();
        }
        throw new Refused("the argument '" + name + "' is " + (value instanceof Map ? "an object" : value instanceof
                Collection ? "an array" : "not a text, number or boolean") + "; it cannot be one argv element");
    }
}
