package io.quiver.core.internal.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quiver.api.Outcome;
import io.quiver.api.call.CallEvent;
import io.quiver.api.content.TextContent;
import io.quiver.core.internal.messages.CallToolResult;
import io.quiver.core.internal.settings.EngineSettings;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class ToolAttemptsTest {

    private final Stages stages = new Stages().listening();
    private final ExecutorService pool = Executors.newCachedThreadPool();
    private final EngineSettings settings = EngineSettings.of(Map.of("maxOutputBytes", 8));
    private final ToolLimitsRegistry limits = new ToolLimitsRegistry();
    private final ToolAttempts attempts = new ToolAttempts(new Execute(pool, settings, limits),
            new BoundOutput(settings, limits));
    private final List<Boolean> seen = new CopyOnWriteArrayList<>();

    @AfterEach
    void stop() {
        pool.shutdownNow();
    }

    /** Escalates unless escalated; then answers. */
    private void escalating() {
        stages.tool("long", call -> {
            seen.add(call.escalated());
            return call.escalated() ? Outcome.text("finished") : Outcome.escalate();
        }, null);
    }

    private static String text(AttemptLoop.Attempt attempt) {
        CallToolResult result = (CallToolResult) ((AttemptLoop.Attempt.Done) attempt).result();
        return ((TextContent) result.content().get(0)).text();
    }

    @Test
    void whereATaskMayTakeOverAnEscalationEndsTheLoop() throws Exception {
        escalating();
        AttemptLoop.Attempt attempt = attempts.runner(stages.resolved("long", "{}"), false, true).run(Map.of());
        assertInstanceOf(AttemptLoop.Attempt.Escalate.class, attempt);
        assertEquals(List.of(false), seen);
    }

    @Test
    void elsewhereTheToolIsCalledAgainAtOnceAsEscalated() throws Exception {
        escalating();
        Call call = stages.resolved("long", "{}");
        assertEquals("finished", text(attempts.runner(call, false, false).run(Map.of())));
        assertEquals(List.of(false, true), seen);
        CallEvent event = stages.over(call);
        assertEquals("escalate", event.decisions().get(0).stage());
        assertEquals(CallEvent.Ending.COMPLETED, event.ending());
    }

    @Test
    void aToolThatEscalatesTwiceFails() throws Exception {
        stages.tool("loops", call -> Outcome.escalate(), null);
        Call call = stages.resolved("loops", "{}");
        AttemptLoop.Attempt attempt = attempts.runner(call, false, false).run(Map.of());
        assertTrue(((CallToolResult) ((AttemptLoop.Attempt.Done) attempt).result()).isError());
        assertEquals("the tool escalated a call that was already escalated", stages.over(call).detail());
    }

    @Test
    void aDoneResultIsBoundedBeforeItLeavesTheStage() throws Exception {
        stages.tool("chatty", call -> Outcome.text("0123456789abcdef"), null);
        String text = text(attempts.runner(stages.resolved("chatty", "{}"), false, false).run(Map.of()));
        assertTrue(text.startsWith("01234567"), text);
        assertTrue(!text.contains("abcdef"), text);
    }
}
