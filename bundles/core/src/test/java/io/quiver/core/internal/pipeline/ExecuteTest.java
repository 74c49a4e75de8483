package io.quiver.core.internal.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quiver.api.Outcome;
import io.quiver.api.ProtocolError;
import io.quiver.api.call.CallEvent;
import io.quiver.api.content.TextContent;
import io.quiver.api.input.InputResponse;
import io.quiver.core.internal.rpc.McpException;
import io.quiver.core.internal.settings.EngineSettings;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class ExecuteTest {

    private final Stages stages = new Stages().listening();
    private final ExecutorService pool = Executors.newCachedThreadPool();
    private final Execute execute = new Execute(pool,
            EngineSettings.of(Map.of("toolTimeoutMs", 200, "taskTimeoutMs", 2_000)), new ToolLimitsRegistry());
    private final CountDownLatch interrupted = new CountDownLatch(1);

    @AfterEach
    void stop() {
        pool.shutdownNow();
    }

    private String text(Outcome outcome) {
        return ((TextContent) ((Outcome.Done) outcome).result().content().get(0)).text();
    }

    private Outcome run(Call call) {
        return execute.attempt(call, Map.of(), false, false);
    }

    @Test
    void theToolSeesItsArgumentsAnswersAndWhetherItWasEscalated() {
        stages.tool("t", call -> Outcome.text(call.arguments().get("n") + " "
                + call.answer("k").map(a -> ((InputResponse.Elicited) a).action()).orElse("-") + " " + call.escalated()), null);
        Outcome outcome = execute.attempt(stages.resolved("t", "{\"n\":3}"),
                Map.of("k", new InputResponse.Elicited("cancel", null)), false, true);
        assertEquals("3 cancel true", text(outcome));
    }

    @Test
    void aToolThatOverrunsItsTimeoutIsInterruptedAndTheCallFails() throws Exception {
        stages.tool("slow", call -> {
            try {
                Thread.sleep(10_000);
            } catch (InterruptedException e) {
                interrupted.countDown();
            }
            return Outcome.text("late");
        }, null);
        Call call = stages.resolved("slow", "{}");
        assertEquals("The tool slow timed out after 200 ms.", text(run(call)));
        assertTrue(interrupted.await(5, TimeUnit.SECONDS));
        assertEquals(CallEvent.Ending.FAILED, stages.over(call).ending());
    }

    @Test
    void aTaskAttemptHasTheTaskTimeout() {
        stages.tool("slowish", call -> {
            Thread.sleep(400);
            return Outcome.text("done");
        }, null);
        assertEquals("done", text(execute.attempt(stages.resolved("slowish", "{}"), Map.of(), true, false)));
    }

    @Test
    void aToolThatThrowsFailsWithTheInvocationIdAndNoDetails() {
        stages.tool("boom", call -> {
            throw new IllegalStateException("password=hunter2");
        }, null);
        Call call = stages.resolved("boom", "{}");
        String text = text(run(call));
        assertTrue(text.contains(call.scope().invocationId()), text);
        assertTrue(!text.contains("hunter2"), text);
        CallEvent event = stages.over(call);
        assertEquals(CallEvent.Ending.FAILED, event.ending());
    }

    @Test
    void aToolWithoutAnOutcomeFails() {
        stages.tool("nothing", call -> null, null);
        Call call = stages.resolved("nothing", "{}");
        assertTrue(text(run(call)).startsWith("The tool nothing failed"));
        assertEquals("the tool returned no outcome", stages.over(call).detail());
    }

    @Test
    void aProtocolRefusalIsAProtocolError() {
        stages.tool("refuses", call -> {
            throw new ProtocolError(-32602, "no such region");
        }, null);
        McpException e = assertThrows(McpException.class, () -> run(stages.resolved("refuses", "{}")));
        assertEquals(-32602, e.code());
        assertEquals("no such region", e.getMessage());
    }

    @Test
    void cancellingTheRequestInterruptsTheTool() throws Exception {
        CountDownLatch started = new CountDownLatch(1);
        stages.tool("hold", call -> {
            started.countDown();
            try {
                Thread.sleep(10_000);
            } catch (InterruptedException e) {
                interrupted.countDown();
            }
            return Outcome.text("late");
        }, null);
        Call call = stages.resolved("hold", "{}");
        Thread canceller = new Thread(() -> {
            try {
                started.await();
                call.scope().cancel();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        canceller.start();
        assertThrows(CancellationException.class, () -> execute.attempt(call, Map.of(), true, false));
        assertTrue(interrupted.await(5, TimeUnit.SECONDS));
        canceller.join();
    }
}
