package io.quiver.lib.external;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/**
 * The watchdog stops the sessions it watches when its input ends, as it does when the JVM that started them is
 * killed: {@link Watchdog#close} ends its input the way the kernel does at the JVM's end.
 */
@EnabledOnOs(OS.LINUX)
class WatchdogTest {

    @TempDir
    Path dir;

    private final Watchdog watchdog = new Watchdog();
    private final List<Process> started = new ArrayList<>();

    @BeforeEach
    void sessions() {
        assumeTrue(ProcessTree.sessions(), "util-linux setsid");
    }

    @AfterEach
    void stopAll() {
        watchdog.close();
        started.forEach(p -> ProcessTree.terminate(p, 100));
    }

    /** {@code sh -c script} leading a session of its own; the script's first line is the pid of a child it started. */
    private Process session(String script) throws Exception {
        Process p = new ProcessBuilder(ProcessTree.inOwnSession(List.of("sh", "-c", script), dir)).directory(dir.toFile())
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        started.add(p);
        return p;
    }

    private static ProcessHandle child(Process p) throws Exception {
        BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        return ProcessHandle.of(Long.parseLong(out.readLine().trim())).orElseThrow();
    }

    /** Ends the watchdog's input and waits for its end, by which it has stopped what it stops. */
    private void endInput() throws Exception {
        Process process = watchdog.process();
        assertNotNull(process, "a watchdog was started");
        watchdog.close();
        assertTrue(process.waitFor(15, TimeUnit.SECONDS), "the watchdog ends once its input ends");
    }

    @Test
    void aWatchedSessionIsStoppedWhenTheWatchdogsInputEnds() throws Exception {
        Process p = session("sleep 300 & echo $!; sleep 301 & wait");
        ProcessHandle child = child(p);
        watchdog.watch(p.pid());
        assertTrue(child.isAlive() && p.isAlive());
        endInput();
        assertTrue(p.waitFor(5, TimeUnit.SECONDS), "the session's leader was stopped");
        assertGone(child);
    }

    @Test
    void whatTheSessionLeftBehindIsStoppedTooAfterItsLeaderExited() throws Exception {
        // the leader exits at once, leaving an orphan in its session, as a daemonising script does
        Process p = session("sleep 300 & echo $!");
        ProcessHandle orphan = child(p);
        watchdog.watch(p.pid());
        assertTrue(p.waitFor(5, TimeUnit.SECONDS));
        assertTrue(orphan.isAlive());
        endInput();
        assertGone(orphan);
    }

    @Test
    void whatIgnoresSigtermIsKilledAfterTheGrace() throws Exception {
        Process p = session("trap '' TERM; echo $$; while :; do sleep 1; done");
        ProcessHandle shell = child(p);
        watchdog.watch(p.pid());
        long start = System.nanoTime();
        endInput();
        assertTrue(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start) >= Watchdog.GRACE_MS - 200,
                "SIGTERM first, SIGKILL after the grace");
        assertGone(shell);
    }

    @Test
    void aSessionLetGoIsLeftRunning() throws Exception {
        Process kept = session("echo $$; exec sleep 300");
        Process stopped = session("echo $$; exec sleep 300");
        child(kept);
        child(stopped);
        watchdog.watch(kept.pid());
        watchdog.watch(stopped.pid());
        watchdog.release(kept.pid());
        assertEquals(java.util.Set.of(stopped.pid()), watchdog.watched());
        endInput();
        assertTrue(stopped.waitFor(5, TimeUnit.SECONDS));
        assertTrue(kept.isAlive(), "a session let go is not the watchdog's any more");
    }

    @Test
    void aWatchdogThatDiedIsStartedAgainWithEverySessionWatched() throws Exception {
        Process first = session("echo $$; exec sleep 300");
        child(first);
        watchdog.watch(first.pid());
        Process dead = watchdog.process();
        dead.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
        Process second = session("echo $$; exec sleep 300");
        child(second);
        watchdog.watch(second.pid());
        assertNotSame(dead, watchdog.process(), "a new watchdog");
        endInput();
        assertTrue(first.waitFor(5, TimeUnit.SECONDS), "the session watched before its death is stopped");
        assertTrue(second.waitFor(5, TimeUnit.SECONDS));
    }

    @Test
    void noWatchdogRunsForNothing() throws Exception {
        watchdog.release(42);
        assertEquals(null, watchdog.process());
        Process p = session("echo $$; exec sleep 300");
        child(p);
        watchdog.watch(p.pid());
        watchdog.release(p.pid());
        Process process = watchdog.process();
        watchdog.close();
        assertTrue(process.waitFor(5, TimeUnit.SECONDS));
        assertTrue(p.isAlive());
    }

    @Test
    void aProcessStartedInASessionIsWatchedUntilItsStopFindsNothingOfItRunning() throws Exception {
        Process p = ProcessTree.start(new ProcessBuilder(ProcessTree.inOwnSession(List.of("sh", "-c",
                "sleep 300 & echo $!; wait"), dir)).directory(dir.toFile()));
        started.add(p);
        ProcessHandle child = child(p);
        assertTrue(Watchdog.shared().watched().contains(p.pid()));
        ProcessTree.terminate(p, 2_000);
        assertGone(child);
        assertFalse(Watchdog.shared().watched().contains(p.pid()), "let go once stopped");
        Process plain = ProcessTree.start(new ProcessBuilder("sh", "-c", "exit 0"));
        assertFalse(Watchdog.shared().watched().contains(plain.pid()), "not in a session of its own: not watched");
    }

    private static void assertGone(ProcessHandle p) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (ProcessTree.running(p)) {
            assertTrue(System.nanoTime() < deadline, "process " + p.pid() + " is still running");
            Thread.sleep(10);
        }
    }
}
