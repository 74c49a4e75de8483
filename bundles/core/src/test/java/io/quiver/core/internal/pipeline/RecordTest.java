package io.quiver.core.internal.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quiver.api.Outcome;
import io.quiver.api.ToolResult;
import io.quiver.api.call.Admission;
import io.quiver.api.call.CallEvent;
import io.quiver.api.call.HostChannel;
import io.quiver.api.call.Invocation;
import io.quiver.core.internal.json.Json;
import io.quiver.core.internal.messages.CallToolResult;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

class RecordTest {

    private final Stages stages = new Stages().tool("t", call -> Outcome.text("ran"), null);
    private final Record record = new Record(stages.extensions, stages.hostWait);
    private final List<String> host = new CopyOnWriteArrayList<>();

    @Test
    void theHostRecordsWhatWasDeliveredAndReleasesOnceOverAndEveryListenerHearsOneEvent() {
        stages.extensions.addHost(new HostChannel() {
            @Override
            public Admission admit(Invocation invocation) {
                return Admission.approve();
            }

            @Override
            public void record(Invocation invocation, ToolResult delivered) {
                host.add("record " + delivered.content().size());
            }

            @Override
            public void release(Invocation invocation) {
                host.add("release " + invocation.tool());
            }
        }, 0, 1);
        List<CallEvent> second = new CopyOnWriteArrayList<>();
        stages.listening();
        stages.extensions.addListener(event -> {
            throw new IllegalStateException("a broken listener");
        });
        stages.extensions.addListener(second::add);

        Call call = stages.resolved("t", "{}");
        new Admit(stages.extensions, new Validate(), stages.hostWait).admit(call);
        record.delivered(call, CallToolResult.of(ToolResult.text("ran"), Json.MAPPER));
        record.over(call);

        assertEquals(List.of("record 1", "release t"), host);
        assertEquals(1, stages.events.size());
        assertEquals(1, second.size());
        CallEvent event = second.get(0);
        assertEquals(CallEvent.Ending.COMPLETED, event.ending());
        assertEquals("t", event.tool());
        assertEquals(call.scope().invocationId(), event.invocationId());
    }

    /** A call that was never recorded (here denied) is known to the host by its end: how, and why. */
    @Test
    void theHostHearsHowACallItTookPartInEndedAndWhy() {
        List<CallEvent> heard = new CopyOnWriteArrayList<>();
        stages.extensions.addHost(new HostChannel() {
            @Override
            public Admission admit(Invocation invocation) {
                return Admission.deny("not today");
            }

            @Override
            public void release(Invocation invocation) {
                host.add("release");
            }

            @Override
            public void over(Invocation invocation, CallEvent event) {
                heard.add(event);
            }
        }, 0, 1);
        List<CallEvent> listened = new CopyOnWriteArrayList<>();
        stages.extensions.addListener(listened::add);
        Call call = stages.resolved("t", "{}");
        CallToolResult refused = new Admit(stages.extensions, new Validate(), stages.hostWait).admit(call);
        assertTrue(refused.isError());
        record.over(call);

        assertEquals(1, heard.size(), "told once");
        CallEvent event = heard.get(0);
        assertEquals(CallEvent.Ending.DENIED, event.ending());
        assertEquals("not today", event.detail());
        assertEquals(call.scope().invocationId(), event.invocationId());
        assertEquals(List.of(), host, "over in place of release");
        assertEquals(List.of(event), listened, "the same event the listeners hear");
    }

    @Test
    void aCallTheHostNeverSawIsNotReleasedToIt() {
        stages.extensions.addHost(invocation -> Admission.approve(), 0, 1);
        stages.listening();
        Call call = stages.resolved("t", "{}");
        record.over(call);
        assertEquals(List.of(), host);
        assertEquals(1, stages.events.size());
    }

    @Test
    void theHostThatAdmittedTheCallIsTheOneToldItIsOverEvenIfAnotherArrivedMeanwhile() {
        stages.extensions.addHost(new HostChannel() {
            @Override
            public Admission admit(Invocation invocation) {
                return Admission.approve();
            }

            @Override
            public void release(Invocation invocation) {
                host.add("first released");
            }
        }, 0, 1);
        Call call = stages.resolved("t", "{}");
        new Admit(stages.extensions, new Validate(), stages.hostWait).admit(call);
        stages.extensions.addHost(new HostChannel() {
            @Override
            public Admission admit(Invocation invocation) {
                return Admission.approve();
            }

            @Override
            public void release(Invocation invocation) {
                host.add("second released");
            }
        }, 10, 2);
        record.over(call);
        assertEquals(List.of("first released"), host);
    }

    @Test
    void aRecordingThatFailsFailsTheDeliveryVisibly() {
        String text = failedRecording(new io.quiver.api.call.RecordingFailed("the disk is full"));
        assertTrue(text.contains("was not delivered") && text.contains("the disk is full"), text);
    }

    @Test
    void aHostThatFailsToRecordByAccidentSaysSoWithoutItsInternals() {
        // its message reached the remote caller word for word (attacker review)
        String text = failedRecording(new IllegalStateException("callback exploded SECRET-HOST-DETAIL"));
        assertTrue(text.contains("was not delivered") && text.contains("The host failed to record it."), text);
        assertFalse(text.contains("SECRET-HOST-DETAIL"), text);
    }

    /** What the caller reads when the host's record throws {@code thrown}. */
    private String failedRecording(RuntimeException thrown) {
        stages.extensions.addHost(new HostChannel() {
            @Override
            public Admission admit(Invocation invocation) {
                return Admission.approve();
            }

            @Override
            public void record(Invocation invocation, ToolResult delivered) {
                throw thrown;
            }
        }, 0, 1);
        stages.listening();
        Call call = stages.resolved("t", "{}");
        new Admit(stages.extensions, new Validate(), stages.hostWait).admit(call);
        CallToolResult delivered = record.delivered(call, CallToolResult.of(ToolResult.text("the tool's answer"), Json.MAPPER));
        assertTrue(delivered.isError());
        String text = Review.toolResult(delivered).content().toString();
        assertFalse(text.contains("the tool's answer"), "the unrecorded result is not delivered");
        assertEquals(CallEvent.Ending.FAILED, stages.over(call).ending());
        return text;
    }
}
