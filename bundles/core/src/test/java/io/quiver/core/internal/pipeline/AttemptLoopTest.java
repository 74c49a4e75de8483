package io.quiver.core.internal.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.quiver.api.input.InputRequest;
import io.quiver.api.input.InputResponse;
import io.quiver.core.internal.messages.CallToolResult;
import io.quiver.core.internal.messages.Result;
import io.quiver.core.internal.rpc.McpException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class AttemptLoopTest {

    private static final InputResponse YES = new InputResponse.Elicited("accept", Map.of("ok", true));
    private static final CallToolResult DONE = CallToolResult.error("done");
    private static final CallToolResult PARKED = CallToolResult.error("parked");

    /** A source that answers every request at once, or parks when told to. */
    private static final class Answers implements AttemptLoop.Source {
        final Map<String, InputResponse> answers = new HashMap<>();
        final List<String> asked = new ArrayList<>();
        boolean park;

        @Override
        public Map<String, InputResponse> answers() {
            return Map.copyOf(answers);
        }

        @Override
        public void accept(String key, InputResponse answer) {
            answers.put(key, answer);
        }

        @Override
        public Optional<Result> obtain(List<InputRequest> missing) {
            missing.forEach(r -> asked.add(r.key()));
            if (park) {
                return Optional.of(PARKED);
            }
            missing.forEach(r -> answers.put(r.key(), YES));
            return Optional.empty();
        }
    }

    private static InputRequest ask(String key) {
        return new InputRequest.Elicitation(key, "?", Map.of("type", "object"));
    }

    /** Needs the keys one round each, in order, then is done. */
    private static AttemptLoop.Runner needing(String... keys) {
        return answers -> {
            for (String key : keys) {
                if (!answers.containsKey(key)) {
                    return new AttemptLoop.Attempt.Needs(List.of(ask(key)));
                }
            }
            return new AttemptLoop.Attempt.Done(DONE);
        };
    }

    @Test
    void anAttemptThatIsDoneEndsTheLoop() throws Exception {
        AttemptLoop.End end = AttemptLoop.run(needing(), new Answers(), null, 3);
        assertSame(DONE, ((AttemptLoop.End.Done) end).result());
    }

    @Test
    void eachRoundAsksOnlyWhatIsMissingAndRunsAgainWithEveryAnswer() throws Exception {
        Answers source = new Answers();
        AttemptLoop.End end = AttemptLoop.run(needing("a", "b"), source, null, 3);
        assertInstanceOf(AttemptLoop.End.Done.class, end);
        assertEquals(List.of("a", "b"), source.asked);
    }

    @Test
    void theHostAnswersFirstAndTheSourceIsAskedOnlyForTheRest() throws Exception {
        Answers source = new Answers();
        AttemptLoop.End end = AttemptLoop.run(needing("host", "client"), source,
                request -> request.key().equals("host") ? Optional.of(YES) : Optional.empty(), 3);
        assertInstanceOf(AttemptLoop.End.Done.class, end);
        assertEquals(List.of("client"), source.asked);
    }

    @Test
    void aSourceThatParksEndsTheLoopWithItsAnswerForNow() throws Exception {
        Answers source = new Answers();
        source.park = true;
        AttemptLoop.End end = AttemptLoop.run(needing("a"), source, null, 3);
        assertSame(PARKED, ((AttemptLoop.End.Parked) end).result());
    }

    @Test
    void anEscalationHandsOnTheAnswersSoFar() throws Exception {
        Answers source = new Answers();
        AttemptLoop.End end = AttemptLoop.run(answers -> answers.containsKey("a")
                ? new AttemptLoop.Attempt.Escalate() : new AttemptLoop.Attempt.Needs(List.of(ask("a"))), source, null, 3);
        assertEquals(Map.of("a", YES), ((AttemptLoop.End.Escalated) end).answers());
    }

    @Test
    void aToolThatNeverStopsAskingIsStoppedAfterTheMaximumRounds() {
        int[] round = {0};
        Answers source = new Answers();
        McpException e = assertThrows(McpException.class, () -> AttemptLoop.run(
                answers -> new AttemptLoop.Attempt.Needs(List.of(ask("r" + round[0]++))), source, null, 2));
        assertEquals("Input was requested more than 2 times", e.getMessage());
        assertEquals(3, source.asked.size());
    }
}
