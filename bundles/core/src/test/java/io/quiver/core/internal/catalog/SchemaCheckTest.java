package io.quiver.core.internal.catalog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.networknt.schema.Schema;
import io.quiver.api.schema.Description;
import io.quiver.api.schema.RecordSchemas;
import io.quiver.core.internal.json.Json;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * Schemas generated from record types are not checked against the meta-schema when a tool registers
 * (they are valid by construction) and compile at their first use: this holds the generator to that.
 */
class SchemaCheckTest {

    enum Mode { FAST, SAFE }

    record Inner(@Description("a count") int count, Optional<String> note) {
    }

    @Description("every kind of component the generator knows")
    record Everything(String text, char letter, int small, long big, double ratio, BigDecimal amount, boolean flag,
            Mode mode, UUID id, Instant at, String[] words, List<String> lines, Set<Integer> unique,
            Map<String, Inner> byName, Optional<Inner> maybe, List<List<Double>> matrix, Object anything) {
    }

    private final SchemaCheck check = new SchemaCheck();

    @Test
    void generatedSchemasAreValidAgainstTheMetaSchema() {
        JsonNode schema = Json.MAPPER.valueToTree(RecordSchemas.of(Everything.class));
        check.compile(schema, "generated"); // throws with the meta-schema's complaint
        check.compile(Json.MAPPER.valueToTree(RecordSchemas.of(Inner.class)), "generated");
    }

    @Test
    void aGeneratedSchemaCompilesOnceAtItsFirstUseAndThenValidates() {
        Supplier<Schema> lazy = check.generated(Json.MAPPER.valueToTree(RecordSchemas.of(Inner.class)));
        Schema first = lazy.get();
        assertEquals(first, lazy.get(), "compiled once");
        assertTrue(first.validate(Json.MAPPER.readTree("{\"count\":2}")).isEmpty());
        assertEquals(1, first.validate(Json.MAPPER.readTree("{\"count\":\"two\"}")).size());
    }
    @Test
    void aSchemaWhoseReferencesDoubleAtEveryLevelIsRefusedAtRegistration() {
        // an upstream server listed one: validating a call's arguments took 70 s and then the heap
        StringBuilder defs = new StringBuilder();
        for (int i = 0; i < 30; i++) {
            defs.append("\"d").append(i).append("\":{\"allOf\":[{\"$ref\":\"#/$defs/d").append(i + 1)
                    .append("\"},{\"$ref\":\"#/$defs/d").append(i + 1).append("\"}]},");
        }
        defs.append("\"d30\":{\"type\":\"string\"}");
        JsonNode bomb = Json.MAPPER.readTree("{\"type\":\"object\",\"properties\":{\"s\":{\"$ref\":\"#/$defs/d0\"}},"
                + "\"$defs\":{" + defs + "}}");
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                () -> check.compile(bomb, "tool bomb: inputSchema"));
        assertTrue(refused.getMessage().contains("too complex"), refused.getMessage());
        // the same by anchors, by escaped pointers, and by a subschema's $id: the validator resolves them all
        for (String spelling : List.of("anchor", "escaped", "id")) {
            StringBuilder other = new StringBuilder();
            for (int i = 0; i <= 30; i++) {
                String next = switch (spelling) {
                    case "anchor" -> "#a" + (i + 1);
                    case "escaped" -> "#/%24defs/d" + (i + 1);
                    default -> "urn:quiver:d" + (i + 1);
                };
                String self = switch (spelling) {
                    case "anchor" -> "\"$anchor\":\"a" + i + "\",";
                    case "id" -> "\"$id\":\"urn:quiver:d" + i + "\",";
                    default -> "";
                };
                other.append(i == 0 ? "" : ",").append("\"d").append(i).append("\":{").append(self)
                        .append(i == 30 ? "\"type\":\"string\"}" : "\"allOf\":[{\"$ref\":\"" + next + "\"},{\"$ref\":\""
                                + next + "\"}]}");
            }
            String first = spelling.equals("anchor") ? "#a0" : spelling.equals("escaped") ? "#/%24defs/d0" : "urn:quiver:d0";
            JsonNode again = Json.MAPPER.readTree("{\"type\":\"object\",\"properties\":{\"s\":{\"$ref\":\"" + first
                    + "\"}},\"$defs\":{" + other + "}}");
            assertTrue(SchemaCheck.expanded(again) > SchemaCheck.MAX_EXPANDED, spelling);
        }

        // a recursive schema (a tree) and a large flat one are fine
        check.compile(Json.MAPPER.readTree("{\"type\":\"object\",\"properties\":{\"node\":{\"$ref\":\"#/$defs/n\"}},"
                + "\"$defs\":{\"n\":{\"type\":\"object\",\"properties\":{\"kids\":{\"type\":\"array\","
                + "\"items\":{\"$ref\":\"#/$defs/n\"}}}}}}"), "tree");
        StringBuilder wide = new StringBuilder("{\"type\":\"object\",\"properties\":{");
        for (int i = 0; i < 2000; i++) {
            wide.append(i == 0 ? "" : ",").append("\"p").append(i).append("\":{\"type\":\"string\",\"maxLength\":9}");
        }
        check.compile(Json.MAPPER.readTree(wide + "}}"), "wide");
    }
}
