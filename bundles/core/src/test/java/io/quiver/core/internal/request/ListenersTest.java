package io.quiver.core.internal.request;

import io.quiver.api.CallerIdentity;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quiver.api.transport.MessageSink;
import io.quiver.core.internal.catalog.Catalog;
import java.nio.charset.StandardCharsets;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.IntNode;

class ListenersTest {

    private final Listeners listeners = new Listeners();

    private static class Recorded implements MessageSink {
        final List<String> messages = new CopyOnWriteArrayList<>();

        @Override
        public void send(byte[] message) {
            messages.add(new String(message, StandardCharsets.UTF_8));
        }

        @Override
        public void complete(byte[] response) {
        }
    }

    private static Listeners.Listener listener(int id, MessageSink sink) {
        return new Listeners.Listener(IntNode.valueOf(id), EnumSet.of(Catalog.Kind.TOOLS), Set.of(), sink,
                CallerIdentity.ANONYMOUS);
    }

    @Test
    void aStreamCountsFromTheMomentItIsOpenedAndTheLimitHolds() {
        assertNull(listeners.open(listener(1, new Recorded()), 2, Integer.MAX_VALUE, "ack".getBytes(StandardCharsets.UTF_8)));
        assertNull(listeners.open(listener(2, new Recorded()), 2, Integer.MAX_VALUE, "ack".getBytes(StandardCharsets.UTF_8)));
        Recorded refused = new Recorded();
        assertEquals(Listeners.Refusal.SERVER_FULL,
                listeners.open(listener(3, refused), 2, Integer.MAX_VALUE, "ack".getBytes(StandardCharsets.UTF_8)));
        assertEquals(2, listeners.size());
        assertEquals(List.of(), refused.messages, "a refused stream hears nothing");
    }

    @Test
    void oneSubjectKeepsAtMostItsShareAndGetsItBackAsItsStreamsEnd() {
        byte[] ack = "ack".getBytes(StandardCharsets.UTF_8);
        Listeners.Listener first = keyed(1, "ops");
        assertNull(listeners.open(first, 10, 2, ack));
        assertNull(listeners.open(keyed(2, "ops"), 10, 2, ack));
        assertEquals(Listeners.Refusal.SUBJECT_FULL, listeners.open(keyed(3, "ops"), 10, 2, ack));
        assertNull(listeners.open(keyed(4, "dev"), 10, 2, ack), "another subject is not held back");
        assertNull(listeners.open(listener(5, new Recorded()), 10, 2, ack), "nor the unauthenticated local caller");
        listeners.remove(first);
        assertNull(listeners.open(keyed(6, "ops"), 10, 2, ack), "an ended stream gives its place back");
        assertEquals(Listeners.Refusal.SERVER_FULL, listeners.open(keyed(7, "qa"), 4, 2, ack));
    }

    @Test
    void closingEndsEveryOpenStreamAndNoneOpensAfter() {
        byte[] ack = "ack".getBytes(StandardCharsets.UTF_8);
        List<String> ended = new CopyOnWriteArrayList<>();
        Recorded open = new Recorded() {
            @Override
            public void complete(byte[] response) {
                ended.add(new String(response, StandardCharsets.UTF_8));
            }
        };
        assertNull(listeners.open(listener(1, open), 10, 10, ack));
        listeners.closeAll(id -> ("ended " + id).getBytes(StandardCharsets.UTF_8));
        assertEquals(List.of("ended 1"), ended);
        // a listen request taken just before the engine stopped reaches the streams after they were closed
        Recorded late = new Recorded();
        assertEquals(Listeners.Refusal.CLOSED, listeners.open(listener(2, late), 10, 10, ack));
        assertEquals(0, listeners.size(), "nothing left open that no one would end");
        assertEquals(List.of(), late.messages, "and it was told nothing: its request gets an error");
    }

    private static Listeners.Listener keyed(int id, String subject) {
        return new Listeners.Listener(IntNode.valueOf(id), EnumSet.of(Catalog.Kind.TOOLS), Set.of(), new Recorded(),
                new CallerIdentity(subject, "default", Set.of(), true, null));
    }

    @Test
    void theAcknowledgementGoesOutBeforeAnyNotification() throws Exception {
        CountDownLatch acking = new CountDownLatch(1);
        CountDownLatch changed = new CountDownLatch(1);
        Recorded sink = new Recorded() {
            @Override
            public void send(byte[] message) {
                if (messages.isEmpty()) {
                    acking.countDown();
                    try {
                        // a list change arrives while the acknowledgement is being written
                        changed.await(200, TimeUnit.MILLISECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
                super.send(message);
            }
        };
        Thread opener = new Thread(() -> listeners.open(listener(1, sink), 10, Integer.MAX_VALUE,
                "ack".getBytes(StandardCharsets.UTF_8)));
        opener.start();
        assertTrue(acking.await(5, TimeUnit.SECONDS));
        Thread notifier = new Thread(() -> listeners.listChanged(Catalog.Kind.TOOLS,
                "notifications/tools/list_changed", caller -> true));
        notifier.start();
        changed.countDown();
        opener.join();
        notifier.join();
        assertEquals(2, sink.messages.size(), sink.messages.toString());
        assertEquals("ack", sink.messages.get(0));
        assertTrue(sink.messages.get(1).contains("list_changed"));
    }
}
