package io.quiver.tools.command.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ArgvTemplateTest {

    private static List<String> fill(List<String> template, Map<String, Object> args) throws Exception {
        return ArgvTemplate.parse(template, false).fill(args, Map.of(), Set.of());
    }

    private static String refused(List<String> template, Map<String, Object> args, boolean shell, Set<String> allowed) {
        return assertThrows(ArgvTemplate.Refused.class,
                () -> ArgvTemplate.parse(template, shell).fill(args, Map.of(), allowed)).getMessage();
    }

    @Test
    void eachPlaceholderFillsExactlyOneElementWhateverItHolds() throws Exception {
        for (String hostile : List.of("a b", "; rm -rf /tmp/x", "$(touch x)", "`touch x`", "x\ntouch y", "'\"", "*", "~",
                "${HOME}", "a|b&&c", "")) {
            assertEquals(List.of("git", "log", "-n", "5", "--", hostile),
                    fill(List.of("git", "log", "-n", "{count}", "--", "{path}"), Map.of("count", 5, "path", hostile)),
                    hostile);
        }
    }

    @Test
    void textAroundAPlaceholderStaysInTheSameElement() throws Exception {
        assertEquals(List.of("prog", "--file=-rf x", "a{b}c"),
                fill(List.of("prog", "--file={f}", "a{{b}}c"), Map.of("f", "-rf x")));
    }

    @Test
    void optionalSpreadAndDefaults() throws Exception {
        ArgvTemplate t = ArgvTemplate.parse(List.of("ls", "--max={n?}", "--", "{paths*}"), false);
        assertEquals(List.of("ls", "--"), t.fill(Map.of(), Map.of(), Set.of()));
        Map<String, Object> args = new HashMap<>();
        args.put("n", null);
        args.put("paths", List.of("a", "-b", "c d"));
        assertEquals(List.of("ls", "--", "a", "-b", "c d"), t.fill(args, Map.of(), Set.of()),
                "null is absent; items after -- may begin with -");
        assertEquals(List.of("ls", "--max=3", "--"), t.fill(Map.of(), Map.of("n", 3), Set.of()), "the schema's default");
        assertTrue(refused(List.of("ls", "{paths*}"), Map.of("paths", List.of("ok", "-l")), false, Set.of())
                .contains("begins with '-'"));
        assertTrue(refused(List.of("ls", "{p}"), Map.of(), false, Set.of()).contains("missing"));
    }

    @Test
    void valuesRenderAsTheirJsonText() throws Exception {
        assertEquals(List.of("p", "5", "1.5", "100", "true", "12345678901234567890"),
                fill(List.of("p", "{a}", "{b}", "{c}", "{d}", "{e}"), Map.of("a", 5L, "b", 1.5, "c", new BigDecimal("1E+2"),
                        "d", true, "e", new java.math.BigInteger("12345678901234567890"))));
        assertTrue(refused(List.of("p", "{a}"), Map.of("a", Map.of("k", 1)), false, Set.of()).contains("an object"));
        assertTrue(refused(List.of("p", "{a}"), Map.of("a", List.of(1)), false, Set.of()).contains("an array"));
        assertTrue(refused(List.of("p", "{a}"), Map.of("a", "x\0y"), false, Set.of()).contains("NUL"));
    }

    @Test
    void aValueThatWouldBeReadAsAnOptionIsRefusedBeforeTheEndOfOptions() {
        for (String option : List.of("--output=/etc/x", "-o/etc/x", "-", "-5")) {
            String why = refused(List.of("p", "{name}", "--", "{rest}"), Map.of("name", option, "rest", "x"), false, Set.of());
            assertTrue(why.contains("'name'") && why.contains("begins with '-'"), why);
        }
        // a placeholder that begins the element after an empty value is checked too
        assertTrue(refused(List.of("p", "{a}{b}"), Map.of("a", "", "b", "-x"), false, Set.of()).contains("'b'"));
    }

    @Test
    void afterALiteralDoubleDashOrWhenAllowedItIsAnOrdinaryValue() throws Exception {
        assertEquals(List.of("p", "--", "--output=/etc/x"), fill(List.of("p", "--", "{name}"), Map.of("name", "--output=/etc/x")));
        assertEquals(List.of("p", "-n", "-5"), ArgvTemplate.parse(List.of("p", "-n", "{n}"), false)
                .fill(Map.of("n", -5), Map.of(), Set.of("n")));
        // only a literal -- ends the options: a value "--" is refused itself, and does not open the way for others
        assertTrue(refused(List.of("p", "{a}", "{b}"), Map.of("a", "--", "b", "-x"), false, Set.of()).contains("'a'"));
        assertTrue(refused(List.of("p", "{a}", "{b}"), Map.of("a", "--", "b", "-x"), false, Set.of("a")).contains("'b'"));
        assertTrue(refused(List.of("p", "{sep}", "{b}"), Map.of("sep", "x", "b", "-x"), false, Set.of()).contains("'b'"));
    }

    @Test
    void inAShellEveryPositionalParameterIsChecked() {
        assertTrue(refused(List.of("--", "{a}"), Map.of("a", "-x"), true, Set.of()).contains("begins with '-'"));
    }

    @Test
    void malformedTemplatesSayWhy() {
        for (String bad : List.of("{", "{a b}", "x}", "{}", "a{b*}", "{print $1}")) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> ArgvTemplate.parse(List.of("p", bad), false), bad);
            assertTrue(e.getMessage().contains("'" + bad + "'"), e.getMessage());
        }
    }
}
