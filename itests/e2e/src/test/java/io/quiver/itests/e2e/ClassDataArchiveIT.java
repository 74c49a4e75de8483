package io.quiver.itests.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The {@code quiver} script's class data archive, which the JVM writes at the first run's exit and later runs
 * map, and its storage template, which the first whole run makes as it stops and later runs start from. The script
 * runs from a folder of the test's own, with the built jar linked into it, so what it writes is the test's.
 */
class ClassDataArchiveIT {

    private static final String READY = "Quiver MCP endpoint: ";

    /**
     * A first run whose start fails (the port is taken) still leaves an archive at its exit, one without the
     * classes of serving: kept, it made every later start ~140 ms slower (docs/BENCHMARKS.md). The next run
     * drops it and writes a whole one; the run after that uses it as it is.
     */
    @Test
    void anArchiveFromAFailedStartIsReplacedByTheNextRun() throws Exception {
        Path root = Files.createDirectories(Path.of("target", "script-" + System.nanoTime())).toAbsolutePath();
        Path jar = Path.of(System.getProperty("quiver.jar")).toAbsolutePath().normalize();
        Path script = root.resolve("quiver");
        Files.copy(jar.getParent().getParent().getParent().resolve("quiver"), script);
        Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
        Path target = Files.createDirectories(root.resolve("launcher").resolve("target"));
        Files.createSymbolicLink(target.resolve("quiver.jar"), jar);
        Files.createDirectories(root.resolve("etc"));

        try (ServerSocket taken = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            Process failing = start(root, Integer.toString(taken.getLocalPort()));
            String out = new String(failing.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(failing.waitFor(60, TimeUnit.SECONDS));
            assertEquals(1, failing.exitValue(), out + log(root));
        }
        Path archive = archive(target);
        long partial = Files.size(archive);
        assertFalse(Files.exists(marker(archive)), "the failed start did not say it got through");
        Path templates = target.resolve("quiver-storage");
        assertEquals(List.of(), entries(templates), "the failed start (after its install) made no storage template");

        Process serving = start(root, "0");
        BufferedReader servingOut = awaitEndpoint(serving, root);
        // written just after the endpoint line
        Await.until(() -> Files.exists(marker(archive)), java.time.Duration.ofSeconds(20), () -> "no marker" + log(root));
        serving.toHandle().destroy(); // SIGTERM; Process.destroy would also close its stdout, which is read below
        assertTrue(serving.waitFor(60, TimeUnit.SECONDS));
        assertEquals(0, serving.exitValue(), log(root));
        assertEquals(null, servingOut.readLine(), "stdout carries the endpoint line and nothing else, to the end");
        long whole = Files.size(archive(target));
        assertTrue(whole > partial + 4_000_000, "a whole archive (" + whole + " bytes) replaced the partial one ("
                + partial + " bytes)");
        List<String> made = entries(templates);
        assertEquals(1, made.size(), "the whole run made a storage template: " + made);

        Process next = start(root, "0", "-Dorg.slf4j.simpleLogger.log.io.quiver.launcher.StorageTemplate=debug");
        BufferedReader nextOut = awaitEndpoint(next, root);
        next.toHandle().destroy();
        assertTrue(next.waitFor(60, TimeUnit.SECONDS));
        assertEquals(0, next.exitValue(), log(root));
        assertEquals(null, nextOut.readLine(), "debug logging goes to stderr, never to stdout");
        assertEquals(whole, Files.size(archive(target)), "the whole archive was used, not written again");
        assertTrue(log(root).contains("Storage seeded from the template " + templates.resolve(made.get(0))), log(root));
        assertEquals(made, entries(templates), "the template was used, not made again");
    }

    /** The names in a folder, none if it is missing. */
    private static List<String> entries(Path folder) throws IOException {
        if (!Files.isDirectory(folder)) {
            return List.of();
        }
        try (Stream<Path> files = Files.list(folder)) {
            return files.map(f -> f.getFileName().toString()).sorted().toList();
        }
    }

    private static Process start(Path root, String port, String... javaOptions) throws IOException {
        List<String> command = new ArrayList<>(List.of("bash", root.resolve("quiver").toString(), "run",
                "--port", port, "--features", "core,http", "--etc", root.resolve("etc").toString(),
                "--deploy", root.resolve("deploy").toString()));
        ProcessBuilder builder = new ProcessBuilder(command).directory(root.toFile())
                .redirectError(ProcessBuilder.Redirect.appendTo(root.resolve("server.log").toFile()));
        builder.environment().put("JAVA_HOME", System.getProperty("java.home"));
        builder.environment().remove("JAVA");
        if (javaOptions.length == 0) {
            builder.environment().remove("JAVA_OPTS");
        } else {
            builder.environment().put("JAVA_OPTS", String.join(" ", javaOptions));
        }
        return builder.start();
    }

    /** Reads the endpoint line, the first on stdout; answers the rest of stdout. */
    private static BufferedReader awaitEndpoint(Process process, Path root) throws Exception {
        BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        String line = out.readLine();
        assertTrue(line != null && line.startsWith(READY), line + log(root));
        return out;
    }

    /** The one archive the script keeps in launcher/target. */
    private static Path archive(Path target) throws IOException {
        try (Stream<Path> files = Files.list(target)) {
            List<Path> archives = files.filter(f -> f.getFileName().toString().endsWith(".jsa")).toList();
            assertEquals(1, archives.size(), archives.toString());
            return archives.get(0);
        }
    }

    private static Path marker(Path archive) {
        return archive.resolveSibling(archive.getFileName() + ".started");
    }

    private static String log(Path root) throws IOException {
        Path log = root.resolve("server.log");
        return Files.exists(log) ? "\n" + Files.readString(log) : "";
    }
}
