package io.quiver.core.internal.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quiver.api.Outcome;
import io.quiver.api.ProtocolError;
import io.quiver.api.call.CallEvent;
import io.quiver.api.content.TextContent;
import io.quiver.api.input.InputResponse;
import io.quiver.core.internal.exec.Watchdog;
import io.quiver.core.internal.messages.CallToolResult;
import io.quiver.core.internal.rpc.McpException;
import io.quiver.core.internal.settings.EngineSettings;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
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
    void aToolThatKeepsFailingCoolsDownAndIsNotRunUntilItHasCooled() {
        AtomicLong now = new AtomicLong(1_000_000);
        Execute cooling = new Execute(pool, EngineSettings.of(Map.of("toolFailuresBeforeCooldown", 3,
                "toolCooldownMs", 30_000)), new ToolLimitsRegistry(), now::get);
        AtomicInteger runs = new AtomicInteger();
        AtomicBoolean broken = new AtomicBoolean(true);
        stages.tool("flaky", call -> {
            runs.incrementAndGet();
            if (broken.get()) {
                throw new IllegalStateException("the backend is down");
            }
            return Outcome.text("fine");
        }, null, Map.of("mcp.tool.troubleshootingHint", "Check that the backend at BACKEND_URL is up."));
        for (int i = 0; i < 3; i++) {
            String failed = text(cooling.attempt(stages.resolved("flaky", "{}"), Map.of(), false, false));
            assertTrue(failed.startsWith("The tool flaky failed"), failed);
            assertTrue(failed.endsWith("Hint: Check that the backend at BACKEND_URL is up."), failed);
        }
        Call refused = stages.resolved("flaky", "{}");
        String cooled = text(cooling.attempt(refused, Map.of(), false, false));
        assertTrue(cooled.contains("cooling down after failing 3 times in a row"), cooled);
        assertTrue(cooled.contains("Try again in 30 s"), cooled);
        assertTrue(cooled.contains("Hint: Check that the backend"), cooled);
        assertEquals(3, runs.get(), "not run while it cools down");
        assertEquals(CallEvent.Ending.FAILED, stages.over(refused).ending());

        now.addAndGet(29_000);
        cooling.attempt(stages.resolved("flaky", "{}"), Map.of(), false, false);
        assertEquals(3, runs.get(), "still cooling");
        now.addAndGet(1_000);
        broken.set(false);
        assertEquals("fine", text(cooling.attempt(stages.resolved("flaky", "{}"), Map.of(), false, false)));
        assertEquals(4, runs.get());
        broken.set(true);
        cooling.attempt(stages.resolved("flaky", "{}"), Map.of(), false, false);
        assertEquals(5, runs.get());
        cooling.attempt(stages.resolved("flaky", "{}"), Map.of(), false, false);
        assertEquals(6, runs.get(), "a success cleared the count: two failures are not yet three");
    }

    @Test
    void zeroFailuresBeforeCooldownNeverCoolsDown() {
        Execute never = new Execute(pool, EngineSettings.of(Map.of("toolFailuresBeforeCooldown", 0)),
                new ToolLimitsRegistry());
        AtomicInteger runs = new AtomicInteger();
        stages.tool("broken", call -> {
            runs.incrementAndGet();
            throw new IllegalStateException("always");
        }, null);
        for (int i = 0; i < 10; i++) {
            never.attempt(stages.resolved("broken", "{}"), Map.of(), false, false);
        }
        assertEquals(10, runs.get());
    }

    record Lines(int head, java.util.List<Integer> more) {
    }

    @Test
    void argumentsThatDoNotFitTheToolsTypesAreTheCallersMistakeNotAFailureOfTheTool() {
        // a patient engine: the first conversion to a record type is slow on a cold JVM
        Execute execute = new Execute(pool, EngineSettings.of(Map.of("toolTimeoutMs", 10_000)), new ToolLimitsRegistry());
        java.util.function.Function<Call, Outcome> run = call -> execute.attempt(call, Map.of(), false, false);
        AtomicInteger converted = new AtomicInteger();
        stages.tool("lines", call -> {
            Lines lines = call.arguments(Lines.class);
            converted.incrementAndGet();
            return Outcome.text(lines.head() + " " + lines.more());
        }, null);
        assertEquals("3 [4]", text(run.apply(stages.resolved("lines", "{\"head\":3,\"more\":[4]}"))));

        Call tooBig = stages.resolved("lines", "{\"head\":3000000000,\"more\":[]}");
        Outcome outcome = run.apply(tooBig);
        assertTrue(((Outcome.Done) outcome).result().isError());
        assertEquals("Invalid arguments for tool lines: /head: the value is out of the range this tool accepts (int)",
                text(outcome));
        assertEquals(CallEvent.Ending.INVALID, stages.over(tooBig).ending());

        Call nested = stages.resolved("lines", "{\"head\":1,\"more\":[1,99999999999]}");
        assertEquals("Invalid arguments for tool lines: /more/1: the value is out of the range this tool accepts (int)",
                text(run.apply(nested)));
        assertEquals(1, converted.get(), "only the fitting call got past the conversion");
        for (int i = 0; i < 5; i++) {
            run.apply(stages.resolved("lines", "{\"head\":3000000000,\"more\":[]}"));
        }
        assertEquals("3 [4]", text(run.apply(stages.resolved("lines", "{\"head\":3,\"more\":[4]}"))),
                "callers' mistakes never cool the tool down");
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
    void anArgumentThatIsNullReachesTheToolAsNull() {
        stages.tool("t", call -> Outcome.text(call.arguments().containsKey("note") + " " + call.arguments().get("note")
                + " " + call.arguments().get("n")), null);
        Call call = stages.resolved("t", "{\"n\":3,\"note\":null}");
        assertEquals("true null 3", text(execute.attempt(call, Map.of(), false, true)));
        assertEquals(CallEvent.Ending.COMPLETED, stages.over(call).ending());
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

    // --- attempts on the serving thread (Exchange.run) --------------------------------------------

    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
    private final Execute inline = new Execute(pool, new Watchdog(timer), pool,
            EngineSettings.of(Map.of("toolTimeoutMs", 200, "taskTimeoutMs", 2_000)), new ToolLimitsRegistry());
    /** What the watchdog answered, and on which thread. */
    private final BlockingQueue<Optional<CallToolResult>> takenOver = new LinkedBlockingQueue<>();

    private Call inlineCall(String tool) {
        Call call = stages.resolved(tool, "{}");
        call.inline(result -> takenOver.add(Optional.ofNullable(result)));
        return call;
    }

    /** A thread that runs the call's attempt inline, as a transport's thread would; what it throws lands in {@code thrown}. */
    private Thread serving(Call call, AtomicReference<Throwable> thrown) {
        return new Thread(() -> {
            try {
                inline.attempt(call, Map.of(), false, false);
            } catch (Throwable e) {
                thrown.set(e);
            }
        });
    }

    @AfterEach
    void stopTimer() {
        timer.shutdownNow();
    }

    @Test
    void anInlineAttemptRunsTheToolOnTheServingThread() {
        AtomicReference<Thread> ranOn = new AtomicReference<>();
        stages.tool("here", call -> {
            ranOn.set(Thread.currentThread());
            return Outcome.text("ok");
        }, null);
        assertEquals("ok", text(inline.attempt(inlineCall("here"), Map.of(), false, false)));
        assertSame(Thread.currentThread(), ranOn.get());
        assertTrue(takenOver.isEmpty());
    }

    @Test
    void anInlineToolThatThrowsAnErrorFailsItsCallAsOnAToolThread() {
        // before, a StackOverflowError left the attempt as a JSON-RPC internal error, the call's ending COMPLETED
        stages.tool("deep", call -> {
            throw new StackOverflowError();
        }, null);
        stages.tool("missing", call -> {
            throw new NoClassDefFoundError("com/example/Optional");
        }, null);
        for (String name : java.util.List.of("deep", "missing")) {
            Call call = inlineCall(name);
            Outcome outcome = inline.attempt(call, Map.of(), false, false);
            assertTrue(((Outcome.Done) outcome).result().isError(), name);
            assertTrue(text(outcome).startsWith("The tool " + name + " failed (invocation "), text(outcome));
            assertEquals(CallEvent.Ending.FAILED, stages.over(call).ending(), name);
        }
    }

    @Test
    void anInlineToolThatStopsWhenInterruptedAtItsTimeoutFailsTheCallOnItsOwnThread() throws Exception {
        stages.tool("slow", call -> {
            try {
                Thread.sleep(10_000);
            } catch (InterruptedException e) {
                interrupted.countDown();
            }
            return Outcome.text("late");
        }, null);
        Call call = inlineCall("slow");
        assertEquals("The tool slow timed out after 200 ms.", text(inline.attempt(call, Map.of(), false, false)));
        assertTrue(interrupted.await(0, TimeUnit.SECONDS));
        assertFalse(Thread.currentThread().isInterrupted(), "the interrupt stays with the tool");
        Thread.sleep(Execute.GRACE_MS * 3);
        assertTrue(takenOver.isEmpty(), "answered once, by the serving thread");
    }

    @Test
    void anInlineToolThatIgnoresItsTimeoutHasItsCallAnsweredWithoutIt() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        stages.tool("stuck", call -> {
            long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (release.getCount() > 0 && System.nanoTime() < until) {
                try {
                    release.await(10, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    interrupted.countDown(); // and goes on regardless
                }
            }
            return Outcome.text("late");
        }, null);
        Call call = inlineCall("stuck");
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        Thread serving = serving(call, thrown);
        long started = System.nanoTime();
        serving.start();
        Optional<CallToolResult> answer = takenOver.poll(5, TimeUnit.SECONDS);
        long tookMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
        assertTrue(answer != null && answer.isPresent(), "the watchdog answered the call");
        assertTrue(answer.get().isError());
        assertTrue(tookMs >= 200 && tookMs < 2_000, "answered at the timeout, not when the tool returned: " + tookMs);
        assertTrue(serving.isAlive(), "the tool still holds its thread");
        assertTrue(interrupted.await(0, TimeUnit.SECONDS));
        release.countDown();
        serving.join(5_000);
        assertTrue(thrown.get() instanceof Execute.TakenOver, String.valueOf(thrown.get()));
        assertEquals(CallEvent.Ending.FAILED, stages.over(call).ending());
    }

    @Test
    void anInlineToolThatIgnoresACancellationHasItsCallEndedWithoutIt() throws Exception {
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        stages.tool("deaf", call -> {
            started.countDown();
            while (release.getCount() > 0) {
                try {
                    release.await();
                } catch (InterruptedException e) {
                    interrupted.countDown();
                }
            }
            return Outcome.text("late");
        }, null);
        Call call = inlineCall("deaf");
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        Thread serving = serving(call, thrown);
        serving.start();
        assertTrue(started.await(5, TimeUnit.SECONDS));
        call.scope().cancel();
        Optional<CallToolResult> answer = takenOver.poll(5, TimeUnit.SECONDS);
        assertTrue(answer != null && answer.isEmpty(), "a cancelled call is ended with no result: " + answer);
        release.countDown();
        serving.join(5_000);
        assertTrue(thrown.get() instanceof Execute.TakenOver, String.valueOf(thrown.get()));
    }
}
