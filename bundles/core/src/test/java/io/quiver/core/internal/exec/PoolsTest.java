package io.quiver.core.internal.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class PoolsTest {

    private final Pools.Pool pool = Pools.bounded("test", 4, 2);

    @AfterEach
    void stop() {
        pool.shutdownNow();
    }

    @Test
    void oneTaskAfterTheOtherNeedsOneThread() throws Exception {
        for (int i = 0; i < 200; i++) {
            pool.submit(() -> { }).get(5, TimeUnit.SECONDS);
            // the thread is idle again once it waits for the next task: that task finds it
            for (int wait = 0; wait < 5_000 && pool.idleThreads() < pool.getPoolSize(); wait++) {
                Thread.sleep(1);
            }
        }
        assertEquals(1, pool.getPoolSize(), "no thread is started while one is idle");
    }

    @Test
    void tasksRunAtOnceUpToTheLimitThenWaitInTheBoundedQueueThenAreRefused() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch running = new CountDownLatch(4);
        for (int i = 0; i < 4; i++) {
            pool.execute(() -> {
                running.countDown();
                await(release);
            });
        }
        assertTrue(running.await(5, TimeUnit.SECONDS), "four tasks run at once on four threads");
        Future<?> queued1 = pool.submit(() -> { });
        Future<?> queued2 = pool.submit(() -> { });
        assertEquals(2, pool.getQueue().size());
        assertThrows(RejectedExecutionException.class, () -> pool.execute(() -> { }));
        release.countDown();
        queued1.get(5, TimeUnit.SECONDS);
        queued2.get(5, TimeUnit.SECONDS);
        assertEquals(4, pool.getLargestPoolSize());
    }

    @Test
    void aLargerLimitStartsMoreThreads() throws Exception {
        pool.resize(6, 2);
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch running = new CountDownLatch(6);
        for (int i = 0; i < 6; i++) {
            pool.execute(() -> {
                running.countDown();
                await(release);
            });
        }
        assertTrue(running.await(5, TimeUnit.SECONDS));
        release.countDown();
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
