package io.quiver.tools.conformance.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

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

/**
 * The 2026-07-28 multi-round-trip fixtures: each attempt sees every answer so far and either asks
 * for what is still missing or finishes.
 */
class InputRequiredToolsTest {

    private static final InputResponse.Sampled PARIS =
            new InputResponse.Sampled("assistant", new TextContent("The capital of France is Paris."), "test-model", "endTurn");
    private static final InputResponse.RootList ROOTS =
            new InputResponse.RootList(List.of(new InputResponse.Root("file:///test/root", "Test Root")));

    private static List<InputRequest> asked(Tool tool, FakeToolCall call) throws Exception {
        return assertInstanceOf(Outcome.NeedsInput.class, tool.call(call)).requests();
    }

    private static InputRequest.Elicitation onlyElicitation(Tool tool, FakeToolCall call) throws Exception {
        List<InputRequest> requests = asked(tool, call);
        assertEquals(1, requests.size());
        return assertInstanceOf(InputRequest.Elicitation.class, requests.get(0));
    }

    private static String finished(Tool tool, FakeToolCall call) throws Exception {
        ToolResult result = assertInstanceOf(Outcome.Done.class, tool.call(call)).result();
        assertFalse(result.isError());
        return assertInstanceOf(TextContent.class, result.content().get(0)).text();
    }

