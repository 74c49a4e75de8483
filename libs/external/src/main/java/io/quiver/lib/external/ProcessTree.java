package io.quiver.lib.external;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * Stopping a child process together with every process it started: SIGTERM to all of them at once,
 * then, after a grace, SIGKILL to whatever is left, including what the survivors started meanwhile.
 *
 * <p>What a child started is found two ways. Everywhere: the descendants the operating system shows
 * when it is stopped. A process that left that tree before (a daemon that detached itself by a double
 * fork, an orphan whose parent already exited) is not among them. On Linux, besides: every process of
 * the session a child leads, as one started through {@link #inOwnSession} does. A double fork does not
 * leave a session; only a process that calls {@code setsid()} itself (or is started by another
 * service, such as systemd) does, and stays out of reach.
 *
 * <p>Why sessions, found in {@code /proc}, and not {@code kill -TERM -- -PGID}: a session holds every
 * process group its members make (a shell with job control, {@code timeout}, {@code make} put children
 * in groups of their own), while a group kill reaches one group; Java cannot send a signal to a group
 * without a helper process per kill, whose number it would have to trust; and {@code /proc/PID/stat}
 * names each member's session, so each one is signalled by its own {@link ProcessHandle}, whose start
 * time the JDK checks, so a pid reused meanwhile is not hit. The session looked for is the pid of a
 * process this JVM started: only that process can have made a session of that number (a process may
 * make only a session of its own pid), and Linux gives no new process that number while a member of
 * the session lives. A process that does not lead a session (it was not started in one, or
 * {@code setsid} has not run yet) has no session of that number, so its tree alone is stopped. The
 * session of this JVM is never a target.
 */
public final class ProcessTree {

    /** How often a stop looks whether the tree is gone. */
    private static final long POLL_MS = 10;
    /** How often SIGKILL is sent at most, each time to what is still running, new processes included. */
    private static final int KILL_ROUNDS = 20;

    private ProcessTree() {
    }

    /**
     * The command line that starts {@code command} as the leader of a session of its own (Linux with
     * util-linux's {@code setsid}), so that {@link #terminate} reaches every process it starts, or
     * {@code command} as it is where that is not possible. Started so, the process has the pid, the
     * output and the exit status of the command itself; its program is looked up on Quiver's
     * {@code PATH} as the JDK would, and passed by its path.
     *
     * @param directory the working directory the command will be started in
     */
    public static List<String> inOwnSession(List<String> command, Path directory) {
        return Setsid.wrap(command, directory);
    }

    /**
     * Starts a process; one started through {@link #inOwnSession} has its session watched until {@link #terminate}
     * finds nothing of it running: should this JVM end without stopping it (killed, or a fault), a watchdog process
     * stops it, see {@link Watchdog}.
     */
    public static Process start(ProcessBuilder builder) throws IOException {
        Process p = builder.start();
        if (Setsid.wraps(builder.command())) {
            Watchdog.shared().watch(p.pid());
        }
        return p;
    }

    /** Whether {@link #inOwnSession} starts sessions on this system. */
    public static boolean sessions() {
        return Setsid.path().isPresent();
    }

    /** Stops a process and what it started: SIGTERM, then SIGKILL to what is left after {@code graceMs}. */
    public static void terminate(Process process, long graceMs) {
        terminate(List.of(process.toHandle()), graceMs);
    }

    /**
     * Stops processes this JVM started and what they started (their descendants and, on Linux, the
     * members of the sessions they lead): SIGTERM to every one, a wait of up to {@code graceMs} for them
     * to exit, then SIGKILL to every one left and to what those started in the meantime. Roots that
     * have exited already are fine: the members of their sessions are still found and stopped. An
     * interrupt ends the wait early (the kill still follows) and stays set.
     */
    public static void terminate(Collection<ProcessHandle> roots, long graceMs) {
        Set<ProcessHandle> tree = tree(roots, roots);
        if (tree.stream().noneMatch(ProcessTree::running)) {
            release(roots);
            return; // nothing runs that could start anything
        }
        tree.forEach(ProcessHandle::destroy);
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(graceMs);
        boolean interrupted = false;
        while (tree.stream().anyMatch(ProcessTree::running) && System.nanoTime() < deadline && !interrupted) {
            interrupted = pause();
        }
        for (int round = 0; round < KILL_ROUNDS; round++) {
            List<ProcessHandle> left = tree(roots, tree.stream().filter(ProcessTree::running).toList()).stream()
                    .filter(ProcessTree::running).toList();
            if (left.isEmpty()) {
                release(roots); // the sessions too: nothing of them is left for the watchdog
                break;
            }
            left.forEach(ProcessHandle::destroyForcibly);
            tree = new LinkedHashSet<>(left);
            interrupted |= pause();
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /** Lets the watchdog forget the sessions of roots, nothing of which runs now. */
    private static void release(Collection<ProcessHandle> roots) {
        roots.forEach(r -> Watchdog.shared().release(r.pid())); // a process it never watched is nothing to it
    }

    /** Sleeps a poll's time; true when interrupted. */
    private static boolean pause() {
        try {
            Thread.sleep(POLL_MS);
            return false;
        } catch (InterruptedException e) {
            return true;
        }
    }

    /**
     * The processes of {@code from} with their descendants (descendants first), and the members of the
     * sessions of {@code roots} and of those among them that lead one.
     */
    private static Set<ProcessHandle> tree(Collection<ProcessHandle> roots, Collection<ProcessHandle> from) {
        Set<ProcessHandle> tree = new LinkedHashSet<>();
        for (ProcessHandle p : from) {
            p.descendants().forEach(tree::add);
            tree.add(p);
        }
        Optional<ProcStat> self = ProcStat.self();
        if (self.isEmpty()) {
            return tree; // no /proc: the descendants are all there is to know
        }
        Set<Long> sessions = new HashSet<>();
        roots.forEach(r -> sessions.add(r.pid()));
        for (ProcessHandle p : tree) {
            ProcStat.of(p.pid()).filter(ProcStat::leadsSession).ifPresent(s -> sessions.add(s.session()));
        }
        sessions.remove(self.get().session());
        sessions.remove(self.get().pid());
        sessions.removeIf(sid -> sid <= 1);
        if (!sessions.isEmpty()) {
            tree.addAll(members(sessions, self.get().pid()));
        }
        return tree;
    }

    /**
     * The running processes of some sessions. Each one's handle is taken before its session is read
     * again: the handle pins the process (its start time), the second read proves that process a member.
     */
    private static List<ProcessHandle> members(Set<Long> sessions, long self) {
        return ProcStat.all().stream()
                .filter(s -> sessions.contains(s.session()) && !s.exited() && s.pid() != self)
                .flatMap(s -> ProcessHandle.of(s.pid()).stream())
                .filter(h -> ProcStat.of(h.pid()).filter(s -> sessions.contains(s.session()) && !s.exited()).isPresent())
                .toList();
    }

    /** Whether a process is running: alive and, where {@code /proc} tells, not a zombie waiting to be reaped. */
    static boolean running(ProcessHandle p) {
        if (!p.isAlive()) {
            return false;
        }
        if (!ProcStat.available()) {
            return true;
        }
        return ProcStat.of(p.pid()).filter(s -> !s.exited()).isPresent();
    }
}
