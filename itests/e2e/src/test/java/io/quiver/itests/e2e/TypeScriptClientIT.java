package io.quiver.itests.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A real 2026-07-28 client from npm, the TypeScript SDK v2 client package (pinned in
 * {@code ts-client/package.json} and its lock file, run under the conformance suite's Node 22), against
 * the launched server: it negotiates the stateless revision with {@code server/discover}, lists the
 * tools, calls one that answers {@code input_required} (the SDK fulfils the elicitation through its
 * handler and retries with the answer), then opens {@code subscriptions/listen}; a tool bundle copied
 * into {@code deploy/} reaches it as {@code notifications/tools/list_changed}, and listing again
 * shows the new tools.
 */
class TypeScriptClientIT {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final String VERSION = "2026-07-28";
    /** Node start-up, discover, list, two call rounds and the listen ack. */
    private static final Duration READY = Duration.ofSeconds(60);
    /** FileInstall polls deploy/ and takes a new file once it is stable; 20 s leaves a wide margin. */
    private static final Duration EFFECT = Duration.ofSeconds(20);
    private static final String EOF = "\u0000EOF";

    @Test
    void theTypeScriptSdkClientDiscoversListsCallsWithInputAndHearsABundleArrive() throws Exception {
        Path timeBundle = Path.of(System.getProperty("time.bundle"));
        assertTrue(Files.isRegularFile(timeBundle), "the tools.time bundle is missing (" + timeBundle
                + "): build bundles/tools.time first (mvn install)");
        Path clientDir = TsClients.dir("@modelcontextprotocol/client");
        Path node = TsClients.node();

        try (QuiverServer server = QuiverServer.start("ts-client", "core,http,conformance")) {
            Path stderr = server.home().resolve("ts-client.stderr.log");
            Process client = new ProcessBuilder(node.toString(), clientDir.resolve("client.mjs").toString(),
                    server.url(), String.valueOf(EFFECT.toMillis()))
                    .directory(clientDir.toFile())
                    .redirectError(stderr.toFile())
                    .start();
            Output out = new Output(client);
            Supplier<String> context = () -> out.describe(client, stderr, server);
            try {
                out.await("LISTENING", READY, context);
                JsonNode discover = out.step("discover", context);
                JsonNode tools = out.step("tools", context);
                JsonNode call = out.step("call", context);
                JsonNode listen = out.step("listen", context);

                assertEquals("modern", discover.path("era").asString(), context);
                assertEquals(VERSION, discover.path("protocolVersion").asString(), context);
                assertTrue(strings(discover.path("supportedVersions")).contains(VERSION), context);
                assertEquals("quiver", discover.path("serverInfo").path("name").asString(), context);
                assertFalse(discover.path("serverInfo").path("version").asString("").isEmpty(), context);
                assertTrue(discover.path("capabilities").path("tools").path("listChanged").asBoolean(), context);

                List<String> before = strings(tools.path("names"));
                assertTrue(before.contains("test_input_required_result_elicitation"), context);
                assertFalse(before.contains("current_time"), "tools.time is not in the conformance feature set");

                assertEquals("Hello, Alice!", call.path("text").asString(), context);
                assertFalse(call.path("isError").asBoolean(), context);
                assertEquals(1, call.path("elicitations").size(), () -> "one input_required round: " + context.get());
                assertTrue(call.path("elicitations").path(0).path("requestedSchema").path("properties").has("name"),
                        context);

                assertTrue(listen.path("honoredFilter").path("toolsListChanged").asBoolean(),
                        () -> "the server honours toolsListChanged: " + context.get());

                // install a tool bundle while the client listens
                Files.copy(timeBundle, server.home().resolve("deploy").resolve("tools.time.jar"));
                out.await("LIST_CHANGED", EFFECT.plusSeconds(10), context);
                assertTrue(client.waitFor(30, TimeUnit.SECONDS), () -> "the client did not finish: " + context.get());
                assertEquals(0, client.exitValue(), context);

                JsonNode changed = out.step("list_changed", context);
                assertEquals("notifications/tools/list_changed", changed.path("method").asString(), context);
                assertFalse(changed.path("params").path("_meta").path("io.modelcontextprotocol/subscriptionId")
                        .asString("").isEmpty(), () -> "tagged with the subscription id: " + context.get());
                List<String> after = strings(out.step("tools_after", context).path("names"));
                assertTrue(after.contains("current_time"), () -> "the new tool is listed: " + context.get());
                assertTrue(after.contains("convert_time"), () -> "the new tool is listed: " + context.get());
                assertTrue(after.containsAll(before), () -> "nothing else went away: " + context.get());
                assertEquals("local", out.step("closed", context).path("subscription").asString(), context);
            } finally {
                if (client.isAlive()) {
                    client.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                }
            }
        }
    }

    private static List<String> strings(JsonNode array) {
        List<String> values = new ArrayList<>();
        array.forEach(value -> values.add(value.asString()));
        return values;
    }

    /** The client's stdout, line by line: marker lines and one JSON object per step. */
    private static final class Output {

        private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
        private final List<String> seen = new ArrayList<>();
        private final Map<String, JsonNode> steps = new LinkedHashMap<>();

        Output(Process process) {
            Thread reader = new Thread(() -> {
                try (BufferedReader in = new BufferedReader(
                        new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                    String line;
                    while ((line = in.readLine()) != null) {
                        lines.add(line);
                    }
                } catch (IOException e) {
                    lines.add("(stdout read failed: " + e + ")");
                } finally {
                    lines.add(EOF);
                }
            }, "ts-client-stdout");
            reader.setDaemon(true);
            reader.start();
        }

        /** Reads lines until {@code marker}; fails on end of output or after {@code limit}. */
        synchronized void await(String marker, Duration limit, Supplier<String> context) throws InterruptedException {
            long deadline = System.nanoTime() + limit.toNanos();
            while (true) {
                long left = deadline - System.nanoTime();
                String line = left > 0 ? lines.poll(left, TimeUnit.NANOSECONDS) : null;
                if (line == null) {
                    throw new AssertionError("no " + marker + " from the client within " + limit + "\n"
                            + context.get());
                }
                if (line.equals(EOF)) {
                    lines.add(EOF);
                    throw new AssertionError("the client ended before " + marker + "\n" + context.get());
                }
                seen.add(line);
                if (line.startsWith("{")) {
                    JsonNode step = JSON.readTree(line);
                    steps.put(step.path("step").asString(), step);
                }
                if (line.equals(marker)) {
                    return;
                }
            }
        }

        /** The JSON line of a step, reading the rest of the output first if it is not there yet. */
        synchronized JsonNode step(String name, Supplier<String> context) throws InterruptedException {
            if (!steps.containsKey(name)) {
                drain();
            }
            JsonNode step = steps.get(name);
            assertNotNull(step, () -> "no " + name + " step\n" + context.get());
            return step;
        }

        private void drain() throws InterruptedException {
            String line;
            while ((line = lines.poll(5, TimeUnit.SECONDS)) != null && !line.equals(EOF)) {
                seen.add(line);
                if (line.startsWith("{")) {
                    JsonNode step = JSON.readTree(line);
                    steps.put(step.path("step").asString(), step);
                }
            }
            if (line != null) {
                lines.add(EOF);
            }
        }

        synchronized String describe(Process process, Path stderr, QuiverServer server) {
            if (lines.contains(EOF)) {
                try {
                    process.waitFor(5, TimeUnit.SECONDS); // its stdout is closed: let it exit, for the code
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            StringBuilder b = new StringBuilder();
            b.append("--- ts-client ").append(process.isAlive() ? "running" : "exit " + process.exitValue())
                    .append(", stdout so far ---\n");
            seen.forEach(line -> b.append(line).append('\n'));
            b.append("--- ts-client stderr ---\n").append(read(stderr));
            try {
                b.append("--- server log ---\n").append(server.log());
            } catch (IOException e) {
                b.append("(server log unreadable: ").append(e).append(")\n");
            }
            return b.toString();
        }

        private static String read(Path file) {
            try {
                return Files.readString(file);
            } catch (IOException e) {
                return "(unreadable: " + e + ")\n";
            }
        }
    }
}
