package io.quiver.lib.external;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

@EnabledOnOs({OS.LINUX, OS.MAC})
class ProcessTreeTest {

    /** Starts {@code sh -c script}, whose first line of output is the pid of the child it started. */
    private static Process start(String script) throws Exception {
        return new ProcessBuilder("sh", "-c", script).redirectError(ProcessBuilder.Redirect.DISCARD).start();
    }

    private static ProcessHandle child(Process p) throws Exception {
        BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        long pid = Long.parseLong(out.readLine().trim());
        return ProcessHandle.of(pid).orElseThrow();
    }

    @Test
    void theProcessAndWhatItStartedAreStopped() throws Exception {
        Process p = start("sleep 300 & echo $!; wait");
        ProcessHandle child = child(p);
        assertTrue(child.isAlive());
        long start = System.nanoTime();
        ProcessTree.terminate(p, 5_000);
        assertTrue(p.waitFor(5, TimeUnit.SECONDS));
        assertFalse(child.isAlive(), "the child is gone too");
        assertTrue(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start) < 4_000,
                "processes that end on SIGTERM are not waited for until the grace is over");
    }

    @Test
    void whatIgnoresSigtermIsKilledAfterTheGrace() throws Exception {
        Process p = start("trap '' TERM; sh -c 'trap \"\" TERM; echo $$; while :; do sleep 1; done' & wait");
        ProcessHandle child = child(p);
        long start = System.nanoTime();
        ProcessTree.terminate(List.of(p.toHandle()), 300);
        assertTrue(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start) >= 300, "the grace was given");
        assertTrue(p.waitFor(5, TimeUnit.SECONDS));
        assertTrue(child.onExit().toCompletableFuture().get(10, TimeUnit.SECONDS) != null);
        assertFalse(child.isAlive());
    }
}
