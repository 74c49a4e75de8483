package io.quiver.tools.conformance.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quiver.api.Outcome;
import io.quiver.api.Tool;
import io.quiver.api.ToolResult;
import io.quiver.api.content.TextContent;
import io.quiver.api.input.InputRequest;
import io.quiver.api.input.InputResponse;
import io.quiver.testing.FakeToolCall;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The tools that ask: a first attempt that needs input, a second that finishes with the answer. */
class InputToolsTest {

    private static InputRequest onlyRequest(Tool tool, FakeToolCall call) throws Exception {
        Outcome.NeedsInput needs = assertInstanceOf(Outcome.NeedsInput.class, tool.call(call));
        assertEquals(1, needs.requests().size());
        return needs.requests().get(0);
    }

    private static String finishedText(Tool tool, FakeToolCall call) throws Exception {
        ToolResult result = assertInstanceOf(Outcome.Done.class, tool.call(call)).result();
        assertFalse(result.isError());
        return assertInstanceOf(TextContent.class, result.content().get(0)).text();
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> properties(InputRequest.Elicitation elicitation) {
        assertEquals("object", elicitation.requestedSchema().get("type"));
        return (Map<String, Object>) elicitation.requestedSchema().get("properties");
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Object value) {
        return (Map<String, Object>) value;
    }

    @Test
    void elicitationAsksForUsernameAndEmailThenReportsTheAnswer() throws Exception {
        ElicitationTool tool = new ElicitationTool();
        FakeToolCall first = FakeToolCall.of("test_elicitation", Map.of("message", "Please provide your information"));

        InputRequest.Elicitation asked = assertInstanceOf(InputRequest.Elicitation.class, onlyRequest(tool, first));
        assertEquals(ElicitationTool.KEY, asked.key());
        assertEquals("Please provide your information", asked.message());
        assertEquals(List.of("username", "email"), List.copyOf(properties(asked).keySet()));
        assertEquals(Map.of("type", "string", "description", "User's email address"), properties(asked).get("email"));
        assertEquals(List.of("username", "email"), asked.requestedSchema().get("required"));

        FakeToolCall second = first.answered(asked.key(), new InputResponse.Elicited("accept",
                Map.of("username", "testuser", "email", "test@example.com")));
        assertEquals("User response: action=accept, content={email=test@example.com, username=testuser}",
                finishedText(tool, second));
    }

    @Test
    void elicitationReportsADecline() throws Exception {
        FakeToolCall call = FakeToolCall.of("test_elicitation", Map.of("message", "m"))
                .answered(ElicitationTool.KEY, new InputResponse.Elicited("decline", null));
        assertEquals("User response: action=decline, content={}", finishedText(new ElicitationTool(), call));
    }

    @Test
    void elicitationRejectsAnAnswerOfTheWrongKind() throws Exception {
        FakeToolCall call = FakeToolCall.of("test_elicitation", Map.of("message", "m"))
                .answered(ElicitationTool.KEY, new InputResponse.RootList(List.of()));
        ToolResult result = assertInstanceOf(Outcome.Done.class, new ElicitationTool().call(call)).result();
        assertTrue(result.isError());
    }

    @Test
    void sep1034FormCarriesADefaultForEveryPrimitiveType() throws Exception {
        ElicitationDefaultsTool tool = new ElicitationDefaultsTool();
        FakeToolCall first = FakeToolCall.of("test_elicitation_sep1034_defaults", Map.of());
        InputRequest.Elicitation asked = assertInstanceOf(InputRequest.Elicitation.class, onlyRequest(tool, first));
        Map<String, Object> properties = properties(asked);

        assertEquals("John Doe", map(properties.get("name")).get("default"));
        assertEquals(Integer.valueOf(30), map(properties.get("age")).get("default"));
        assertEquals("integer", map(properties.get("age")).get("type"));
        assertEquals(Double.valueOf(95.5), map(properties.get("score")).get("default"));
        assertEquals(Boolean.TRUE, map(properties.get("verified")).get("default"));
        Map<String, Object> status = map(properties.get("status"));
        assertTrue(((List<?>) status.get("enum")).contains(status.get("default")));
        assertEquals(List.of(), asked.requestedSchema().get("required"));

        String text = finishedText(tool, first.answered(asked.key(), new InputResponse.Elicited("accept",
                Map.of("name", "Jane Smith", "age", 25, "score", 88, "status", "inactive", "verified", false))));
        assertTrue(text.startsWith("Elicitation completed: action=accept, content={age=25"), text);
    }

    @Test
    void sep1330FormHasTheFiveEnumShapes() throws Exception {
        InputRequest.Elicitation asked = assertInstanceOf(InputRequest.Elicitation.class,
                onlyRequest(new ElicitationEnumsTool(), FakeToolCall.of("test_elicitation_sep1330_enums", Map.of())));
        assertEquals("Please select options from the enum fields", asked.message());
        Map<String, Object> properties = properties(asked);
        assertEquals(List.of("untitledSingle", "titledSingle", "legacyEnum", "untitledMulti", "titledMulti"),
                List.copyOf(properties.keySet()));

        Map<String, Object> untitledSingle = map(properties.get("untitledSingle"));
        assertEquals(List.of("option1", "option2", "option3"), untitledSingle.get("enum"));
        assertFalse(untitledSingle.containsKey("oneOf") || untitledSingle.containsKey("enumNames"));

        Map<String, Object> titledSingle = map(properties.get("titledSingle"));
        assertFalse(titledSingle.containsKey("enum"));
        assertEquals(Map.of("const", "value1", "title", "First Option"), ((List<?>) titledSingle.get("oneOf")).get(0));

        Map<String, Object> legacy = map(properties.get("legacyEnum"));
        assertEquals(((List<?>) legacy.get("enum")).size(), ((List<?>) legacy.get("enumNames")).size());

        Map<String, Object> untitledMulti = map(properties.get("untitledMulti"));
        assertEquals("array", untitledMulti.get("type"));
        assertEquals(1, untitledMulti.get("minItems"));
        assertEquals(3, untitledMulti.get("maxItems"));
        assertFalse(map(untitledMulti.get("items")).containsKey("anyOf"));

        Map<String, Object> titledMultiItems = map(map(properties.get("titledMulti")).get("items"));
        assertFalse(titledMultiItems.containsKey("enum"));
        assertEquals(Map.of("const", "value3", "title", "Third Choice"), ((List<?>) titledMultiItems.get("anyOf")).get(2));
    }

    @Test
    void samplingAsksTheClientModelThenReportsItsAnswer() throws Exception {
        SamplingTool tool = new SamplingTool();
        FakeToolCall first = FakeToolCall.of("test_sampling", Map.of("prompt", "Test prompt for sampling"));

        InputRequest.Sampling asked = assertInstanceOf(InputRequest.Sampling.class, onlyRequest(tool, first));
        assertEquals(100, asked.maxTokens());
        assertEquals(1, asked.messages().size());
        assertEquals("user", asked.messages().get(0).role());
        assertEquals(new TextContent("Test prompt for sampling"), asked.messages().get(0).content());

        FakeToolCall second = first.answered(asked.key(), new InputResponse.Sampled("assistant",
                new TextContent("This is a test response from the client"), "test-model", "endTurn"));
        assertEquals("LLM response: This is a test response from the client", finishedText(tool, second));
    }
}
