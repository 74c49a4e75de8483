package io.quiver.core.internal.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class WatchdogTest {

    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
    private final Watchdog watchdog = new Watchdog(timer);

    @AfterEach
    void stop() {
        timer.shutdownNow();
    }

    @Test
    void aDeadlineThatPassesFiresOnceNoEarlierThanItsTime() throws Exception {
        CountDownLatch fired = new CountDownLatch(1);
        AtomicInteger times = new AtomicInteger();
        long t0 = System.nanoTime();
        watchdog.watch(100, () -> {
            times.incrementAndGet();
            fired.countDown();
        });
        assertTrue(fired.await(5, TimeUnit.SECONDS));
        assertTrue(System.nanoTime() - t0 >= TimeUnit.MILLISECONDS.toNanos(100));
        Thread.sleep(Watchdog.TICK_MS * 5);
        assertEquals(1, times.get());
        assertEquals(0, watchdog.size());
    }

    @Test
    void aClosedDeadlineNeverFiresAndTheTickingStopsWhenNothingIsWatched() throws Exception {
        AtomicInteger fired = new AtomicInteger();
        for (int i = 0; i < 1_000; i++) {
            watchdog.watch(50, fired::incrementAndGet).close();
        }
        Thread.sleep(200);
        assertEquals(0, fired.get());
        assertEquals(0, watchdog.size());
        // once idle it no longer wakes the timer: the next deadline still fires
        CountDownLatch late = new CountDownLatch(1);
        watchdog.watch(10, late::countDown);
        assertTrue(late.await(5, TimeUnit.SECONDS));
        assertFalse(timer.isShutdown());
    }

    @Test
    void deadlinesAddedWhileTickingStopsAreNotLost() throws Exception {
        int n = 2_000;
        CountDownLatch all = new CountDownLatch(n);
        for (int i = 0; i < n; i++) {
            watchdog.watch(i % 7, all::countDown);
            if (i % 100 == 0) {
                Thread.sleep(Watchdog.TICK_MS);
            }
        }
        assertTrue(all.await(10, TimeUnit.SECONDS), "left: " + all.getCount());
    }
}
