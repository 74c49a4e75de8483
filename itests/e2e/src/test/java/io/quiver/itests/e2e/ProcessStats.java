package io.quiver.itests.e2e;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a server process holds at one moment, read from outside: threads and resident memory from
 * {@code /proc/<pid>/status} (Linux), and the heap in use after a full garbage collection asked for
 * with {@code jcmd}. A leak of one bundle is measured by {@link #loadersDefining}: a bundle that was
 * uninstalled and refreshed leaves no class loader behind unless something still references it. (All
 * the bundle class loaders together are no measure of that: Felix makes a bundle's loader when the
 * bundle loads its first class, so a platform bundle first used late adds one.)
 *
 * @param threads the process's threads
 * @param rssKiB resident memory
 * @param heapUsedKiB the heap in use after a full GC
 */
record ProcessStats(int threads, long rssKiB, long heapUsedKiB) {

    private static final Pattern HEAP_USED = Pattern.compile("total \\d+K, used (\\d+)K");

    /** Whether this machine can be measured this way ({@code /proc} and {@code jcmd} present). */
    static boolean available() {
        return Files.isReadable(Path.of("/proc/self/status")) && Files.isExecutable(jcmd());
    }

    /** Collects garbage in the process, then measures it. */
    static ProcessStats of(long pid) throws IOException, InterruptedException {
        jcmd(pid, "GC.run");
        Matcher heap = HEAP_USED.matcher(jcmd(pid, "GC.heap_info"));
        if (!heap.find()) {
            throw new IllegalStateException("no heap figure from jcmd GC.heap_info");
        }
        List<String> status = Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"));
        return new ProcessStats((int) field(status, "Threads:"), field(status, "VmRSS:"),
                Long.parseLong(heap.group(1)));
    }

    /**
     * Collects garbage in the process, then counts the class loaders that defined a class of this
     * name (each revision of a bundle has a loader of its own that defines its classes again).
     */
    static int loadersDefining(long pid, String className) throws IOException, InterruptedException {
        jcmd(pid, "GC.run");
        String suffix = " " + className;
        return (int) jcmd(pid, "VM.classloaders", "show-classes").lines().filter(l -> l.endsWith(suffix)).count();
    }

    private static long field(List<String> status, String name) {
        for (String line : status) {
            if (line.startsWith(name)) {
                return Long.parseLong(line.substring(name.length()).trim().split("\\s+")[0]);
            }
        }
        throw new IllegalStateException("no " + name + " in /proc status");
    }

    private static String jcmd(long pid, String... command) throws IOException, InterruptedException {
        List<String> line = new ArrayList<>(List.of(jcmd().toString(), Long.toString(pid)));
        line.addAll(List.of(command));
        Process p = new ProcessBuilder(line).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
            p.destroyForcibly();
            throw new IllegalStateException("jcmd " + String.join(" ", command) + " failed: " + out);
        }
        return out;
    }

    private static Path jcmd() {
        return Path.of(System.getProperty("java.home"), "bin", "jcmd");
    }

    @Override
    public String toString() {
        return threads + " threads, RSS " + rssKiB / 1024 + " MiB, heap used " + heapUsedKiB / 1024 + " MiB after GC";
    }
}
