package io.quiver.host.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quiver.api.CallerIdentity;
import io.quiver.api.call.Invocation;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class InteractionsTest {

    private final BlockingQueue<Map<String, Object>> sent = new LinkedBlockingQueue<>();
    private final Interactions interactions = new Interactions(sent::add);

    private static Invocation call(String id, String subject) {
        return new Invocation(id, new CallerIdentity(subject, "default", Set.of(), true), null, "2025-11-25", "t",
                Map.of("n", 1));
    }

    private CompletableFuture<Map<String, Object>> ask(Invocation invocation, String kind) {
        return CompletableFuture.supplyAsync(() -> interactions.ask(invocation, kind, Map.of(),
                reply -> Requests.misfit(kind, reply)));
    }

    private Map<String, Object> request() throws InterruptedException {
        Map<String, Object> request = sent.poll(5, TimeUnit.SECONDS);
        assertTrue(request != null, "no request was sent");
        return request;
    }

    @Test
    void aReplyIsTakenOnceAndOnlyWhenItFits() throws Exception {
        Invocation inv = call("inv-1", "alice");
        interactions.begin(inv, reason -> { });
        CompletableFuture<Map<String, Object>> asked = ask(inv, "admit");
        Map<String, Object> request = request();
        assertEquals("inv-1/1", request.get("id"));
        assertEquals("admit", request.get("kind"));
        assertEquals("alice", ((Map<?, ?>) request.get("caller")).get("subject"));
        assertEquals(Map.of("n", 1), request.get("arguments"));
        String id = (String) request.get("id");

        assertTrue(interactions.reply(id, Map.of("decision", "release")).startsWith(Interactions.INVALID));
        assertTrue(interactions.reply(id, Map.of("decision", "approve", "arguments", "x")).startsWith(Interactions.INVALID));
        assertEquals(Interactions.ACCEPTED, interactions.reply(id, Map.of("decision", "approve")));
        assertEquals("approve", asked.get(5, TimeUnit.SECONDS).get("decision"));
        assertEquals(Interactions.DUPLICATE, interactions.reply(id, Map.of("decision", "deny")));
        assertEquals(Interactions.UNKNOWN, interactions.reply("nobody/1", Map.of("decision", "approve")));

        interactions.over(inv, Map.of("ending", "denied", "detail", "not today"));
        Map<String, Object> over = request();
        assertEquals("over", over.get("kind"), "the host hears the end of a call it took part in");
        assertEquals("denied", over.get("ending"), "and how it ended");
        assertEquals("not today", over.get("detail"));
        assertEquals(Interactions.STALE, interactions.reply("inv-1/2", Map.of("decision", "approve")));
        assertEquals(Interactions.STALE, interactions.stop("inv-1", "late"));
    }

    @Test
    void anInterruptedWaitEndsAndItsLateReplyIsStale() throws Exception {
        Invocation inv = call("inv-2", "alice");
        interactions.begin(inv, reason -> { });
        Thread[] asking = new Thread[1];
        CompletableFuture<Throwable> failed = new CompletableFuture<>();
        asking[0] = new Thread(() -> {
            try {
                interactions.ask(inv, "review", Map.of(), reply -> Requests.misfit("review", reply));
                failed.complete(null);
            } catch (RuntimeException e) {
                failed.complete(e);
            }
        });
        asking[0].start();
        String id = (String) request().get("id");
        asking[0].interrupt(); // the engine's alarm, or a cancellation
        assertTrue(failed.get(5, TimeUnit.SECONDS) instanceof CancellationException);
        assertEquals(Interactions.STALE, interactions.reply(id, Map.of("decision", "deliver")));
    }

    @Test
    void stopsReachOneCallOrEveryCallOfACallerAndAShutdownEndsEverything() throws Exception {
        List<String> stopped = new CopyOnWriteArrayList<>();
        interactions.begin(call("a1", "alice"), reason -> stopped.add("a1 " + reason));
        interactions.begin(call("a2", "alice"), reason -> stopped.add("a2 " + reason));
        interactions.begin(call("b1", "bob"), reason -> stopped.add("b1 " + reason));
        assertEquals(Interactions.ACCEPTED, interactions.stop("b1", "closed"));
        assertEquals(2, interactions.stopCaller("alice", null, "left"));
        assertEquals(Set.of("b1 closed", "a1 left", "a2 left"), Set.copyOf(stopped));

        Invocation pending = call("c1", "carol");
        interactions.begin(pending, reason -> stopped.add("c1 " + reason));
        CompletableFuture<Map<String, Object>> waiting = ask(pending, "admit");
        request();
        interactions.shutDown("closing");
        Exception e = assertThrows(Exception.class, () -> waiting.get(5, TimeUnit.SECONDS));
        assertTrue(e.getCause() instanceof Interactions.ShutDown, String.valueOf(e.getCause()));
        assertTrue(stopped.contains("c1 closing"));
        assertThrows(Interactions.ShutDown.class, () -> interactions.ask(call("d1", "dan"), "admit", Map.of(), r -> null),
                "nothing is asked after a shutdown");
        List<String> late = new CopyOnWriteArrayList<>();
        interactions.begin(call("e1", "eve"), late::add);
        assertEquals(List.of("closing"), late, "a call that begins after the shutdown is stopped at once");
    }

    @Test
    void aCallThatSeesTheShutdownIsStoppedBeforeItsWaitFails() throws Exception {
        // the shutdown lands while the request is being delivered, and its thread is slow to stop the calls:
        // the call's own thread must not fail its wait before the call is stopped, or the engine would read
        // the failure as the host's refusal rather than as the stop
        CountDownLatch delivering = new CountDownLatch(1);
        CountDownLatch shutdownSet = new CountDownLatch(1);
        CompletableFuture<Void> asked = new CompletableFuture<>();
        List<String> stopped = new CopyOnWriteArrayList<>();
        Thread[] shutting = new Thread[1];
        Interactions slow = new Interactions(request -> {
            delivering.countDown();
            await(shutdownSet);
        });
        Invocation inv = call("s1", "sam");
        slow.begin(inv, reason -> {
            if (Thread.currentThread() == shutting[0]) {
                try {
                    asked.get(5, TimeUnit.SECONDS); // the shutdown's thread reaches this call late
                } catch (Exception e) {
                    // timed out: the call's thread never came back, which the assertions below report
                }
            }
            stopped.add(reason);
        });
        CompletableFuture<String> seen = CompletableFuture.supplyAsync(() -> {
            try {
                slow.ask(inv, "admit", Map.of(), r -> null);
                return "answered";
            } catch (Interactions.ShutDown e) {
                return "shut down; stopped then: " + stopped;
            } finally {
                asked.complete(null);
            }
        });
        await(delivering);
        shutting[0] = new Thread(() -> slow.shutDown("closing"));
        shutting[0].start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (slow.shutdown() == null) {
            assertTrue(System.nanoTime() < deadline, "the shutdown never began");
            Thread.onSpinWait();
        }
        shutdownSet.countDown();
        assertEquals("shut down; stopped then: [closing]", seen.get(10, TimeUnit.SECONDS));
        shutting[0].join(10_000);
    }

    private static void await(CountDownLatch latch) {
        try {
            assertTrue(latch.await(5, TimeUnit.SECONDS));
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
    }
}
