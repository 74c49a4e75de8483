package io.quiver.transport.http.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Writes leave a lane thread in order, and a lane thread never waits for one. */
class HandOffTest {

    private final ExecutorService pool = Executors.newFixedThreadPool(2);

    @AfterEach
    void stop() {
        pool.shutdownNow();
    }

    @Test
    void offTheLaneWithNothingWaitingTheCallerRunsIt() {
        HandOff handOff = new HandOff();
        assertFalse(handOff.defer(() -> { }));
        assertTrue(handOff.idle());
    }

    @Test
    void onTheLaneItIsQueuedAndLaterActionsFromAnyThreadKeepTheirOrder() throws Exception {
        HandOff handOff = new HandOff();
        List<String> written = new CopyOnWriteArrayList<>();
        CountDownLatch firstWriteBlocks = new CountDownLatch(1);
        CountDownLatch allDone = new CountDownLatch(3);
        Thread lane = Thread.currentThread();
        boolean[] deferred = new boolean[1];
        LaneThread.run(pool, null, () -> deferred[0] = handOff.defer(() -> {
            await(firstWriteBlocks); // a client that does not read: the write takes its time
            assertNotSame(lane, Thread.currentThread());
            written.add("progress");
            allDone.countDown();
        }));
        assertTrue(deferred[0], "on the lane the write is handed off, not run");
        assertFalse(handOff.idle());
        // the lane goes on at once; the answer, from the lane and then from another thread, queues behind
        long t0 = System.nanoTime();
        LaneThread.run(pool, null, () -> assertTrue(handOff.defer(() -> {
            written.add("answer");
            allDone.countDown();
        })));
        assertTrue(System.nanoTime() - t0 < TimeUnit.SECONDS.toNanos(1), "the lane thread did not wait");
        assertTrue(handOff.defer(() -> {
            written.add("after");
            allDone.countDown();
        }), "off the lane, while earlier actions wait, it queues too");
        firstWriteBlocks.countDown();
        assertTrue(allDone.await(5, TimeUnit.SECONDS));
        assertEquals(List.of("progress", "answer", "after"), written);
        waitUntilIdle(handOff);
        assertFalse(handOff.defer(() -> { }), "drained: off the lane the caller runs it again");
    }

    @Test
    void whenThePoolTakesNothingTheWritesStillGoOutInOrderOffTheLane() throws Exception {
        HandOff handOff = new HandOff();
        List<String> written = new CopyOnWriteArrayList<>();
        CountDownLatch done = new CountDownLatch(2);
        Thread lane = Thread.currentThread();
        LaneThread.run(task -> {
            throw new RejectedExecutionException("stopping");
        }, null, () -> {
            assertTrue(handOff.defer(() -> {
                assertNotSame(lane, Thread.currentThread());
                written.add("one");
                done.countDown();
            }));
            handOff.defer(() -> {
                written.add("two");
                done.countDown();
            });
        });
        assertTrue(done.await(5, TimeUnit.SECONDS));
        assertEquals(List.of("one", "two"), written);
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void waitUntilIdle(HandOff handOff) throws InterruptedException {
        for (int i = 0; i < 500 && !handOff.idle(); i++) {
            Thread.sleep(10);
        }
        assertTrue(handOff.idle());
    }
}
