package io.quiver.transport.http.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quiver.api.transport.MessageSink;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** What the selector lane hands over runs in order on few threads, and more start only for work that waits. */
class CallPoolTest {

    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
    private final List<CallPool> pools = new ArrayList<>();

    @AfterEach
    void stop() {
        pools.forEach(CallPool::close);
        timer.shutdownNow();
    }

    private CallPool pool(int core, int max, int maxQueued, long growAfterMs) {
        CallPool pool = new CallPool(timer);
        pool.resize(core, max, maxQueued, growAfterMs);
        pools.add(pool);
        return pool;
    }

    @Test
    void tasksRunInTheOrderTheyArrived() throws Exception {
        CallPool pool = pool(1, 1, 1000, 10);
        CountDownLatch gate = new CountDownLatch(1);
        pool.execute(() -> await(gate)); // the only thread is busy: the rest queue
        List<Integer> ran = new CopyOnWriteArrayList<>();
        CountDownLatch done = new CountDownLatch(200);
        for (int i = 0; i < 200; i++) {
            int n = i;
            pool.execute(() -> {
                ran.add(n);
                done.countDown();
            });
        }
        gate.countDown();
        assertTrue(done.await(10, TimeUnit.SECONDS));
        for (int i = 0; i < 200; i++) {
            assertEquals(i, ran.get(i));
        }
    }

    @Test
    void shortWorkStaysOnTheCoreThreads() throws Exception {
        // nothing waits ten seconds here, so no thread beyond the core two may start
        CallPool pool = pool(2, 32, 10_000, 10_000);
        Set<Thread> used = ConcurrentHashMap.newKeySet();
        CountDownLatch done = new CountDownLatch(5_000);
        for (int i = 0; i < 5_000; i++) {
            pool.execute(() -> {
                used.add(Thread.currentThread());
                done.countDown();
            });
        }
        assertTrue(done.await(10, TimeUnit.SECONDS));
        assertTrue(used.size() <= 2, "ran on " + used.size() + " threads");
        assertTrue(pool.threads() <= 2);
    }

    @Test
    void workThatBlocksGetsMoreThreadsUpToTheMost() throws Exception {
        CallPool pool = pool(1, 6, 100, 5);
        // six tasks that can only finish once all six run at once: they do only if the pool grows
        CountDownLatch together = new CountDownLatch(6);
        CountDownLatch met = new CountDownLatch(6);
        for (int i = 0; i < 6; i++) {
            pool.execute(() -> {
                together.countDown();
                if (await(together)) {
                    met.countDown();
                }
            });
        }
        assertTrue(met.await(20, TimeUnit.SECONDS), "all six ran at once");
        assertEquals(6, pool.threads());
        // at the most: a seventh waits behind six that hold their threads
        CountDownLatch release = new CountDownLatch(1);
        AtomicInteger holding = new AtomicInteger();
        for (int i = 0; i < 6; i++) {
            pool.execute(() -> {
                holding.incrementAndGet();
                await(release);
            });
        }
        AtomicInteger seventh = new AtomicInteger();
        CountDownLatch seventhRan = new CountDownLatch(1);
        pool.execute(() -> {
            seventh.incrementAndGet();
            seventhRan.countDown();
        });
        Eventually.until(() -> holding.get() == 6);
        Thread.sleep(200); // forty times the growth delay: a thread beyond the most would have run it
        assertEquals(0, seventh.get(), "no seventh thread");
        assertEquals(6, pool.threads());
        release.countDown();
        assertTrue(seventhRan.await(10, TimeUnit.SECONDS));
    }

    @Test
    void newLimitsTakeEffectWhileItRuns() throws Exception {
        CallPool pool = pool(1, 2, 100, 5);
        CountDownLatch release = new CountDownLatch(1);
        AtomicInteger running = new AtomicInteger();
        for (int i = 0; i < 3; i++) {
            pool.execute(() -> {
                running.incrementAndGet();
                await(release);
            });
        }
        Eventually.until(() -> running.get() == 2);
        Thread.sleep(100); // twenty times the growth delay: the third waits at the most
        assertEquals(2, running.get());
        pool.resize(1, 3, 100, 5);
        Eventually.until(() -> running.get() == 3); // a higher most: the waiting task gets a thread
        release.countDown();
        pool.resize(1, 1, 100, 5);
        Eventually.until(() -> pool.threads() == 1); // a lower one: threads beyond it stop once idle
    }

