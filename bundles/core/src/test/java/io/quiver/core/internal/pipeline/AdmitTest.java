package io.quiver.core.internal.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quiver.api.Outcome;
import io.quiver.api.call.Admission;
import io.quiver.api.call.CallEvent;
import io.quiver.api.call.HostChannel;
import io.quiver.core.internal.messages.CallToolResult;
import io.quiver.api.call.Invocation;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class AdmitTest {

    private final Stages stages = new Stages().listening().tool("t", call -> Outcome.text("ran"),
            "{\"type\":\"object\",\"properties\":{\"n\":{\"type\":\"integer\"}}}",
            Map.of("mcp.tool.meta", "{\"anthropic/maxResultSizeChars\":500}"));
    private final Admit admit = new Admit(stages.extensions, new Validate(), stages.hostWait);

    private void host(HostChannel host) {
        stages.extensions.addHost(host, 0, 1);
    }

    @Test
    void withoutAHostEveryValidCallIsAdmittedAndNoHostIsInvolved() {
        Call call = stages.resolved("t", "{\"n\":1}");
        assertNull(admit.admit(call));
        assertNull(call.host());
    }

    @Test
    void theHostSeesTheCallAndApproves() {
        host(invocation -> {
            assertEquals("t", invocation.tool());
            assertEquals(Map.of("n", 1), invocation.arguments());
            return Admission.approve();
        });
        Call call = stages.resolved("t", "{\"n\":1}");
        assertNull(admit.admit(call));
        assertNotNull(call.host());
        assertEquals(new CallEvent.Step("admit", true, "approved by the host"), stages.over(call).decisions().get(0));
    }

    @Test
    void editedArgumentsReplaceTheClientsAndAreValidated() {
        host(invocation -> Admission.approve(Map.of("n", 41)));
        Call call = stages.resolved("t", "{\"n\":1}");
        assertNull(admit.admit(call));
        assertEquals(41, call.arguments().path("n").asInt());
        assertEquals(Map.of("n", 41), call.invocation().arguments());

        stages.extensions.removeHost(1);
        host(invocation -> Admission.approve(Map.of("n", "not a number")));
        Call invalid = stages.resolved("t", "{\"n\":1}");
        CallToolResult refused = admit.admit(invalid);
        assertTrue(refused.isError());
        assertEquals(CallEvent.Ending.INVALID, stages.over(invalid).ending());
    }

    @Test
    void aDenialIsAnErrorResultWithTheHostsReason() {
        host(invocation -> Admission.deny("the user said no"));
        Call call = stages.resolved("t", "{}");
        CallToolResult refused = admit.admit(call);
        assertTrue(refused.isError());
        assertTrue(Review.toolResult(refused).content().toString().contains("the user said no"));
        CallEvent event = stages.over(call);
        assertEquals(CallEvent.Ending.DENIED, event.ending());
        assertEquals("the user said no", event.detail());
    }

    @Test
    void aHostThatFailsOrAnswersNothingDenies() {
        host(invocation -> {
            throw new IllegalStateException("host down");
        });
        Call failed = stages.resolved("t", "{}");
        CallToolResult failure = admit.admit(failed);
        assertTrue(failure.isError());
        assertTrue(text(failure).contains("The call of t was not admitted: The host failed."), text(failure)
                + ": a failure, told apart from a refusal; the host's own message is not the client's to read");
        assertEquals(new CallEvent.Step("admit", false, "The host failed."), stages.over(failed).decisions().get(0));
        stages.extensions.removeHost(1);
        host(invocation -> null);
        Call call = stages.resolved("t", "{}");
        CallToolResult nothing = admit.admit(call);
        assertTrue(nothing.isError());
        assertTrue(text(nothing).contains("The call of t was not admitted: The host did not admit the call."),
                text(nothing));
        assertEquals(CallEvent.Ending.DENIED, stages.over(call).ending());
    }

    @Test
    void theClientCancellingInterruptsAHostThatIsStillDeciding() throws Exception {
        CountDownLatch deciding = new CountDownLatch(1);
        CountDownLatch interrupted = new CountDownLatch(1);
        host(invocation -> {
            deciding.countDown();
            try {
                Thread.sleep(30_000);
            } catch (InterruptedException e) {
                interrupted.countDown();
            }
            return Admission.approve();
        });
        Call call = stages.resolved("t", "{}");
        Thread client = new Thread(() -> {
            try {
                deciding.await();
                call.scope().cancel();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        client.start();
        assertThrows(CancellationException.class, () -> admit.admit(call));
        assertTrue(interrupted.await(5, TimeUnit.SECONDS));
        assertFalse(Thread.currentThread().isInterrupted(), "the interrupt was the host's, not the caller's");
        client.join();
    }

    @Test
    void aHostThatDoesNotAnswerInTimeDeniesAndTheToolDoesNotRun() {
        stages.hostTimeoutMs = 200;
        host(invocation -> {
            try {
                Thread.sleep(30_000);
            } catch (InterruptedException e) {
                // the host's wait was ended
            }
            return Admission.approve();
        });
        Call call = stages.resolved("t", "{}");
        CallToolResult refused = admit.admit(call);
        assertTrue(refused.isError());
        assertTrue(text(refused).contains("did not admit the call within 200 ms"), text(refused));
        assertFalse(Thread.currentThread().isInterrupted(), "the alarm's interrupt was the host's");
        assertEquals(CallEvent.Ending.DENIED, stages.over(call).ending());
    }

    @Test
    void anAdmittedCallWaitsForItsReleaseAndAnUnreleasedOneDoesNotRun() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        List<String> seen = new CopyOnWriteArrayList<>();
        host(new HostChannel() {
            @Override
            public Admission admit(Invocation invocation) {
                return Admission.approve();
            }

            @Override
            public boolean awaitRelease(Invocation invocation) {
                seen.add("waiting " + invocation.arguments().get("n"));
                try {
                    return release.await(10, TimeUnit.SECONDS) && !Integer.valueOf(2).equals(invocation.arguments().get("n"));
                } catch (InterruptedException e) {
                    return false;
                }
            }
        });
        Call first = stages.resolved("t", "{\"n\":1}");
        CompletableFuture<CallToolResult> admitted = CompletableFuture.supplyAsync(() -> admit.admit(first));
        Thread.sleep(100);
        assertFalse(admitted.isDone(), "a prepared call waits for its release");
        release.countDown();
        assertNull(admitted.get(5, TimeUnit.SECONDS));
        assertEquals(new CallEvent.Step("release", true, "released by the host"), stages.over(first).decisions().get(1));

        Call second = stages.resolved("t", "{\"n\":2}");
        CallToolResult refused = admit.admit(second);
        assertTrue(text(refused).contains("was not released"), text(refused));
        assertEquals(CallEvent.Ending.DENIED, stages.over(second).ending());
        assertEquals(List.of("waiting 1", "waiting 2"), seen);
    }

    @Test
    void theHostSeesRequestedAndEditedArgumentsAndTheCallersMetadata() {
        List<Invocation> seen = new CopyOnWriteArrayList<>();
        host(new HostChannel() {
            @Override
            public Admission admit(Invocation invocation) {
                seen.add(invocation);
                return Admission.approve(Map.of("n", 5));
            }

            @Override
            public boolean awaitRelease(Invocation invocation) {
                seen.add(invocation);
                return true;
            }
        });
        Call call = stages.call("t", "{\"n\":1}");
        call.scope().params().putObject("_meta").put("claudecode/toolUseId", "toolu_1");
        new Resolve(stages.catalog).resolve(call);
        assertNull(admit.admit(call));
        Invocation before = seen.get(0);
        Invocation after = seen.get(1);
        assertEquals(Map.of("n", 1), before.arguments());
        assertFalse(before.edited());
        assertEquals(Map.of("n", 5), after.arguments());
        assertEquals(Map.of("n", 1), after.requestedArguments());
        assertTrue(after.edited());
        assertEquals(Map.of("claudecode/toolUseId", "toolu_1"), after.correlation());
        assertEquals(Map.of("anthropic/maxResultSizeChars", 500), after.toolMeta(), "the tool's result-size hint");
    }

    @Test
    void theHostStoppingACallWhileItDecidesEndsItWithTheReason() throws Exception {
        AtomicReference<Consumer<String>> stop = new AtomicReference<>();
        CountDownLatch deciding = new CountDownLatch(1);
        host(new HostChannel() {
            @Override
            public void begin(Invocation invocation, Consumer<String> stopper) {
                stop.set(stopper);
            }

            @Override
            public Admission admit(Invocation invocation) {
                deciding.countDown();
                try {
                    Thread.sleep(30_000);
                } catch (InterruptedException e) {
                    // stopped
                }
                return Admission.approve();
            }
        });
        Call call = stages.resolved("t", "{}");
        Thread host = new Thread(() -> {
            try {
                deciding.await();
                stop.get().accept("the user pressed Ctrl-C");
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        host.start();
        assertThrows(CancellationException.class, () -> admit.admit(call));
        assertEquals("the user pressed Ctrl-C", call.scope().stopped());
        host.join();
    }

    private static String text(CallToolResult result) {
        return Review.toolResult(result).content().toString();
    }
}
