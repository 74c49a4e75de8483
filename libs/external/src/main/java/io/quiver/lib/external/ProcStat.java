package io.quiver.lib.external;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What Linux's {@code /proc/PID/stat} says of a process: its parent, process group, session and
 * state. Elsewhere (no {@code /proc}) there is nothing to read: {@link #available()} is false.
 *
 * @param state {@code R}, {@code S}, {@code D}, ...; {@code Z} for a zombie (it has exited and waits for
 *     its parent to reap it), {@code X} for one being removed
 */
record ProcStat(long pid, long ppid, long pgrp, long session, char state) {

    private static final Path PROC = Path.of("/proc");
    private static final boolean AVAILABLE = System.getProperty("os.name", "").startsWith("Linux")
            && Files.isReadable(PROC.resolve("self").resolve("stat"));

    /** Whether this system has {@code /proc/PID/stat}. */
    static boolean available() {
        return AVAILABLE;
    }

    /** The process has exited (or is being removed) but is still listed. */
    boolean exited() {
        return state == 'Z' || state == 'X';
    }

    /** The process leads a session: it called {@code setsid()}, its session id is its pid. */
    boolean leadsSession() {
        return session == pid;
    }

    /** A process now, or empty when there is none with that pid (or no {@code /proc}). */
    static Optional<ProcStat> of(long pid) {
        if (!AVAILABLE) {
            return Optional.empty();
        }
        try {
            return Optional.ofNullable(parse(Files.readString(PROC.resolve(Long.toString(pid)).resolve("stat"))));
        } catch (IOException | RuntimeException e) {
            return Optional.empty(); // gone meanwhile
        }
    }

    /** This JVM's own process. */
    static Optional<ProcStat> self() {
        return of(ProcessHandle.current().pid());
    }

    /** Every process now (empty without {@code /proc}). */
    static List<ProcStat> all() {
        List<ProcStat> all = new ArrayList<>();
        if (!AVAILABLE) {
            return all;
        }
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(PROC)) {
            for (Path entry : entries) {
                String name = entry.getFileName().toString();
                if (!name.isEmpty() && name.chars().allMatch(c -> c >= '0' && c <= '9')) {
                    of(Long.parseLong(name)).ifPresent(all::add);
                }
            }
        } catch (IOException | RuntimeException e) {
            // what was read so far
        }
        return all;
    }

    /**
     * One {@code stat} line: {@code pid (comm) state ppid pgrp session ...}. The command name may hold
     * spaces and parentheses, so the fields are counted from the last {@code ')'}.
     */
    static ProcStat parse(String stat) {
        int close = stat.lastIndexOf(')');
        if (close < 0) {
            return null;
        }
        String[] fields = stat.substring(close + 1).trim().split(" ", 5);
        if (fields.length < 4 || fields[0].isEmpty()) {
            return null;
        }
        long pid = Long.parseLong(stat.substring(0, stat.indexOf(' ')).trim());
        return new ProcStat(pid, Long.parseLong(fields[1]), Long.parseLong(fields[2]), Long.parseLong(fields[3]),
                fields[0].charAt(0));
    }
}
