package io.quiver.examples.greeting;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quiver.api.Outcome;
import io.quiver.api.ToolResult;
import io.quiver.api.content.TextContent;
import io.quiver.api.input.InputRequest;
import io.quiver.api.input.InputResponse;
import io.quiver.api.schema.RecordSchemas;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The tool without a server: {@code new} it and call it with a fake call. */
class GreetToolTest {

    private final GreetTool tool = new GreetTool();

    private static ToolResult done(Outcome outcome) {
        return assertInstanceOf(Outcome.Done.class, outcome).result();
    }

    private static Greeting greeting(Outcome outcome) {
        ToolResult result = done(outcome);
        assertFalse(result.isError());
        return assertInstanceOf(Greeting.class, result.structuredContent());
    }

    private static String text(ToolResult result) {
        return assertInstanceOf(TextContent.class, result.content().get(0)).text();
    }

    @Test
    void greetsInEnglishByDefault() {
        assertEquals(new Greeting("Hello, Ada!", Language.ENGLISH),
                greeting(tool.call(FakeToolCall.first(GreetingArgs.of("Ada")))));
    }

    @Test
    void greetsInTheLanguageAskedFor() {
        GreetingArgs args = new GreetingArgs(Optional.of(" Grace "), Optional.of(Language.GERMAN));
        assertEquals(new Greeting("Hallo, Grace!", Language.GERMAN), greeting(tool.call(FakeToolCall.first(args))));
    }

    @Test
    void everyLanguageHasAGreeting() {
        for (Language language : Language.values()) {
            Greeting g = greeting(tool.call(FakeToolCall.first(new GreetingArgs(Optional.of("Linus"), Optional.of(language)))));
            assertTrue(g.text().contains("Linus"), g.text());
        }
    }

    @Test
    void withoutANameItAsksTheUser() {
        Outcome outcome = tool.call(FakeToolCall.first(new GreetingArgs(Optional.empty(), Optional.empty())));
        InputRequest request = assertInstanceOf(Outcome.NeedsInput.class, outcome).requests().get(0);
        InputRequest.Elicitation form = assertInstanceOf(InputRequest.Elicitation.class, request);
        assertEquals(GreetTool.ASK_NAME, form.key());
        assertEquals(List.of("name"), form.requestedSchema().get("required"));
    }

    @Test
    void theNextAttemptUsesTheAnswer() {
        Map<String, InputResponse> answers = Map.of(GreetTool.ASK_NAME,
                new InputResponse.Elicited("accept", Map.of("name", "Margaret")));
        GreetingArgs args = new GreetingArgs(Optional.empty(), Optional.of(Language.FRENCH));
        assertEquals(new Greeting("Bonjour, Margaret !", Language.FRENCH),
                greeting(tool.call(new FakeToolCall(args, answers, FakeToolCall.WITH_ELICITATION))));
    }

    @Test
    void aDeclinedQuestionEndsTheCall() {
        Map<String, InputResponse> answers = Map.of(GreetTool.ASK_NAME, new InputResponse.Elicited("decline", null));
        ToolResult result = done(tool.call(new FakeToolCall(new GreetingArgs(Optional.empty(), Optional.empty()),
                answers, FakeToolCall.WITH_ELICITATION)));
        assertFalse(result.isError());
        assertEquals("Nobody to greet: the user gave no name.", text(result));
    }

    @Test
    void aClientThatCannotBeAskedGetsAnErrorTheModelCanRead() {
        ToolResult result = done(tool.call(new FakeToolCall(new GreetingArgs(Optional.of(" "), Optional.empty()),
                Map.of(), FakeToolCall.PLAIN)));
        assertTrue(result.isError());
        assertNull(result.structuredContent());
        assertTrue(text(result).contains("with a name"), text(result));
    }

    /** What the model sees as the tool's input schema. */
    @Test
    void theInputSchemaComesFromTheRecord() {
        Map<String, Object> schema = RecordSchemas.of(GreetingArgs.class);
        assertEquals("object", schema.get("type"));
        assertNull(schema.get("required"), "both arguments are optional");
        assertEquals(Boolean.FALSE, schema.get("additionalProperties"));
        @SuppressWarnings("unchecked")
        Map<String, Object> language = (Map<String, Object>) ((Map<String, Object>) schema.get("properties")).get("language");
        assertEquals(List.of("ENGLISH", "GERMAN", "FRENCH", "SPANISH"), language.get("enum"));
        assertEquals("The language of the greeting (default ENGLISH).", language.get("description"));
    }

    @Test
    void theOutputSchemaComesFromTheRecord() {
        Map<String, Object> schema = RecordSchemas.of(Greeting.class);
        assertEquals(List.of("text", "language"), schema.get("required"));
        assertEquals("A greeting", schema.get("description"));
    }

    @Test
    void aPhrasebookWithoutEveryLanguageIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> new Phrasebook(Map.of(Language.ENGLISH, "Hi {name}")));
    }
}
