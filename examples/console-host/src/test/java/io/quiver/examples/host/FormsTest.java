package io.quiver.examples.host;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class FormsTest {

    private static final Map<String, Object> FORM = Map.of(
            "type", "object",
            "properties", Map.of(
                    "name", Map.of("type", "string", "title", "Name", "description", "Who to greet"),
                    "language", Map.of("type", "string", "enum", List.of("en", "fr")),
                    "age", Map.of("type", "integer"),
                    "height", Map.of("type", "number"),
                    "formal", Map.of("type", "boolean")),
            "required", List.of("name"));

    @Test
    void pairsRunToTheNextField() {
        assertEquals(Map.of("name", "Ada Lovelace", "language", "fr", "age", 36L, "height", new BigDecimal("1.65"),
                "formal", true), Forms.parse("name=Ada Lovelace language=fr age=36 height=1.65 formal=yes", FORM));
        assertEquals(Map.of("name", "x = y"), Forms.parse("  name=x = y ", FORM), "a value may hold '=' after a space");
    }

    @Test
    void aJsonObjectIsTakenAsItIs() {
        assertEquals(Map.of("name", "Ada", "age", 36), Forms.parse("{\"name\":\"Ada\",\"age\":36}", FORM));
    }

    @Test
    void whatDoesNotFitIsSaidWithoutTheValue() {
        assertEquals("write field=value pairs or a JSON object",
                assertThrows(IllegalArgumentException.class, () -> Forms.parse("Ada", FORM)).getMessage());
        assertEquals("name is required",
                assertThrows(IllegalArgumentException.class, () -> Forms.parse("age=3", FORM)).getMessage());
        String secret = "s3cr3t";
        for (String line : List.of("age=" + secret, "name=a language=" + secret, "name=a formal=" + secret,
                "nom=" + secret, "{\"name\":" + secret)) {
            String message = assertThrows(IllegalArgumentException.class, () -> Forms.parse(line, FORM)).getMessage();
            assertFalse(message.contains(secret), message);
        }
    }

    @Test
    void fieldsAreDescribedOnePerLine() {
        List<String> lines = Forms.fields(FORM).stream().map(Forms.Field::describe).toList();
        assertEquals(5, lines.size(), lines.toString());
        assertTrue(lines.contains("name (string, required): Name - Who to greet"), lines.toString());
        assertTrue(lines.contains("language (string, one of en|fr)"), lines.toString());
    }

    @Test
    void controlCharactersAreNotPrinted() {
        assertEquals("evil?[2J client", Console.clean("evil\u001b[2J client"));
        assertEquals("a?b", Console.clean("a\nb"));
    }
}