    private static InputResponse.Elicited accept(String field, Object value) {
        return new InputResponse.Elicited("accept", Map.of(field, value));
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> properties(InputRequest.Elicitation elicitation) {
        assertEquals("object", elicitation.requestedSchema().get("type"));
        return (Map<String, Object>) elicitation.requestedSchema().get("properties");
    }

    private static List<String> keys(List<InputRequest> requests) {
        return requests.stream().map(InputRequest::key).toList();
    }

    @Test
    void multiRoundAsksForTheNameThenTheColorThenAnswers() throws Exception {
        Tool tool = new InputRequiredMultiRoundTool();
        FakeToolCall round1 = FakeToolCall.of("test_input_required_result_multi_round", Map.of());

        InputRequest.Elicitation step1 = onlyElicitation(tool, round1);
        assertEquals("step1", step1.key());
        assertEquals("Step 1: What is your name?", step1.message());
        assertEquals(List.of("name"), List.copyOf(properties(step1).keySet()));

        FakeToolCall round2 = round1.answered("step1", accept("name", "Alice"));
        InputRequest.Elicitation step2 = onlyElicitation(tool, round2);
        assertEquals("step2", step2.key());
        assertEquals("Step 2: What is your favorite color?", step2.message());
        assertEquals(List.of("color"), List.copyOf(properties(step2).keySet()));

        FakeToolCall round3 = round2.answered("step2", accept("color", "blue"));
        assertEquals("Hello, Alice! Your favorite color is blue.", finished(tool, round3));
    }

    @Test
    void multiRoundAsksForStepOneAgainWhenOnlyAnUnrelatedAnswerCame() throws Exception {
        FakeToolCall call = FakeToolCall.of("test_input_required_result_multi_round", Map.of())
                .answered("step2", accept("color", "blue"));
        assertEquals("step1", onlyElicitation(new InputRequiredMultiRoundTool(), call).key());
    }

    @Test
    void multiRoundStopsWhenTheUserDeclines() throws Exception {
        FakeToolCall call = FakeToolCall.of("test_input_required_result_multi_round", Map.of())
                .answered("step1", new InputResponse.Elicited("decline", null));
        assertEquals("Questions declined", finished(new InputRequiredMultiRoundTool(), call));
    }

    @Test
    void capabilitiesToolAsksOnlyForSamplingWhenTheClientDeclaredOnlySampling() throws Exception {
        Tool tool = new InputRequiredCapabilitiesTool();
        FakeToolCall first = FakeToolCall.of("test_input_required_result_capabilities", Map.of())
                .withCapabilities(Map.of("sampling", Map.of()));

        List<InputRequest> requests = asked(tool, first);
        assertEquals(1, requests.size());
        InputRequest.Sampling sampling = assertInstanceOf(InputRequest.Sampling.class, requests.get(0));
        assertEquals("sample_input", sampling.key());
        assertEquals(new TextContent("Sample request"), sampling.messages().get(0).content());

        assertEquals("capabilities-ok: received sample_input", finished(tool, first.answered("sample_input", PARIS)));
    }

    @Test
    void capabilitiesToolAsksForEveryDeclaredKindAndAnswersPlainlyWhenNoneIsDeclared() throws Exception {
        Tool tool = new InputRequiredCapabilitiesTool();
        List<InputRequest> both = asked(tool, FakeToolCall.of("t", Map.of())
                .withCapabilities(Map.of("elicitation", Map.of(), "sampling", Map.of(), "roots", Map.of())));
        assertEquals(List.of("elicit_input", "sample_input"), keys(both));
        assertInstanceOf(InputRequest.Elicitation.class, both.get(0));
        assertInstanceOf(InputRequest.Sampling.class, both.get(1));

        List<InputRequest> elicitationOnly = asked(tool, FakeToolCall.of("t", Map.of())
                .withCapabilities(Map.of("elicitation", Map.of())));
        assertEquals(List.of("elicit_input"), keys(elicitationOnly));

        assertEquals("No supported input capabilities declared",
                finished(tool, FakeToolCall.of("t", Map.of()).withCapabilities(Map.of())));
    }

    @Test
    void elicitationAsksForTheNameUnderUserNameAndGreets() throws Exception {
        Tool tool = new InputRequiredElicitationTool();
        FakeToolCall first = FakeToolCall.of("test_input_required_result_elicitation", Map.of());
        InputRequest.Elicitation asked = onlyElicitation(tool, first);
        assertEquals("user_name", asked.key());
        assertEquals(List.of("name"), List.copyOf(properties(asked).keySet()));
        assertEquals(List.of("name"), asked.requestedSchema().get("required"));

        assertEquals("Hello, Alice!", finished(tool, first.answered("user_name", accept("name", "Alice"))));
    }

    @Test
    void elicitationIgnoresExtraAnswersAndReAsksForAMissingOrUnusableOne() throws Exception {
        Tool tool = new InputRequiredElicitationTool();
        FakeToolCall extra = FakeToolCall.of("t", Map.of())
                .answered("user_name", accept("name", "Alice"))
                .answered("unknown_extra_key", accept("data", "x"));
        assertEquals("Hello, Alice!", finished(tool, extra));

        FakeToolCall wrongKey = FakeToolCall.of("t", Map.of()).answered("wrong_key", accept("data", "wrong"));
        assertEquals("user_name", onlyElicitation(tool, wrongKey).key());

        FakeToolCall wrongKind = FakeToolCall.of("t", Map.of()).answered("user_name", PARIS);
        assertEquals("user_name", onlyElicitation(tool, wrongKind).key());

        FakeToolCall noName = FakeToolCall.of("t", Map.of()).answered("user_name", accept("nickname", "Al"));
        assertEquals("user_name", onlyElicitation(tool, noName).key());
    }

    @Test
    void requestStateAsksForAConfirmationAndSaysStateOk() throws Exception {
        Tool tool = new InputRequiredRequestStateTool();
        FakeToolCall first = FakeToolCall.of("test_input_required_result_request_state", Map.of());
        InputRequest.Elicitation asked = onlyElicitation(tool, first);
        assertEquals("confirm", asked.key());
        assertEquals("Please confirm", asked.message());
        assertEquals("boolean", ((Map<?, ?>) properties(asked).get("ok")).get("type"));

        assertEquals("state-ok: confirmed=true", finished(tool, first.answered("confirm", accept("ok", true))));
    }

    @Test
    void tamperedStateFixtureAsksTheSameConfirmation() throws Exception {
        Tool tool = new InputRequiredTamperedStateTool();
        FakeToolCall first = FakeToolCall.of("test_input_required_result_tampered_state", Map.of());
        assertEquals(InputRequiredRequestStateTool.CONFIRM, onlyElicitation(tool, first));
        assertEquals("state-verified: confirmed=true", finished(tool, first.answered("confirm", accept("ok", true))));
    }

    @Test
    void multipleInputsAsksForAllThreeThenOnlyForWhatIsMissing() throws Exception {
        Tool tool = new InputRequiredMultipleInputsTool();
        FakeToolCall first = FakeToolCall.of("test_input_required_result_multiple_inputs", Map.of());
        List<InputRequest> all = asked(tool, first);
        assertEquals(List.of("user_name", "greeting", "client_roots"), keys(all));
        assertInstanceOf(InputRequest.Elicitation.class, all.get(0));
        assertInstanceOf(InputRequest.Sampling.class, all.get(1));
        assertInstanceOf(InputRequest.Roots.class, all.get(2));

        FakeToolCall partly = first.answered("user_name", accept("name", "Alice")).answered("greeting", PARIS);
        assertEquals(List.of("client_roots"), keys(asked(tool, partly)));

        assertEquals("Hello, Alice! Greeting: The capital of France is Paris.. Roots: file:///test/root.",
                finished(tool, partly.answered("client_roots", ROOTS)));
    }

    @Test
    void samplingAsksTheCapitalQuestion() throws Exception {
        Tool tool = new InputRequiredSamplingTool();
        FakeToolCall first = FakeToolCall.of("test_input_required_result_sampling", Map.of());
        List<InputRequest> requests = asked(tool, first);
        InputRequest.Sampling sampling = assertInstanceOf(InputRequest.Sampling.class, requests.get(0));
        assertEquals("capital_question", sampling.key());
        assertEquals("user", sampling.messages().get(0).role());
        assertEquals("Sampling result: The capital of France is Paris.",
                finished(tool, first.answered("capital_question", PARIS)));
    }

    @Test
    void listRootsAsksUnderClientRoots() throws Exception {
        Tool tool = new InputRequiredListRootsTool();
        FakeToolCall first = FakeToolCall.of("test_input_required_result_list_roots", Map.of());
        assertEquals(List.of(new InputRequest.Roots("client_roots")), asked(tool, first));
        assertEquals("Client roots: file:///test/root", finished(tool, first.answered("client_roots", ROOTS)));
    }

    @Test
    void missingCapabilityToolAlwaysAsksForSampling() throws Exception {
        Tool tool = new MissingCapabilityTool();
        FakeToolCall noCapabilities = FakeToolCall.of("test_missing_capability", Map.of()).withCapabilities(Map.of());
        List<InputRequest> requests = asked(tool, noCapabilities);
        assertEquals(1, requests.size());
        InputRequest.Sampling sampling = assertInstanceOf(InputRequest.Sampling.class, requests.get(0));
        assertEquals("Success", finished(tool, noCapabilities.answered(sampling.key(), PARIS)));
    }

    @Test
    void streamingElicitationAsksThenCompletes() throws Exception {
        Tool tool = new StreamingElicitationTool();
        FakeToolCall first = FakeToolCall.of("test_streaming_elicitation", Map.of())
                .withCapabilities(Map.of("elicitation", Map.of()));
        InputRequest.Elicitation asked = onlyElicitation(tool, first);
        assertEquals("Streaming complete", finished(tool, first.answered(asked.key(), accept("proceed", true))));
    }

    @Test
    void toolWithTaskAsksForTheNameThenEscalatesAndFinishesAsTheTask() throws Exception {
        Tool tool = new ToolWithTask();
        FakeToolCall first = FakeToolCall.of("test_tool_with_task", Map.of());
        assertEquals("user_name", onlyElicitation(tool, first).key());
        FakeToolCall answered = first.answered("user_name", accept("name", "Ada"));
        assertInstanceOf(Outcome.Escalate.class, tool.call(answered));
        assertEquals("Task finished for Ada", finished(tool, answered.escalation()));
    }
}
