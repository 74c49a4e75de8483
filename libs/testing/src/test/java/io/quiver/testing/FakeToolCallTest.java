package io.quiver.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quiver.api.CallerIdentity;
import io.quiver.api.LogLevel;
import io.quiver.api.input.InputResponse;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The fake call keeps what a test gives it, and its context records what the code under test reports. */
class FakeToolCallTest {

    record Point(int x, int y) {
    }

    @Test
    void aFirstAttemptHasItsArgumentsAndNoAnswers() {
        FakeToolCall call = FakeToolCall.of("t", Map.of("a", 1));
        assertEquals("t", call.name());
        assertEquals(Map.of("a", 1), call.arguments());
        assertEquals(Map.of(), call.answers());
        assertFalse(call.escalated());
        assertFalse(call.context().client().supports("elicitation"));
        assertEquals(CallerIdentity.ANONYMOUS, call.context().caller());
        assertThrows(UnsupportedOperationException.class, () -> call.arguments(Point.class));
        assertEquals(FakeToolCall.NAME, FakeToolCall.of(Map.of()).name());
    }

    @Test
    void aTypedCallHandsOutItsRecord() {
        Point p = new Point(1, 2);
        FakeToolCall call = FakeToolCall.typed(p);
        assertSame(p, call.arguments(Point.class));
        assertEquals(Map.of(), call.arguments());
        assertThrows(ClassCastException.class, () -> call.arguments(String.class));
    }

    @Test
    void laterAttemptsKeepTheContextAndAddAnswers() {
        FakeToolCall first = FakeToolCall.of("t", Map.of());
        InputResponse yes = new InputResponse.Elicited("accept", Map.of());
        FakeToolCall second = first.answered("a", yes).answered("b", yes);
        assertEquals(Map.of("a", yes, "b", yes), second.answers());
        assertSame(first.context(), second.context());
        assertTrue(second.escalation().escalated());
        assertSame(first.context(), second.escalation().context());
    }

    @Test
    void capabilitiesAndCallerMakeANewContext() {
        FakeToolCall first = FakeToolCall.of("t", Map.of());
        FakeToolCall asked = first.withCapabilities(Map.of("roots", Map.of())).withCaller(
                CallerIdentity.ANONYMOUS.in("acme", "site"));
        assertNotSame(first.context(), asked.context());
        assertTrue(asked.context().client().supports("roots"));
        assertEquals("acme", asked.context().caller().tenant());
        assertEquals("site", asked.context().caller().project());
    }

    @Test
    void theRequestMetaIsWhatTheTestGaveAndSurvivesTheOtherChanges() {
        FakeToolCall plain = FakeToolCall.of("t", Map.of());
        assertEquals(Map.of(), plain.context().meta());
        FakeToolCall traced = plain.withMeta(Map.of("trace", "abc", "n", 1))
                .withCaller(CallerIdentity.ANONYMOUS.in("acme", "site"))
                .withCapabilities(Map.of("roots", Map.of()));
        assertEquals(Map.of("trace", "abc", "n", 1), traced.context().meta());
        assertEquals(Map.of(), plain.context().meta());
        assertThrows(UnsupportedOperationException.class, () -> traced.context().meta().put("x", 1));
        assertThrows(NullPointerException.class, () -> plain.withMeta(java.util.Collections.singletonMap("k", null)));
    }

    @Test
    void theContextRecordsReportsAndCancellation() {
        FakeRequestContext context = new FakeRequestContext();
        int[] runs = {0};
        context.onProgress(() -> runs[0]++);
        context.progress(1, 2.0, "half");
        context.progress(2, 2.0, null);
        context.log(LogLevel.INFO, "l", "data");
        assertEquals(2, runs[0]);
        assertEquals(List.of(new FakeRequestContext.Progress(1, 2.0, "half"),
                new FakeRequestContext.Progress(2, 2.0, null)), context.progressReports());
        assertEquals(java.util.Arrays.asList("half", null), context.progressMessages());
        assertEquals(List.of(new FakeRequestContext.Log(LogLevel.INFO, "l", "data")), context.logs());
        assertFalse(context.isCancelled());
        context.cancel();
        assertTrue(context.isCancelled());
    }
}
