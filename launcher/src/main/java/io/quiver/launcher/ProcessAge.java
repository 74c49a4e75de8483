package io.quiver.launcher;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalLong;

/**
 * How long ago this process started, for the start line ({@code Quiver started in N ms}). On Linux
 * from {@code /proc} to the clock tick (10 ms): the process's start in ticks since boot against the
 * time since boot. The JDK's {@code ProcessHandle.Info.startInstant()} adds the boot time, which Linux
 * gives in whole seconds, so its figure was up to a second off. The start is the process's, not the
 * JVM's: the {@code quiver} script's own time counts, as the user waits for it too, except a build it ran
 * first, which it passes on in {@code QUIVER_BUILD_MS} (it then execs Java in the same process).
 */
final class ProcessAge {

    /** Clock ticks per second in /proc (USER_HZ, 100 on every Linux architecture the JDK runs on). */
    private static final long TICKS_PER_SECOND = 100;

    private ProcessAge() {
    }

    /** The age in milliseconds, less the script's build; empty where /proc does not say (not Linux). */
    static OptionalLong millis() {
        try {
            OptionalLong age = of(Files.readString(Path.of("/proc/self/stat")), Files.readString(Path.of("/proc/uptime")));
            long build = buildMillis(System.getenv("QUIVER_BUILD_MS"));
            return age.isPresent() && age.getAsLong() >= build ? OptionalLong.of(age.getAsLong() - build) : age;
        } catch (IOException | RuntimeException e) {
            return OptionalLong.empty();
        }
    }

    /** The build's milliseconds the {@code quiver} script reports, 0 for none or nonsense. */
    static long buildMillis(String reported) {
        try {
            return reported == null ? 0 : Math.max(0, Long.parseLong(reported.trim()));
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    /**
     * @param stat   the text of {@code /proc/<pid>/stat}: the start time is the 22nd field, counted
     *               after the command name in parentheses (which may hold spaces and parentheses)
     * @param uptime the text of {@code /proc/uptime}: seconds since boot, then idle seconds
     */
    static OptionalLong of(String stat, String uptime) {
        int end = stat.lastIndexOf(')');
        String[] fields = stat.substring(end + 1).trim().split(" +");
        if (end < 0 || fields.length < 20) {
            return OptionalLong.empty();
        }
        long startedMs = Long.parseLong(fields[19]) * 1000 / TICKS_PER_SECOND; // field 22; fields[0] is the 3rd
        long nowMs = Math.round(Double.parseDouble(uptime.trim().split(" +")[0]) * 1000);
        return nowMs >= startedMs ? OptionalLong.of(nowMs - startedMs) : OptionalLong.empty();
    }
}
