package io.quiver.lib.external;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

@EnabledOnOs({OS.LINUX, OS.MAC})
class ProcessTreeTest {

    @TempDir
    Path dir;

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
        assertTrue(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start) < 4_000,
                "processes that end on SIGTERM are not waited for until the grace is over");
        assertGone(child); // a zombie its new parent has not reaped yet has ended
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

    /** Starts {@code sh -c script} as the leader of a session of its own. */
    private Process startInOwnSession(String script) throws Exception {
        return new ProcessBuilder(ProcessTree.inOwnSession(List.of("sh", "-c", script), dir)).directory(dir.toFile())
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
    }

    @Test
    @EnabledOnOs(OS.LINUX)
    void aDoubleForkedProcessOfACommandInItsOwnSessionIsStopped() throws Exception {
        assumeTrue(ProcessTree.sessions(), "util-linux setsid");
        // the subshell writes its child's pid and exits, then the pid is printed: the sleep is nobody's descendant
        Process p = startInOwnSession("(sleep 300 & echo $! > pid); read -r c < pid; echo $c; sleep 300");
        ProcessHandle orphan = child(p);
        assertTrue(p.toHandle().descendants().noneMatch(orphan::equals), "not in the tree");
        ProcessTree.terminate(p, 5_000);
        assertTrue(p.waitFor(5, TimeUnit.SECONDS));
        assertGone(orphan);
    }

    @Test
    @EnabledOnOs(OS.LINUX)
    void whatTheCommandLeftIsStoppedAfterItExited() throws Exception {
        assumeTrue(ProcessTree.sessions(), "util-linux setsid");
        Process p = startInOwnSession("(trap '' TERM; sleep 300 & echo $!)"); // a leftover that ignores SIGTERM
        ProcessHandle left = child(p);
        assertEquals(0, p.waitFor());
        assertTrue(left.isAlive());
        ProcessTree.terminate(p, 300);
        assertGone(left);
    }

    @Test
    @EnabledOnOs(OS.LINUX)
    void inItsOwnSessionACommandHasItsPidOutputAndExitStatus() throws Exception {
        assumeTrue(ProcessTree.sessions(), "util-linux setsid");
        Process p = startInOwnSession("read -r l < /proc/$$/stat; echo \"$l\"; echo out; exit 7");
        List<String> lines = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).lines().toList();
        assertEquals(7, p.waitFor(), "setsid passes the exit status on");
        ProcStat stat = ProcStat.parse(lines.get(0));
        assertEquals(p.pid(), stat.pid(), "setsid did not fork: the JDK's process is the command");
        assertEquals(p.pid(), stat.session(), "it leads a session of its own");
        assertEquals(p.pid(), stat.pgrp(), "and a process group");
        assertEquals(List.of("out"), lines.subList(1, lines.size()));
    }

    @Test
    void aProgramThatIsNotFoundFailsToStartAsWithoutASession() throws Exception {
        IOException e = assertThrows(IOException.class, () -> new ProcessBuilder(
                ProcessTree.inOwnSession(List.of("no-such-program-of-quiver", "x"), dir)).start());
        assertTrue(e.getMessage().contains("no-such-program-of-quiver"), e.getMessage());
    }

    @Test
    void aProgramIsLookedUpOnQuiversPath() throws Exception {
        List<String> command = ProcessTree.inOwnSession(List.of("sh", "-c", "exit 0"), dir);
        assertEquals(List.of("-c", "exit 0"), command.subList(command.size() - 2, command.size()));
        if (ProcessTree.sessions()) {
            assertTrue(Path.of(command.get(2)).isAbsolute() && command.get(2).endsWith("/sh"), command.toString());
        } else {
            assertEquals(List.of("sh", "-c", "exit 0"), command);
        }
        Path script = Files.writeString(dir.resolve("here.sh"), "exit 4\n");
        script.toFile().setExecutable(true);
        Process p = new ProcessBuilder(ProcessTree.inOwnSession(List.of("./here.sh"), dir)).directory(dir.toFile()).start();
        assertEquals(4, p.waitFor(), "a relative path is the working directory's");
    }

    @Test
    void processesOutsideTheTreeAndItsSessionAreLeftAlone() throws Exception {
        Process bystander = new ProcessBuilder("sleep", "300").start(); // in this JVM's session
        try {
            Process plain = start("sleep 300 & echo $!; wait");
            ProcessHandle child = child(plain);
            ProcessTree.terminate(plain, 5_000);
            assertGone(child);
            Process own = startInOwnSession("sleep 300 & echo $!; wait");
            ProcessHandle ownChild = child(own);
            ProcessTree.terminate(own, 5_000);
            assertGone(ownChild);
            assertTrue(bystander.isAlive(), "this JVM's session is not a target");
        } finally {
            bystander.destroyForcibly();
        }
    }

    /** The process has ended (a zombie not reaped yet counts as ended), within a deadline. */
    private static void assertGone(ProcessHandle p) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (ProcessTree.running(p)) {
            assertTrue(System.nanoTime() < deadline, "process " + p.pid() + " is still running");
            Thread.sleep(10);
        }
    }
}