    @Test
    void beyondTheQueueBoundItRefuses() {
        CallPool pool = pool(1, 1, 2, 10);
        CountDownLatch gate = new CountDownLatch(1);
        CountDownLatch running = new CountDownLatch(1);
        try {
            pool.execute(() -> {
                running.countDown();
                await(gate);
            });
            assertTrue(await(running));
            pool.execute(() -> { });
            pool.execute(() -> { });
            assertThrows(RejectedExecutionException.class, () -> pool.execute(() -> { }));
        } finally {
            gate.countDown();
        }
    }

    @Test
    void anInterruptedTaskDoesNotCostTheNextOneItsThread() throws Exception {
        CallPool pool = pool(1, 1, 10, 10);
        CountDownLatch second = new CountDownLatch(1);
        AtomicInteger interruptedOnArrival = new AtomicInteger();
        pool.execute(() -> Thread.currentThread().interrupt());
        pool.execute(() -> {
            if (Thread.currentThread().isInterrupted()) {
                interruptedOnArrival.incrementAndGet();
            }
            second.countDown();
        });
        assertTrue(second.await(10, TimeUnit.SECONDS));
        assertEquals(0, interruptedOnArrival.get());
        CountDownLatch third = new CountDownLatch(1);
        Thread.sleep(50); // the thread is waiting for work again
        pool.execute(third::countDown);
        assertTrue(third.await(10, TimeUnit.SECONDS));
    }

    @Test
    void closedItFinishesWhatWaitsAndTakesNothingMore() throws Exception {
        CallPool pool = pool(1, 1, 10, 10);
        CountDownLatch gate = new CountDownLatch(1);
        CountDownLatch queuedRan = new CountDownLatch(1);
        pool.execute(() -> await(gate));
        pool.execute(queuedRan::countDown);
        pool.close();
        assertThrows(RejectedExecutionException.class, () -> pool.execute(() -> { }));
        gate.countDown();
        assertTrue(queuedRan.await(10, TimeUnit.SECONDS), "what waited when it closed still ran");
        Eventually.until(() -> pool.threads() == 0);
    }

