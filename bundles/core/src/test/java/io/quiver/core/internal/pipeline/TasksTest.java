package io.quiver.core.internal.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quiver.api.CallerIdentity;
import io.quiver.api.Outcome;
import io.quiver.api.call.CallEvent;
import io.quiver.api.content.TextContent;
import io.quiver.api.input.InputRequest;
import io.quiver.api.input.InputResponse;
import io.quiver.core.internal.json.Json;
import io.quiver.core.internal.messages.CallToolResult;
import io.quiver.core.internal.messages.TaskInfo;
import io.quiver.core.internal.messages.TaskStatus;
import io.quiver.core.internal.request.RequestScope;
import io.quiver.core.internal.rpc.McpException;
import io.quiver.core.internal.settings.EngineSettings;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class TasksTest {

    private final Stages stages = new Stages().listening();
    private final ExecutorService pool = Executors.newCachedThreadPool();
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
    private final EngineSettings settings = EngineSettings.of(Map.of("taskTtlMs", 300, "taskTimeoutMs", 10_000));
    private final ToolLimitsRegistry limits = new ToolLimitsRegistry();
    /** Whether the tasks' callers may still call their tools. */
    private volatile boolean allowed = true;
    private final Tasks tasks = tasks(settings);
    /** Tasks that outlive a test however slow the machine (a round of input each). */
    private final Tasks lasting = tasks(EngineSettings.of(Map.of("taskTtlMs", 60_000, "taskTimeoutMs", 10_000)));

    private Tasks tasks(EngineSettings with) {
        return tasks(with, pool, new ToolShares(limits, with));
    }

    private Tasks tasks(EngineSettings with, ExecutorService drivers, ToolShares shares) {
        return new Tasks(drivers, timer, with, new ToolAttempts(new Execute(pool, with, limits), new BoundOutput(with, limits)),
                new HostAnswers(stages.hostWait), new Review(stages.hostWait), new Record(stages.extensions, stages.hostWait),
                () -> 3, shares, (caller, tool) -> allowed);
    }

    @AfterEach
    void stop() {
        pool.shutdownNow();
        timer.shutdownNow();
    }

    private static void await(Supplier<Boolean> condition) throws InterruptedException {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!condition.get()) {
            assertTrue(System.nanoTime() < end, "timed out");
            Thread.sleep(10);
        }
    }

    @Test
    void aTaskGathersItsInputThroughUpdatesAndFinishesOnItsOwn() throws Exception {
        stages.clientCapabilities = Map.of("elicitation", Map.of());
        stages.tool("ask", call -> call.answer("name")
                .map(a -> Outcome.text("hello " + ((InputResponse.Elicited) a).content().get("who")))
                .orElse(Outcome.needsInput(new InputRequest.Elicitation("name", "Who?", Map.of("type", "object")))),
                null);
        Call call = stages.resolved("ask", "{}");
        RequestScope scope = call.scope();
        TaskInfo created = tasks.start(call, Map.of());
        assertEquals(TaskStatus.WORKING, created.status());
        await(() -> tasks.get(scope, created.taskId()).status() == TaskStatus.INPUT_REQUIRED);
        assertEquals(Set.of("name"), tasks.get(scope, created.taskId()).inputRequests().keySet());

        tasks.update(scope, created.taskId(), Json.MAPPER.readTree(
                "{\"name\":{\"action\":\"accept\",\"content\":{\"who\":\"Ada\"}}}"));
        await(() -> tasks.get(scope, created.taskId()).status() == TaskStatus.COMPLETED);
        CallToolResult result = (CallToolResult) tasks.get(scope, created.taskId()).result();
        assertEquals("hello Ada", ((TextContent) result.content().get(0)).text());
        await(() -> stages.events.size() == 1);
        assertEquals(CallEvent.Ending.COMPLETED, stages.events.get(0).ending());
    }

    /**
     * A task asks only what its client can answer: one whose client declared no elicitation fails with the missing
     * capability (before, it waited in input_required until its TTL, holding one of its caller's task places).
     */
    @Test
    void aTaskAsksNothingItsClientCannotAnswer() throws Exception {
        stages.tool("ask", call -> Outcome.needsInput(new InputRequest.Elicitation("name", "Who?", Map.of("type", "object"))),
                null);
        Call call = stages.resolved("ask", "{}");
        TaskInfo created = lasting.start(call, Map.of());
        await(() -> lasting.get(call.scope(), created.taskId()).status() == TaskStatus.FAILED);
        assertEquals(-32021, lasting.get(call.scope(), created.taskId()).error().code());
    }

    /**
     * maxInputRounds bounds a task across its updates (each runs a fresh loop): a tool that asks something new at
     * every round fails after three (this test's bound) instead of asking forever.
     */
    @Test
    void aTaskAsksForInputAtMostMaxInputRoundsTimes() throws Exception {
        stages.clientCapabilities = Map.of("elicitation", Map.of());
        java.util.concurrent.atomic.AtomicInteger asked = new java.util.concurrent.atomic.AtomicInteger();
        stages.tool("ask_forever", call -> Outcome.needsInput(new InputRequest.Elicitation("q" + asked.incrementAndGet(),
                "Again?", Map.of("type", "object"))), null);
        Call call = stages.resolved("ask_forever", "{}");
        RequestScope scope = call.scope();
        TaskInfo created = lasting.start(call, Map.of());
        for (int round = 1; round <= 3; round++) {
            await(() -> lasting.get(scope, created.taskId()).status() == TaskStatus.INPUT_REQUIRED);
            String key = lasting.get(scope, created.taskId()).inputRequests().keySet().iterator().next();
            lasting.update(scope, created.taskId(), Json.MAPPER.readTree("{\"" + key + "\":{\"action\":\"accept\",\"content\":{}}}"));
        }
        await(() -> lasting.get(scope, created.taskId()).status() == TaskStatus.FAILED);
        assertEquals("Input was requested more than 3 times", lasting.get(scope, created.taskId()).error().message());
    }

    /**
     * A task's run holds one of its tool's fair share of the tool threads, as a call does: with a share of one, a
     * second task of the tool waits until the first is over (before, 70 tasks of one tool took all 64 tool threads
     * and a plain call of another tool waited in vain).
     */
    @Test
    void tasksOfOneToolRunWithinItsShare() throws Exception {
        limits.put(new ToolLimits("hold", 0, 1, 0));
        CountDownLatch go = new CountDownLatch(1);
        java.util.concurrent.atomic.AtomicInteger running = new java.util.concurrent.atomic.AtomicInteger();
        java.util.concurrent.atomic.AtomicInteger most = new java.util.concurrent.atomic.AtomicInteger();
        stages.tool("hold", call -> {
            most.accumulateAndGet(running.incrementAndGet(), Math::max);
            try {
                go.await(10, TimeUnit.SECONDS);
            } finally {
                running.decrementAndGet();
            }
            return Outcome.text("held");
        }, null);
        Call first = stages.resolved("hold", "{}");
        Call second = stages.resolved("hold", "{}");
        TaskInfo one = lasting.start(first, Map.of());
        TaskInfo two = lasting.start(second, Map.of());
        await(() -> running.get() == 1);
        assertEquals(TaskStatus.WORKING, lasting.get(second.scope(), two.taskId()).status(), "waiting for its turn");
        go.countDown();
        await(() -> lasting.get(first.scope(), one.taskId()).status() == TaskStatus.COMPLETED
                && lasting.get(second.scope(), two.taskId()).status() == TaskStatus.COMPLETED);
        assertEquals(1, most.get(), "never both at once");
    }

    /**
     * One subject keeps at most a sixteenth of maxTasks (here 17 of 32: never fewer than its working ones and one):
     * its oldest finished task makes room for its next, so its quick tasks cannot fill maxTasks for everyone (before,
     * one subject's 30 finished tasks refused every other tenant's for the TTL, an hour).
     */
    @Test
    void oneSubjectsFinishedTasksMakeRoomForItsNextNotForOthersToWait() throws Exception {
        Tasks few = tasks(EngineSettings.of(Map.of("maxTasks", 32, "maxTasksPerSubject", 16, "taskTtlMs", 60_000,
                "taskTimeoutMs", 10_000)));
        stages.tool("now", call -> Outcome.text("done"), null);
        CallerIdentity alice = new CallerIdentity("alice", "default", Set.of(), true);
        CallerIdentity bob = new CallerIdentity("bob", "acme", Set.of(), true);
        for (int i = 0; i < 40; i++) {
            Call call = stages.resolved("now", "{}", alice);
            TaskInfo created = few.start(call, Map.of());
            await(() -> few.get(call.scope(), created.taskId()).status() == TaskStatus.COMPLETED);
        }
        assertTrue(few.size() <= 17, "alice keeps at most her share: " + few.size());
        Call theirs = stages.resolved("now", "{}", bob);
        TaskInfo created = few.start(theirs, Map.of());
        await(() -> few.get(theirs.scope(), created.taskId()).status() == TaskStatus.COMPLETED);
    }

    /**
     * A task cancelled while its run waits for a task thread gives its tool's share back (its run, never started,
     * cannot): before, each such cancellation kept one of the tool's permits until a restart, and calls of the tool
     * queued or were refused busy for good.
     */
    @Test
    void aTaskCancelledBeforeItsRunStartsGivesItsShareBack() throws Exception {
        java.util.concurrent.ExecutorService one = io.quiver.core.internal.exec.Pools.bounded("one-task", 1, 16);
        ToolShares shares = new ToolShares(limits, settings);
        EngineSettings with = EngineSettings.of(Map.of("taskTtlMs", 60_000, "taskTimeoutMs", 10_000));
        Tasks queued = tasks(with, one, shares);
        CountDownLatch go = new CountDownLatch(1);
        stages.tool("block", call -> {
            go.await(10, TimeUnit.SECONDS);
            return Outcome.text("done");
        }, null);
        stages.tool("other", call -> Outcome.text("other"), null);
        try {
            Call blocking = stages.resolved("block", "{}");
            queued.start(blocking, Map.of()); // takes the one task thread
            Call waiting = stages.resolved("other", "{}");
            TaskInfo created = queued.start(waiting, Map.of()); // its run waits in the pool's queue, holding a share
            assertEquals(1, shares.running("other"));
            queued.cancel(waiting.scope(), created.taskId());
            go.countDown();
            await(() -> shares.running("other") == 0 && shares.running("block") == 0);
        } finally {
            go.countDown();
            one.shutdownNow();
        }
    }

    /**
     * The request that starts a task holds a share of its tool until it is answered, which it is at once: a tool of
     * one share and no queue (maxQueuedPerTool = 0) still runs its task once the request gives its share back,
     * instead of failing it busy.
     */
    @Test
    void aTaskWaitsForTheShareOfTheRequestThatStartedIt() throws Exception {
        EngineSettings with = EngineSettings.of(Map.of("taskTtlMs", 60_000, "taskTimeoutMs", 10_000,
                "maxQueuedPerTool", 0));
        ToolShares shares = new ToolShares(limits, with);
        Tasks tight = tasks(with, pool, shares);
        limits.put(new ToolLimits("solo", 0, 1, 0));
        stages.tool("solo", call -> Outcome.text("solo"), null);
        ToolShares.Waiter request = new ToolShares.Waiter() {
            @Override
            public void start() {
            }

            @Override
            public void busy(String reason) {
                throw new AssertionError(reason);
            }
        };
        shares.admit("solo", request); // the starting request's own share
        Call call = stages.resolved("solo", "{}");
        TaskInfo created = tight.start(call, Map.of());
        assertEquals(TaskStatus.WORKING, tight.get(call.scope(), created.taskId()).status());
        shares.release("solo"); // the request is answered
        await(() -> tight.get(call.scope(), created.taskId()).status() == TaskStatus.COMPLETED);
    }

    /**
     * The server stopping cancels the tasks that have not ended, each recorded as cancelled (before, their threads
     * were interrupted with the pool: an ERROR with a stack trace in the log, and no closing line on the audit trail).
     */
    @Test
    void tasksThatHaveNotEndedAreCancelledAndRecordedWhenTheServerStops() throws Exception {
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch interrupted = new CountDownLatch(1);
        stages.tool("long", call -> {
            started.countDown();
            try {
                Thread.sleep(30_000);
            } catch (InterruptedException e) {
                interrupted.countDown();
                throw e;
            }
            return Outcome.text("late");
        }, null);
        Call call = stages.resolved("long", "{}");
        TaskInfo created = lasting.start(call, Map.of());
        assertTrue(started.await(10, TimeUnit.SECONDS));
        lasting.stopAll("the server stopped");
        assertEquals(TaskStatus.CANCELLED, lasting.get(call.scope(), created.taskId()).status());
        assertTrue(interrupted.await(10, TimeUnit.SECONDS), "its tool was told");
        await(() -> stages.events.size() == 1);
        assertEquals(CallEvent.Ending.CANCELLED, stages.events.get(0).ending());
    }

    /**
     * A caller that lost the tool since its task began (a scope rule, a grant) cannot drive the task on: its update
     * hears the unknown tool, and the task is cancelled (before, tasks/update ran the tool again).
     */
    @Test
    void aTaskIsNotDrivenOnForACallerThatLostItsTool() throws Exception {
        stages.clientCapabilities = Map.of("elicitation", Map.of());
        java.util.concurrent.atomic.AtomicInteger runs = new java.util.concurrent.atomic.AtomicInteger();
        stages.tool("ask", call -> {
            runs.incrementAndGet();
            return call.answer("name").map(a -> Outcome.text("hello"))
                    .orElse(Outcome.needsInput(new InputRequest.Elicitation("name", "Who?", Map.of("type", "object"))));
        }, null);
        Call call = stages.resolved("ask", "{}");
        RequestScope scope = call.scope();
        TaskInfo created = lasting.start(call, Map.of());
        await(() -> lasting.get(scope, created.taskId()).status() == TaskStatus.INPUT_REQUIRED);
        allowed = false;
        McpException refused = assertThrows(McpException.class, () -> lasting.update(scope, created.taskId(),
                Json.MAPPER.readTree("{\"name\":{\"action\":\"accept\",\"content\":{}}}")));
        assertEquals("Unknown tool: ask", refused.getMessage());
        assertEquals(TaskStatus.CANCELLED, lasting.get(scope, created.taskId()).status());
        assertEquals(1, runs.get(), "the tool did not run again");
    }

    /** A task of the local caller is not found by a token whose subject is the local caller's name. */
    @Test
    void aTokenNamedLikeTheLocalCallerDoesNotFindItsTasks() throws Exception {
        stages.tool("now", call -> Outcome.text("done"), null);
        Call call = stages.resolved("now", "{}");
        TaskInfo created = lasting.start(call, Map.of());
        await(() -> lasting.get(call.scope(), created.taskId()).status() == TaskStatus.COMPLETED);
        RequestScope token = stages.scope(new CallerIdentity(CallerIdentity.ANONYMOUS.subject(),
                CallerIdentity.DEFAULT_TENANT, Set.of(), true));
        McpException unknown = assertThrows(McpException.class, () -> lasting.get(token, created.taskId()));
        assertEquals("Unknown task: " + created.taskId(), unknown.getMessage());
    }

    @Test
    void aTaskPastItsTtlIsStoppedForgottenAndRecordedOnce() throws Exception {
        CountDownLatch interrupted = new CountDownLatch(1);
        stages.tool("hold", call -> {
            try {
                Thread.sleep(30_000);
            } catch (InterruptedException e) {
                interrupted.countDown();
            }
            return Outcome.text("late");
        }, null);
        Call call = stages.resolved("hold", "{}");
        RequestScope scope = call.scope();
        TaskInfo created = tasks.start(call, Map.of());
        assertTrue(interrupted.await(10, TimeUnit.SECONDS));
        McpException gone = assertThrows(McpException.class, () -> tasks.get(scope, created.taskId()));
        assertEquals("Unknown task: " + created.taskId(), gone.getMessage());
        assertEquals(0, tasks.size());
        await(() -> stages.events.size() == 1);
        Thread.sleep(100);
        assertEquals(1, stages.events.size());
        assertEquals(CallEvent.Ending.CANCELLED, stages.events.get(0).ending());
        assertEquals("expired after 300 ms", stages.events.get(0).detail());
    }

    @Test
    void anotherCallerDoesNotSeeTheTask() throws Exception {
        stages.tool("quick", call -> Outcome.text("ok"), null);
        Call call = stages.resolved("quick", "{}");
        TaskInfo created = tasks.start(call, Map.of());
        RequestScope other = stages.scope(new CallerIdentity("mallory", "t2", Set.of(), true));
        assertThrows(McpException.class, () -> tasks.get(other, created.taskId()));
        assertThrows(McpException.class, () -> tasks.cancel(other, created.taskId()));
    }
}
