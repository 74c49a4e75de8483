package io.quiver.api.schema;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

class RecordSchemasTest {

    enum Unit { CELSIUS, FAHRENHEIT }

    record Point(double x, double y) {
    }

    @Description("Where and how")
    record Args(@Description("The city") String city, int days, Optional<Unit> unit, List<String> tags,
            Set<Integer> ids, Map<String, Boolean> flags, Point at, boolean verbose, long[] counts) {
    }

    record Loop(Loop next) {
    }

    @Test
    void describesEveryComponent() {
        Map<String, Object> schema = RecordSchemas.of(Args.class);
        assertEquals("object", schema.get("type"));
        assertEquals("Where and how", schema.get("description"));
        assertEquals(false, schema.get("additionalProperties"));
        @SuppressWarnings("unchecked")
        Map<String, Map<String, Object>> p = (Map<String, Map<String, Object>>) schema.get("properties");
        assertEquals(Map.of("type", "string", "description", "The city"), p.get("city"));
        assertEquals(Map.of("type", "integer"), p.get("days"));
        assertEquals(Map.of("type", "string", "enum", List.of("CELSIUS", "FAHRENHEIT")), p.get("unit"));
        assertEquals(Map.of("type", "array", "items", Map.of("type", "string")), p.get("tags"));
        assertEquals(true, p.get("ids").get("uniqueItems"));
        assertEquals(Map.of("type", "object", "additionalProperties", Map.of("type", "boolean")), p.get("flags"));
        assertEquals("object", p.get("at").get("type"));
        assertEquals(List.of("x", "y"), p.get("at").get("required"));
        assertEquals(Map.of("type", "boolean"), p.get("verbose"));
        assertEquals(Map.of("type", "array", "items", Map.of("type", "integer")), p.get("counts"));
        assertEquals(List.of("city", "days", "tags", "ids", "flags", "at", "verbose", "counts"), schema.get("required"),
                "everything but the Optional is required, in declaration order");
    }

    @Test
    void refusesWhatItCannotDescribe() {
        assertThrows(IllegalArgumentException.class, () -> RecordSchemas.of(String.class));
        assertThrows(IllegalArgumentException.class, () -> RecordSchemas.of(Loop.class));
    }
}