    private static boolean await(CountDownLatch latch) {
        try {
            return latch.await(20, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** Polls a condition for up to ten seconds. */
    private static final class Eventually {
        static void until(java.util.function.BooleanSupplier condition) throws InterruptedException {
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (!condition.getAsBoolean()) {
                if (System.nanoTime() > end) {
                    throw new AssertionError("not within 10 s");
                }
                Thread.sleep(5);
            }
        }
    }

    @Test
    void aThreadStuckInAnAnsweredTaskGivesItsPlaceToAnotherUpToTheMost() throws Exception {
        // a tool that ignores its timeout's interrupt: the engine answers from its timer, the thread stays
        CallPool pool = seated(50, 1, 2); // no growth by waiting within the test: only given-up seats add threads
        CountDownLatch never = new CountDownLatch(1);
        List<Thread> stuck = new CopyOnWriteArrayList<>();
        Runnable stuckTask = () -> {
            MessageSink sink = pool.seat().watching(sink(() -> { }));
            stuck.add(Thread.currentThread());
            timer.execute(() -> sink.complete(new byte[0])); // answered from elsewhere
            while (never.getCount() > 0) {
                try {
                    never.await();
                } catch (InterruptedException e) {
                    // ignored, as such a tool does
                }
            }
        };
        for (int i = 0; i < 4; i++) {
            pool.execute(stuckTask);
        }
        CountDownLatch ran = new CountDownLatch(1);
        pool.execute(ran::countDown);
        // one core thread: its seat and the next one's are given up (at most `max`, 2, at once), each to a new
        // thread; the third thread to get stuck keeps its seat
        assertTrue(await(() -> stuck.size() == 3, 5_000), "stuck " + stuck.size());
        assertTrue(!ran.await(300, TimeUnit.MILLISECONDS), "every counted thread is stuck: the rest waits");
        assertEquals(3, stuck.size(), "no seat beyond the most was given up");
        assertEquals(1, pool.threads(), "the third stuck thread counts");
        assertEquals(2, pool.load().stuck(), "operators see the two that gave up their seats");
        never.countDown();
        assertTrue(ran.await(5, TimeUnit.SECONDS), "once the tools return, work goes on");
        for (Thread t : stuck) {
            t.join(5_000);
        }
        assertTrue(await(() -> pool.threads() <= 2, 5_000));
        assertEquals(0, pool.load().stuck(), "a stuck thread that came back and ended is counted no more");
    }

    @Test
    void anAnswerOnTheTasksOwnThreadOrAfterItReturnedGivesNothingUp() throws Exception {
        CallPool pool = seated(20, 1, 1);
        AtomicInteger done = new AtomicInteger();
        for (int i = 0; i < 50; i++) {
            pool.execute(() -> {
                MessageSink sink = pool.seat().watching(sink(done::incrementAndGet));
                sink.complete(new byte[0]); // on its own thread, as nearly every answer
            });
        }
        assertTrue(await(() -> done.get() == 50, 5_000));
        Thread.sleep(100);
        assertEquals(1, pool.threads(), "never more than the one thread");
        assertEquals(null, pool.seat(), "no seat off the pool's threads");
    }

    @Test
    void anAnswerGivenAfterItsTaskReturnedGivesUpNoOtherTasksSeat() throws Exception {
        // the engine served a call on its own threads: run() returned at once, the answer comes later from elsewhere,
        // while the call thread runs the next (healthy, long) call
        CallPool pool = seated(20, 1, 1);
        AtomicInteger running = new AtomicInteger();
        AtomicInteger most = new AtomicInteger();
        CountDownLatch done = new CountDownLatch(3);
        pool.execute(() -> {
            MessageSink sink = pool.seat().watching(sink(() -> { }));
            timer.schedule(() -> sink.complete(new byte[0]), 50, TimeUnit.MILLISECONDS);
            done.countDown();
        });
        Runnable healthy = () -> {
            most.accumulateAndGet(running.incrementAndGet(), Math::max);
            try {
                Thread.sleep(300);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            running.decrementAndGet();
            done.countDown();
        };
        pool.execute(healthy);
        pool.execute(healthy);
        assertTrue(done.await(5, TimeUnit.SECONDS));
        assertEquals(1, most.get(), "the healthy calls ran one at a time on the one thread");
    }

    @Test
    void aStrayInterruptOfAnIdleThreadDoesNotEndIt() throws Exception {
        // a cancel may interrupt a call's thread after the call is over, while the thread waits for work
        CallPool pool = pool(1, 1, 100, 60_000);
        List<Thread> ranOn = new CopyOnWriteArrayList<>();
        CountDownLatch first = new CountDownLatch(1);
        pool.execute(() -> {
            ranOn.add(Thread.currentThread());
            first.countDown();
        });
        assertTrue(first.await(5, TimeUnit.SECONDS));
        Thread idle = ranOn.get(0);
        assertTrue(await(() -> idle.getState() == Thread.State.TIMED_WAITING, 5_000));
        idle.interrupt();
        Thread.sleep(100);
        assertTrue(idle.isAlive(), "the idle thread goes on waiting for work");
        assertEquals(1, pool.threads());
        CountDownLatch second = new CountDownLatch(1);
        pool.execute(second::countDown);
        assertTrue(second.await(5, TimeUnit.SECONDS), "work queued after the interrupt runs");
    }

    /** A pool whose seats are given up {@code abandonAfterMs} after an answer from elsewhere, growing by no wait. */
    private CallPool seated(long abandonAfterMs, int core, int max) {
        CallPool pool = new CallPool(timer, abandonAfterMs);
        pools.add(pool);
        pool.resize(core, max, 100, 60_000);
        return pool;
    }

    /** A sink that sends nowhere and runs {@code completed} when answered. */
    private static MessageSink sink(Runnable completed) {
        return new MessageSink() {
            @Override
            public void send(byte[] message) {
            }

            @Override
            public void complete(byte[] response) {
                completed.run();
            }
        };
    }

    private static boolean await(java.util.function.BooleanSupplier condition, long ms) throws InterruptedException {
        long deadline = System.nanoTime() + ms * 1_000_000L;
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                return false;
            }
            Thread.sleep(10);
        }
        return true;
    }
}
