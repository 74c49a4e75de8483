package io.quiver.lib.external;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Starting a program as the leader of a session of its own, through util-linux's {@code setsid}
 * (Debian's essential package util-linux; {@code --wait} since 2.24). Linux only: elsewhere, or without
 * a {@code setsid} on Quiver's {@code PATH} that passes the check below, programs start as they are.
 *
 * <p>A process the JDK starts is never a process-group leader, so {@code setsid} does not fork: it calls
 * {@code setsid()} and executes the program in its own process, whose pid is then the one the JDK
 * reports, the session's id and its process group's id, and whose exit status is the program's.
 * {@code --wait} only matters should it fork anyway: it then waits and exits with the program's status
 * rather than at once with 0. The check runs it once (on first use) and takes it only when all of this
 * holds: same pid, a session led by it, the exit status passed on.
 */
final class Setsid {

    /** How long the check may take. */
    private static final long CHECK_MS = 5_000;

    private Setsid() {
    }

    /** The checked {@code setsid}, or empty where there is none. */
    static Optional<String> path() {
        return Holder.PATH;
    }

    /**
     * The command line that runs {@code command} in a session of its own, or {@code command} itself.
     * The program is looked up as the JDK looks it up (on Quiver's {@code PATH}, not the command's
     * environment's, which {@code setsid} would use) and given to {@code setsid} by its path; a program
     * that is not found is left to the JDK, which fails to start it with its usual error.
     */
    static List<String> wrap(List<String> command, Path directory) {
        Optional<String> setsid = path();
        if (setsid.isEmpty() || command.isEmpty()) {
            return command;
        }
        String program = resolve(command.get(0), directory);
        if (program == null) {
            return command;
        }
        List<String> wrapped = new ArrayList<>(command.size() + 2);
        wrapped.add(setsid.get());
        wrapped.add("--wait");
        wrapped.add(program);
        wrapped.addAll(command.subList(1, command.size()));
        return wrapped;
    }

    /** Whether a command line is one {@link #wrap} made: it starts a session. */
    static boolean wraps(List<String> command) {
        Optional<String> setsid = path();
        return setsid.isPresent() && command.size() > 2 && command.get(0).equals(setsid.get())
                && "--wait".equals(command.get(1));
    }

    /**
     * The program as {@code setsid} is to run it: a name with a {@code /} as it is (relative to the
     * working directory, as for the JDK), a bare name as the path of the first executable file of that
     * name on Quiver's {@code PATH} (a relative entry taken from the working directory); null when there
     * is none.
     */
    static String resolve(String program, Path directory) {
        if (program.isEmpty()) {
            return null;
        }
        if (program.indexOf('/') >= 0) {
            return executable(directory.resolve(program)) ? program : null;
        }
        String path = System.getenv("PATH");
        for (String entry : (path == null ? ":/bin:/usr/bin" : path).split(":", -1)) {
            Path candidate = directory.resolve(entry.isEmpty() ? "." : entry).resolve(program);
            if (executable(candidate)) {
                return candidate.toAbsolutePath().toString();
            }
        }
        return null;
    }

    private static boolean executable(Path file) {
        return Files.isRegularFile(file) && Files.isExecutable(file);
    }

    /** Found and checked once. */
    private static final class Holder {
        static final Optional<String> PATH = find();
    }

    private static Optional<String> find() {
        if (!ProcStat.available()) {
            return Optional.empty();
        }
        String setsid = resolve("setsid", Path.of("/"));
        if (setsid == null || !Files.isExecutable(Path.of("/bin/sh"))) {
            return Optional.empty();
        }
        boolean interrupted = Thread.interrupted(); // a call's interrupt must not decide it for the whole JVM
        Process p = null;
        try {
            // the shell reports its own stat line (read is a builtin: no process of its own) and exits with 3
            p = new ProcessBuilder(setsid, "--wait", "/bin/sh", "-c", "read -r l < /proc/$$/stat; echo \"$l\"; exit 3")
                    .redirectError(ProcessBuilder.Redirect.DISCARD).start();
            p.getOutputStream().close();
            String line;
            try (InputStream in = p.getInputStream()) {
                line = new String(in.readNBytes(4096), StandardCharsets.UTF_8).strip();
            }
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(CHECK_MS);
            while (p.isAlive() && System.nanoTime() < deadline) {
                try {
                    p.waitFor(deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
            if (p.isAlive() || p.exitValue() != 3) {
                return Optional.empty();
            }
            ProcStat stat = ProcStat.parse(line);
            return stat != null && stat.pid() == p.pid() && stat.leadsSession() ? Optional.of(setsid) : Optional.empty();
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        } finally {
            if (p != null && p.isAlive()) {
                p.destroyForcibly();
            }
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
