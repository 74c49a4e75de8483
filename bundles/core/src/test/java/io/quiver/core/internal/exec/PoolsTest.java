package io.quiver.core.internal.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class PoolsTest {

    private final Pools.Pool pool = Pools.bounded("pools-test", 4, 2);

    @AfterEach
    void stop() {
        pool.shutdownNow();
    }

    /** One task, as a client sends its next request: after a round trip, when the thread that answered is idle again. */
    private String runOne() throws Exception {
        String thread = pool.submit(() -> Thread.currentThread().getName()).get(5, TimeUnit.SECONDS);
        Thread.sleep(2);
        return thread;
    }

    @Test
    void oneClientAtATimeIsServedByOneThreadEvenAfterABurst() throws Exception {
        CountDownLatch hold = new CountDownLatch(1);
        CountDownLatch started = new CountDownLatch(4);
        for (int i = 0; i < 4; i++) {
            pool.execute(() -> {
                started.countDown();
                try {
                    hold.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
        }
        assertTrue(started.await(5, TimeUnit.SECONDS));
        assertEquals(4, pool.getPoolSize(), "a burst grows the pool to its maximum");
        hold.countDown();
        Thread.sleep(100);
        Set<String> threads = ConcurrentHashMap.newKeySet();
        for (int i = 0; i < 50; i++) {
            threads.add(runOne());
        }
        assertEquals(1, threads.size(), "sequential work stays on the most recently idle thread: " + threads);
    }

    @Test
    void sequentialWorkStartsNoMoreThreadsThanItNeeds() throws Exception {
        for (int i = 0; i < 20; i++) {
            runOne();
        }
        assertEquals(1, pool.getPoolSize());
    }

    @Test
    void beyondItsThreadsAndItsQueueThePoolRefuses() throws Exception {
        CountDownLatch hold = new CountDownLatch(1);
        for (int i = 0; i < 4; i++) {
            pool.execute(() -> {
                try {
                    hold.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
        }
        Future<String> queued1 = pool.submit(() -> "q1");
        Future<String> queued2 = pool.submit(() -> "q2");
        assertThrows(RejectedExecutionException.class, () -> pool.execute(() -> { }));
        assertEquals(4, pool.getPoolSize());
        hold.countDown();
        assertEquals("q1", queued1.get(5, TimeUnit.SECONDS));
        assertEquals("q2", queued2.get(5, TimeUnit.SECONDS));
    }

    @Test
    void manyClientsAtOnceAllGetTheirAnswers() throws Exception {
        Pools.Pool big = Pools.bounded("pools-test-big", 8, 10_000);
        try {
            CountDownLatch done = new CountDownLatch(5_000);
            Thread[] clients = new Thread[8];
            for (int c = 0; c < clients.length; c++) {
                clients[c] = new Thread(() -> {
                    for (int i = 0; i < 625; i++) {
                        while (true) {
                            try {
                                big.execute(done::countDown);
                                break;
                            } catch (RejectedExecutionException e) {
                                Thread.onSpinWait();
                            }
                        }
                    }
                });
                clients[c].start();
            }
            assertTrue(done.await(20, TimeUnit.SECONDS), "left: " + done.getCount());
            assertTrue(big.getPoolSize() <= 8);
        } finally {
            big.shutdownNow();
        }
    }

    @Test
    void aShrunkPoolEndsItsSurplusIdleThreads() throws Exception {
        CountDownLatch hold = new CountDownLatch(1);
        for (int i = 0; i < 4; i++) {
            pool.execute(() -> {
                try {
                    hold.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
        }
        hold.countDown();
        Thread.sleep(100);
        pool.resize(1, 2);
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (pool.getPoolSize() > 1 && System.nanoTime() < end) {
            Thread.sleep(10);
        }
        assertEquals(1, pool.getPoolSize());
        assertEquals("pools-test", runOne().replaceAll("-\\d+$", ""));
    }
}
