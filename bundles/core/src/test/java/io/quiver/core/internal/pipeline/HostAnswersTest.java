package io.quiver.core.internal.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quiver.api.Outcome;
import io.quiver.api.call.Admission;
import io.quiver.api.call.HostChannel;
import io.quiver.api.call.Invocation;
import io.quiver.api.input.InputRequest;
import io.quiver.api.input.InputResponse;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class HostAnswersTest {

    private static final Map<String, Object> FORM = Map.of("type", "object",
            "properties", Map.of("count", Map.of("type", "integer")), "required", List.of("count"));
    private static final InputRequest.Elicitation QUESTION = new InputRequest.Elicitation("how_many", "How many?", FORM);

    private final Stages stages = new Stages().tool("t", call -> Outcome.text("ran"), null);
    private final AtomicInteger asked = new AtomicInteger();

    @Test
    void aHostThatThrowsFailsTheCallAndTheQuestionIsNotLeftToTheClient() {
        // the question may be meant for the host's user alone: a failing host must not hand it to the remote client
        Call call = hosted(List.of());
        HostWait.Failed failed = assertThrows(HostWait.Failed.class,
                () -> new HostAnswers(stages.hostWait).of(call).apply(QUESTION));
        assertTrue(failed.getMessage().contains("failed to answer how_many"), failed.getMessage());
    }

    private Call hosted(List<InputResponse> answers) {
        stages.extensions.addHost(new HostChannel() {
            @Override
            public Admission admit(Invocation invocation) {
                return Admission.approve();
            }

            @Override
            public Optional<InputResponse> answer(Invocation invocation, InputRequest request) {
                if (answers.isEmpty()) {
                    throw new IllegalStateException("the host's user interface is gone");
                }
                return Optional.of(answers.get(Math.min(asked.getAndIncrement(), answers.size() - 1)));
            }
        }, 0, 1);
        Call call = stages.resolved("t", "{}");
        new Admit(stages.extensions, new Validate(), stages.hostWait).admit(call);
        return call;
    }

    @Test
    void anAnswerThatFitsTheFormIsTakenAtOnce() {
        Call call = hosted(List.of(new InputResponse.Elicited("accept", Map.of("count", 3))));
        Optional<InputResponse> answer = new HostAnswers(stages.hostWait).of(call).apply(QUESTION);
        assertEquals(Map.of("count", 3), ((InputResponse.Elicited) answer.orElseThrow()).content());
        assertEquals(1, asked.get());
    }

    @Test
    void anAnswerThatDoesNotFitIsAskedAgainAndASecondMisfitFailsTheCall() {
        Call call = hosted(List.of(new InputResponse.Elicited("accept", Map.of("count", "many")),
                new InputResponse.Elicited("accept", Map.of("count", 4))));
        Optional<InputResponse> answer = new HostAnswers(stages.hostWait).of(call).apply(QUESTION);
        assertEquals(Map.of("count", 4), ((InputResponse.Elicited) answer.orElseThrow()).content());
        assertEquals(2, asked.get());

        asked.set(0);
        Stages other = new Stages();
        Call failing = hosted(List.of(new InputResponse.Elicited("accept", Map.of())));
        HostWait.Failed failed = assertThrows(HostWait.Failed.class,
                () -> new HostAnswers(stages.hostWait).of(failing).apply(QUESTION));
        assertTrue(failed.getMessage().contains("how_many"), failed.getMessage());
        assertEquals(2, asked.get());
        assertNull(other.extensions.host());
    }

    @Test
    void aDeclineNeedsNoFieldsAndAnUnknownActionDoesNotFit() {
        assertNull(HostAnswers.misfit(QUESTION, new InputResponse.Elicited("decline", Map.of())));
        assertTrue(HostAnswers.misfit(QUESTION, new InputResponse.Elicited("maybe", Map.of())) != null);
    }
}
