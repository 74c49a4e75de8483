package io.quiver.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

class ProcessAgeTest {

    @Test
    void readsTheStartTicksAfterACommandNameWithSpacesAndParentheses() {
        // pid (comm) state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime stime cutime
        // cstime priority nice threads itrealvalue starttime ...
        String stat = "4242 (my (odd) name) S 1 4242 4242 0 -1 4194560 100 0 0 0 5 3 0 0 20 0 12 0 123456 9999 77";
        assertEquals(OptionalLong.of(1_000), ProcessAge.of(stat, "1235.56 2400.10\n"));
    }

    @Test
    void saysNothingForTextItCannotRead() {
        assertEquals(OptionalLong.empty(), ProcessAge.of("4242 (short) S 1", "10.00 5.00"));
        // a start after "now" is no age
        assertEquals(OptionalLong.empty(), ProcessAge.of(
                "1 (x) S 0 0 0 0 -1 0 0 0 0 0 0 0 0 0 20 0 1 0 900 0 0", "8.00 1.00"));
    }

    @Test
    void takesOutOnlyABuildTimeItCanRead() {
        assertEquals(24_190, ProcessAge.buildMillis(" 24190\n"));
        assertEquals(0, ProcessAge.buildMillis(null));
        assertEquals(0, ProcessAge.buildMillis("-5"));
        assertEquals(0, ProcessAge.buildMillis("soon"));
    }

    @Test
    @EnabledOnOs(OS.LINUX)
    void agreesWithTheJvmsOwnUptimeToTheTick() {
        long jvmUptime = ManagementFactory.getRuntimeMXBean().getUptime();
        long age = ProcessAge.millis().orElseThrow();
        // the process began a little before the JVM counts (its own set-up, a launcher script): never
        // after it, and not a second before (the figure from the JDK's boot time in whole seconds could be)
        assertTrue(age >= jvmUptime - 20 && age <= jvmUptime + 500, "process age " + age + " ms, JVM uptime " + jvmUptime + " ms");
    }
}
