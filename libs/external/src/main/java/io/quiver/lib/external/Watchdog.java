package io.quiver.lib.external;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Stops the sessions of this JVM's child processes when the JVM ends without stopping them itself: killed
 * (SIGKILL, the kernel's out-of-memory killer), or ended by a fault. Quiver stops what it started when it stops
 * cleanly ({@link ProcessTree#terminate}); a process started in a session of its own ({@link ProcessTree#inOwnSession})
 * is out of reach of any signal sent to Quiver's process group, and a child that does not end on end of input (a
 * command tool's {@code sleep}, a stdio server with a timer running) would run on with no one to stop it.
 *
 * <p>The watchdog is a shell in a session of its own ({@code sh -c ... quiver-watchdog PID}, PID the JVM's), started
 * at the first session to watch, reading lines on its
 * stdin: {@code + SID} to watch a session, {@code - SID} to let it go. Its stdin is a pipe only this JVM holds (the
 * JDK closes every other descriptor in the processes it starts), so however the JVM ends, the kernel closes it and
 * the shell reads the end of its input: it then sends SIGTERM to every process of the sessions still watched (found
 * in {@code /proc}), waits {@value #GRACE_MS} ms at most, and sends SIGKILL to what is left. A session is let go
 * once {@link ProcessTree#terminate} has found nothing of it running; a clean stop leaves the watchdog nothing to do.
 * Linux only, where {@link ProcessTree#sessions} holds; a watchdog that died (someone killed it) is started again at
 * the next change, with every session still watched.
 */
final class Watchdog {

    /** How long the processes of a watched session get to end on SIGTERM before SIGKILL. */
    static final long GRACE_MS = 2_000;

    /**
     * The watchdog's program (POSIX sh). {@code members} lists the live processes (not zombies) whose session is
     * watched, reading the fields of {@code /proc/PID/stat} after the command name, which may hold spaces and
     * parentheses: state, parent, process group, session.
     */
    static final String SCRIPT = """
            trap '' HUP INT PIPE
            sids=' '
            while read -r op sid; do
              case $op in
                +) sids="$sids$sid " ;;
                -) case $sids in *" $sid "*) sids="${sids%% "$sid" *} ${sids#* "$sid" }" ;; esac ;;
              esac
            done
            [ "$sids" = ' ' ] && exit 0
            members() {
              for d in /proc/[0-9]*; do
                { read -r s < "$d/stat"; } 2>/dev/null || continue
                set -- ${s##*') '}
                case $1 in Z|X) continue ;; esac
                case $sids in *" $4 "*) printf '%s ' "${d#/proc/}" ;; esac
              done
            }
            p=$(members)
            [ -n "$p" ] || exit 0
            kill -TERM $p 2>/dev/null
            n=0
            while [ $n -lt ROUNDS ]; do
              sleep 0.1
              p=$(members)
              [ -n "$p" ] || exit 0
              n=$((n + 1))
            done
            n=0
            while [ -n "$p" ] && [ $n -lt 20 ]; do
              kill -KILL $p 2>/dev/null
              sleep 0.1
              p=$(members)
              n=$((n + 1))
            done
            """.replace("ROUNDS", Long.toString(GRACE_MS / 100));

    /** The watchdog's name in the process list, followed by the pid of the JVM it watches for. */
    static final String NAME = "quiver-watchdog";

    private final Set<Long> watched = new LinkedHashSet<>();
    private Process process;
    private OutputStream stdin;

    /** The watchdog of this JVM (of this copy of the library: each bundle that embeds it has its own). */
    static Watchdog shared() {
        return Holder.SHARED;
    }

    /** Watches the session a process started through {@link ProcessTree#inOwnSession} leads (its id is the pid). */
    synchronized void watch(long session) {
        if (watched.add(session)) {
            send("+ " + session);
        }
    }

    /** Lets a session go: nothing of it runs. */
    synchronized void release(long session) {
        if (watched.remove(session)) {
            send("- " + session);
        }
    }

    /** The sessions watched now. */
    synchronized Set<Long> watched() {
        return Set.copyOf(watched);
    }

    /** The watchdog's process, or null before the first session (tests). */
    synchronized Process process() {
        return process;
    }

    /**
     * Ends the watchdog's input as the JVM's end would: it stops the sessions still watched and exits. A later
     * {@link #watch} starts a new one (tests).
     */
    synchronized void close() {
        if (stdin != null) {
            try {
                stdin.close();
            } catch (IOException e) {
                // gone already
            }
        }
        process = null;
        stdin = null;
    }

    private void send(String line) {
        if (process != null && process.isAlive()) {
            try {
                stdin.write((line + "\n").getBytes(StandardCharsets.US_ASCII));
                stdin.flush();
                return;
            } catch (IOException e) {
                // it died meanwhile: another one, below
            }
        }
        close(); // the pipe to one that died
        if (watched.isEmpty()) {
            return; // nothing to watch: none is started for that
        }
        try {
            start(); // with every session watched: the line is among them
        } catch (IOException e) {
            close(); // none runs now; the next change tries again
        }
    }

    private void start() throws IOException {
        String setsid = Setsid.path().orElse(null);
        if (setsid == null) {
            return;
        }
        // named in the process list with the JVM's pid: sh -c SCRIPT quiver-watchdog PID
        ProcessBuilder builder = new ProcessBuilder(List.of(setsid, "/bin/sh", "-c", SCRIPT, NAME,
                Long.toString(ProcessHandle.current().pid())))
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(ProcessBuilder.Redirect.DISCARD);
        String path = System.getenv("PATH");
        builder.environment().clear();
        builder.environment().put("PATH", path == null ? "/usr/bin:/bin" : path);
        Process p = builder.start();
        OutputStream in = p.getOutputStream();
        StringBuilder all = new StringBuilder();
        for (long session : watched) {
            all.append("+ ").append(session).append('\n');
        }
        in.write(all.toString().getBytes(StandardCharsets.US_ASCII));
        in.flush();
        process = p;
        stdin = in;
    }

    private static final class Holder {
        static final Watchdog SHARED = new Watchdog();
    }
}
