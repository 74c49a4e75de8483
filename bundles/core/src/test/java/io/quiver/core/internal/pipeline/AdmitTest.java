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
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class AdmitTest {

    private final Stages stages = new Stages().listening().tool("t", call -> Outcome.text("ran"),
            "{\"type\":\"object\",\"properties\":{\"n\":{\"type\":\"integer\"}}}");
    private final Admit admit = new Admit(stages.extensions, new Validate());

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
        assertTrue(admit.admit(stages.resolved("t", "{}")).isError());
        stages.extensions.removeHost(1);
        host(invocation -> null);
        Call call = stages.resolved("t", "{}");
        assertTrue(admit.admit(call).isError());
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
}
