package io.quiver.lib.external;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quiver.api.Outcome;
import io.quiver.api.ToolResult;
import io.quiver.api.content.TextContent;
import io.quiver.api.input.InputRequest;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The envelope's shapes (the upstream bundle's EnvelopeTest covers them through its tools as well). */
class OutcomeEnvelopeTest {

    private static ToolResult done(Outcome o) {
        return assertInstanceOf(Outcome.Done.class, o).result();
    }

    @Test
    void notAnEnvelopeIsNull() {
        assertNull(OutcomeEnvelope.read("plain text", false, "The command"));
        assertNull(OutcomeEnvelope.read("{\"outcome\": \"done\"}", false, "The command"));
        assertNull(OutcomeEnvelope.read("{\"io.quiver/outcome\": \"done\"", false, "The command"), "not JSON");
        assertNull(OutcomeEnvelope.read("[\"io.quiver/outcome\"]", false, "The command"));
    }

    @Test
    void theThreeOutcomes() {
        ToolResult ok = done(OutcomeEnvelope.read("  {\"io.quiver/outcome\": \"done\", \"content\": \"fine\","
                + " \"structuredContent\": {\"n\": 1}}\n", false, "The command"));
        assertEquals("fine", ((TextContent) ok.content().get(0)).text());
        assertEquals(Map.of("n", 1), ok.structuredContent());
        ToolResult error = done(OutcomeEnvelope.read("{\"io.quiver/outcome\": \"error\", \"message\": \"no\"}", false, "X"));
        assertTrue(error.isError());
        Outcome.NeedsInput asks = assertInstanceOf(Outcome.NeedsInput.class, OutcomeEnvelope.read(
                "{\"io.quiver/outcome\": \"needs_input\", \"requests\": [{\"key\": \"k\", \"message\": \"m\"}]}", false, "X"));
        InputRequest.Elicitation e = (InputRequest.Elicitation) asks.requests().get(0);
        assertEquals(List.of("answer"), e.requestedSchema().get("required"));
    }

    @Test
    void aFailureWinsAndMessagesNameTheAuthor() {
        ToolResult failed = done(OutcomeEnvelope.read("{\"io.quiver/outcome\": \"done\"}", true, "The command"));
        assertTrue(failed.isError());
        assertEquals("The command failed.", ((TextContent) failed.content().get(0)).text());
        ToolResult bad = done(OutcomeEnvelope.read("{\"io.quiver/outcome\": \"maybe\"}", false, "The command"));
        assertTrue(((TextContent) bad.content().get(0)).text().startsWith("The command answered with a Quiver outcome"
                + " envelope that is not valid: "), bad.toString());
    }
}
