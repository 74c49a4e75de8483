package io.quiver.itests.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quiver.itests.client.McpClient;
import io.quiver.itests.client.MessageStream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * SIGTERM with calls in flight: new requests are refused with 503, calls that finish within the grace
 * period get their results, the rest get an error, the session stream ends with a last message and
 * the listen stream with its final result; the process exits with status 0. Every client hears
 * something.
 */
class ShutdownIT {

    @Test
    void everyCallInFlightGetsAResultOrAnErrorAndStreamsEndWithALastMessage() throws Exception {
        QuiverServer server = QuiverServer.start("shutdown", "core,http,tools-default,conformance", home -> {
            Files.writeString(home.resolve("etc/io.quiver.core.cfg"), "shutdownGraceMs = 3000\n");
            Files.writeString(home.resolve("etc/io.quiver.transport.http.cfg"), "ssePollingMs = 0\n");
        });
        try (McpClient client = McpClient.connect(server.url(), "shutdown", Duration.ofSeconds(60))) {
            MessageStream stream = client.openEventStream();
            MessageStream listener = client.listenForToolChanges();
            listener.await("notifications/subscriptions/acknowledged", 1, Duration.ofSeconds(10));
            List<CompletableFuture<JsonNode>> quick = new ArrayList<>();
            List<CompletableFuture<JsonNode>> slow = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                quick.add(call(client, 1, "quick" + i));
                slow.add(call(client, 60, "slow" + i));
            }
            Thread.sleep(500);
            server.terminate();
            // once the stop has begun (the signal takes a moment to arrive), new requests are refused
            HttpResponse<String> late = null;
            for (int i = 0; i < 25 && (late == null || late.statusCode() == 200); i++) {
                Thread.sleep(100);
                late = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(server.url()))
                        .header("Content-Type", "application/json").header("Accept", "application/json, text/event-stream")
                        .header("MCP-Protocol-Version", McpClient.VERSION).header("Mcp-Session-Id", client.session())
                        .POST(HttpRequest.BodyPublishers.ofString("{\"jsonrpc\":\"2.0\",\"id\":" + (100 + i)
                                + ",\"method\":\"ping\"}"))
                        .build(), HttpResponse.BodyHandlers.ofString());
            }
            assertEquals(503, late.statusCode(), "a request while stopping: " + late.body());
            assertTrue(late.headers().firstValue("Retry-After").isPresent());

            for (CompletableFuture<JsonNode> f : quick) {
                JsonNode r = f.get(30, TimeUnit.SECONDS);
                assertTrue(r.path("result").path("content").get(0).path("text").asString().startsWith("Computed 'quick"),
                        "a call that ends within the grace period gets its result: " + r);
            }
            for (CompletableFuture<JsonNode> f : slow) {
                JsonNode r = f.get(30, TimeUnit.SECONDS);
                assertEquals(-32000, r.path("error").path("code").asInt(), r.toString());
                assertTrue(r.path("error").path("message").asString().contains("shutting down"), r.toString());
            }
            MessageStream.Received last = stream.await("notifications/message", 1, Duration.ofSeconds(30));
            assertEquals("The server is shutting down", last.message().path("params").path("data").asString());
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (listener.matching(m -> m.message().has("result")).isEmpty() && System.nanoTime() < deadline) {
                Thread.sleep(50);
            }
            JsonNode end = listener.matching(m -> m.message().has("result")).stream().findFirst()
                    .orElseThrow(() -> new AssertionError("the listen stream ended without its final result"))
                    .message();
            assertEquals("complete", end.path("result").path("resultType").asString(), end.toString());
            assertEquals(0, server.awaitExit(60), "a clean stop exits with 0");
        } finally {
            server.close();
        }
    }

    /**
     * A signal while the bundles start (the first tool is being added, the endpoint not announced yet)
     * stops the server as asked: status 0, nothing left running, and the log says the start was
     * overtaken. Before, the stopped framework failed the start (status 1).
     */
    /**
     * A bundle that never finishes stopping does not keep the process alive (its port held) after a signal: past the
     * stop timeout it ends with status 1, saying why.
     */
    @Test
    void aBundleThatNeverStopsDoesNotKeepTheProcessAlive() throws Exception {
        QuiverServer server = QuiverServer.start("hanging-stop", "core,http", home -> hangingBundle(home.resolve(
                "deploy/hanging.jar")), "-Dquiver.stopTimeoutMs=2000");
        try {
            Await.until(() -> server.log().contains("hanging activator started"), Duration.ofSeconds(30), server::log);
            server.terminate();
            int status = server.awaitExit(30);
            String log = server.log();
            assertTrue(log.contains("hanging activator stopping"), log);
            assertEquals(1, status, "ended, not killed by the test (-1):\n" + log);
            assertTrue(log.contains("quiver: the framework did not stop within 2 s"), log);
        } finally {
            server.close();
        }
    }

    /**
     * A deployed bundle whose activator never returns from start, in a kept storage ({@code --data}): the framework
     * started it again as it started, on the thread the start waits for, and the server never started again (until
     * its storage was deleted). Now the restart waits for it a bounded time, says so, and serves; a good deployed
     * bundle beside it serves its tool again.
     */
    @Test
    void aDeployedBundleThatNeverFinishesStartingDoesNotHoldUpTheNextStart() throws Exception {
        QuiverServer first = QuiverServer.start("start-hanging", "core,http,admin", home -> {
            Files.writeString(home.resolve("etc/io.quiver.deployer.cfg"), "startTimeoutMs = 1000\n");
            ToolBundles.activatorJar(home.resolve("deploy/hanging.jar"), "io.quiver.itests.starthanging",
                    StartHangingActivator.class);
            ToolBundles.place(ToolBundles.exampleJar(), home.resolve("deploy/greeting-tool.jar"));
        }, "-Dquiver.stopTimeoutMs=2000", "-Dquiver.deployedStartTimeoutMs=2000");
        try {
            Await.until(() -> first.log().contains("did not finish starting within 1000 ms")
                    && first.log().contains("Tool greet added"), Duration.ofSeconds(30), first::log);
            long before = System.nanoTime();
            try (QuiverServer second = first.restart()) {
                long ms = (System.nanoTime() - before) / 1_000_000;
                String log = second.log();
                assertTrue(log.indexOf("start-hanging activator starting") != log.lastIndexOf(
                        "start-hanging activator starting"), "it was started again:\n" + log);
                assertTrue(log.contains("io.quiver.itests.starthanging 1.0.0 (file:"), log);
                assertTrue(log.contains("hanging.jar) has not finished starting after 2000 ms"
                        + " (quiver.deployedStartTimeoutMs)"), log);
                // the start line follows the endpoint line, on another stream
                Await.until(() -> second.log().contains("with 1 bundle problem(s)"), Duration.ofSeconds(10), second::log);
                assertTrue(ms < 60_000, "restarted in " + ms + " ms, the stop's 2 s and the start's 2 s among them");
                try (McpClient client = McpClient.connect(second.url(), "restart", Duration.ofSeconds(10))) {
                    assertTrue(client.callTool(ToolBundles.TOOL, Map.of("name", "again")).toString().contains("again"),
                            "the good deployed bundle serves again");
                    String problems = client.callTool("problems_list", Map.of()).toString();
                    assertTrue(problems.contains("io.quiver.itests.starthanging 1.0.0\",\"reason\":\"still starting:"
                            + " its activator has not returned"), problems);
                    assertFalse(problems.contains("io.quiver.examples.greeting"), problems);

                    // deploy/ still works: the hanging bundle's file, handed over again at the start, did not make the
                    // deployer wait for the bundle's lock; and an unchanged file's bundle was not started a second time
                    ToolBundles.place(ToolBundles.renamed(ToolBundles.exampleJar(), second.home().resolve("other.jar"),
                            "io.quiver.examples.other", "greet_other"), second.home().resolve("deploy/other.jar"));
                    Await.until(() -> client.tool("greet_other") != null, Duration.ofSeconds(30), second::log);
                    assertEquals(2, second.logLines("Tool greet added"), "once per start:\n" + second.log());
                    Files.delete(second.home().resolve("deploy/hanging.jar"));
                    Await.until(() -> second.log().contains("cannot be uninstalled while its activator has not returned"),
                            Duration.ofSeconds(30), second::log);
                    assertTrue(client.callTool("greet_other", Map.of("name", "still")).toString().contains("still"));
                }
            }
        } finally {
            first.close();
        }
    }

    /** A bundle whose activator never returns from stop. */
    private static void hangingBundle(java.nio.file.Path jar) throws IOException {
        ToolBundles.activatorJar(jar, "io.quiver.itests.hanging", HangingActivator.class);
    }

    @Test
    void aSignalWhileTheBundlesStartStopsTheServerWithStatusZero() throws Exception {
        QuiverServer server = QuiverServer.launchOnly("term-mid-start", "core,http,tools-default");
        try {
            Await.until(() -> server.log().contains("catalog - Tool "), Duration.ofSeconds(60), server::log);
            server.terminate();
            int status = server.awaitExit(30);
            assertEquals(0, status, server.log());
            String log = server.log();
            assertTrue(log.contains("quiver: stopped before the start was over") || log.contains("Quiver started in "),
                    "overtaken, or (rarely) just over:\n" + log);
            assertTrue(!log.contains("cannot start"), log);
            assertTrue(!log.contains("did not start"), "the bundles the stop overtook are not reported as broken:\n" + log);
        } finally {
            server.close();
        }
    }

    /**
     * A signal at any moment of the first second ends the process and leaves its temporary storage deleted. One
     * that arrived before the framework existed used to find nothing to stop: the server started and served on.
     * One that arrived while the framework initialised had the storage deleted under the start, which went on
     * writing into it: the folder was left behind ({@code Cannot delete ...: DirectoryNotEmptyException}).
     */
    @Test
    void aSignalAtAnyMomentOfTheStartEndsTheProcess() throws Exception {
        for (int delayMs = 50; delayMs <= 1000; delayMs += 50) {
            QuiverServer server = QuiverServer.launchOnlyWithTemporaryStorage("term-at-" + delayMs,
                    "core,http,tools-default");
            try {
                Thread.sleep(delayMs);
                server.terminate();
                int status = server.awaitExit(30);
                // 143: the signal came before the launcher took SIGTERM over from the JVM (its first ~0.1 s)
                // stdout too: the JVM writes its own warnings there (a signal it could not dispatch, say)
                int delay = delayMs;
                assertTrue(status == 0 || status == 143, () -> "SIGTERM " + delay + " ms after the launch: status " + status
                        + "\nstderr:\n" + logOf(server) + "\nstdout:\n" + server.stdoutAfterExit());
                try (java.util.stream.Stream<Path> left = Files.list(server.home().resolve("tmp"))) {
                    List<String> storages = left.map(p -> p.getFileName().toString()).filter(n -> n.startsWith("quiver-"))
                            .toList();
                    assertTrue(storages.isEmpty(), () -> "SIGTERM " + delay + " ms after the launch left " + storages
                            + "\nstderr:\n" + logOf(server));
                }
                assertFalse(logOf(server).contains("Cannot delete"), logOf(server));
            } finally {
                server.close();
            }
        }
    }

    private static String logOf(QuiverServer server) {
        try {
            return server.log();
        } catch (IOException e) {
            return "(not readable: " + e.getMessage() + ")";
        }
    }

    /**
     * A call whose tool is running when the server is killed (SIGKILL: nothing of the server runs after it) is on
     * the audit trail: the audit writes a line of its own (ending {@code RUNNING}) for a call that has run for
     * {@code runningAfterMs} (1 s by default), before the line of its end. A call that ends sooner has its end's line
     * only.
     */
    @Test
    void aCallInFlightWhenTheServerIsKilledIsOnTheAuditTrail() throws Exception {
        // answers on the POST's stream (this client does not resume one the server ends for polling)
        QuiverServer server = QuiverServer.start("killed", "core,http,tools-default,conformance", home ->
                Files.writeString(home.resolve("etc/io.quiver.transport.http.cfg"), "ssePollingMs = 0\n"));
        Path trail = server.home().resolve("audit/calls.jsonl");
        try (McpClient client = McpClient.connect(server.url(), "killed-it", Duration.ofSeconds(60))) {
            JsonNode quick = client.callTool("slow_compute", Map.of("seconds", 0.05, "label", "quick"));
            assertTrue(quick.path("result").path("content").get(0).path("text").asString().startsWith("Computed 'quick"),
                    quick.toString());
            CompletableFuture<JsonNode> slow = call(client, 60, "in flight at the kill");
            Await.until(() -> trailLines(trail).stream().anyMatch(l -> "RUNNING".equals(l.path("ending").asString())),
                    Duration.ofSeconds(15), () -> "no RUNNING line in the audit trail: " + trailLines(trail));
            assertFalse(slow.isDone(), "the call still runs");
            server.kill();
        } finally {
            server.close();
        }
        List<JsonNode> lines = trailLines(trail);
        List<JsonNode> running = lines.stream().filter(l -> "RUNNING".equals(l.path("ending").asString())).toList();
        assertEquals(1, running.size(), lines.toString());
        JsonNode line = running.get(0);
        assertEquals("slow_compute", line.path("tool").asString(), line.toString());
        assertEquals("killed-it", line.path("clientName").asString(), line.toString());
        assertEquals("anonymous", line.path("subject").asString(), line.toString());
        assertTrue(line.path("durationMs").asDouble() >= 1000, "it had run for the setting's second: " + line);
        assertEquals("sha256:" + HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(
                "{\"label\":\"in flight at the kill\",\"seconds\":60}".getBytes(StandardCharsets.UTF_8))),
                line.path("argumentsDigest").asString(), "the digest of the arguments names the call");
        String id = line.path("invocationId").asString();
        assertEquals(1, lines.stream().filter(l -> id.equals(l.path("invocationId").asString())).count(),
                "the killed server wrote no end for it: " + lines);
        List<String> quickEndings = lines.stream().filter(l -> "slow_compute".equals(l.path("tool").asString())
                && !id.equals(l.path("invocationId").asString())).map(l -> l.path("ending").asString()).toList();
        assertEquals(List.of("COMPLETED"), quickEndings, "the quick call's end only: " + lines);
    }

    /**
     * What Quiver started runs in sessions of their own, out of reach of a signal to Quiver's process group: a
     * command tool's process, and a stdio upstream server that does not exit at the end of its input while a timer
     * of it runs (the fixture's slow call; server-everything with a subscription behaves so too). Killed
     * (SIGKILL: nothing of the server runs after it), Quiver cannot stop them; its watchdog does, at once.
     */
    @Test
    void whatTheServerStartedIsStoppedWhenTheServerIsKilled() throws Exception {
        String run = "--quiver-test-run=" + java.util.UUID.randomUUID();
        Path fixture = EverythingHttp.UPSTREAMS.resolve("fixture-server.mjs");
        QuiverServer server = QuiverServer.start("orphans", "core,http,tools-default", home -> {
            Files.writeString(home.resolve("etc/io.quiver.transport.http.cfg"), "ssePollingMs = 0\n");
            Files.writeString(home.resolve("nap.sh"), "echo $$ > \"$1\"; sleep 300 & echo $! >> \"$1\"; wait\n");
            Files.writeString(home.resolve("etc/io.quiver.tools.command-nap.cfg"), "argv = /bin/sh, "
                    + home.resolve("nap.sh") + ", " + home.resolve("nap.pids") + "\ntimeoutMs = 600000\n");
            Files.writeString(home.resolve("witness.txt"), "");
            Files.writeString(home.resolve("etc/mcp-servers.json"), McpClient.JSON.writeValueAsString(Map.of("mcpServers",
                    Map.of("fixture", Map.of("command", "node", "args", List.of(fixture.toString(), run), "env",
                            Map.of("WITNESS", home.resolve("witness.txt").toString()))))));
        });
        Path pids = server.home().resolve("nap.pids");
        List<ProcessHandle> started = new ArrayList<>();
        try (McpClient client = McpClient.connect(server.url(), "orphans", Duration.ofSeconds(60))) {
            Await.until(() -> client.request("tools/list", Map.of()).toString().contains("\"fixture.slow\""),
                    Duration.ofSeconds(30), () -> "the upstream's tools are not listed: " + server.log());
            CompletableFuture<JsonNode> nap = CompletableFuture.supplyAsync(() -> tool(client, "nap", Map.of()));
            CompletableFuture<JsonNode> slow = CompletableFuture.supplyAsync(() -> tool(client, "fixture.slow",
                    Map.of("ms", 600_000, "label", "in flight at the kill")));
            Await.until(() -> Files.exists(pids) && Files.readAllLines(pids).size() == 2
                    && Files.readString(server.home().resolve("witness.txt")).contains("ran in flight at the kill"),
                    Duration.ofSeconds(20), () -> "the command and the upstream call did not start: " + server.log());
            for (String pid : Files.readAllLines(pids)) {
                started.add(ProcessHandle.of(Long.parseLong(pid.trim())).orElseThrow());
            }
            List<ProcessHandle> upstream = ProcessHandle.allProcesses().filter(p -> p.info().commandLine().orElse("")
                    .contains(run)).toList();
            assertEquals(1, upstream.size(), "the upstream server runs: " + upstream);
            started.addAll(upstream);
            assertTrue(started.stream().allMatch(ProcessHandle::isAlive));
            assertFalse(nap.isDone() || slow.isDone(), "both calls still run");
            List<ProcessHandle> watchdogs = watchdogs(server.pid());
            assertEquals(2, watchdogs.size(), "one per bundle that started processes: " + watchdogs);
            server.kill();
            Await.until(() -> started.stream().noneMatch(ProcessHandle::isAlive), Duration.ofSeconds(15),
                    () -> "still running after the server was killed: " + started.stream().filter(ProcessHandle::isAlive)
                            .map(p -> p.pid() + " " + p.info().commandLine().orElse("")).toList());
            Await.until(() -> watchdogs.stream().noneMatch(ProcessHandle::isAlive), Duration.ofSeconds(10),
                    () -> "the watchdogs did not end");
        } finally {
            started.forEach(ProcessHandle::destroyForcibly);
            server.close();
        }
    }

    /** A server that stops by itself stops what it started, and its watchdog ends with nothing to do. */
    @Test
    void aServerThatStopsLeavesNoWatchdogBehind() throws Exception {
        QuiverServer server = QuiverServer.start("watchdog", "core,http,tools-default", home -> Files.writeString(
                home.resolve("etc/io.quiver.tools.command-quick.cfg"), "argv = /bin/sh, -c, echo quick\n"));
        try (McpClient client = McpClient.connect(server.url(), "watchdog", Duration.ofSeconds(60))) {
            assertEquals("quick", client.callTool("quick", Map.of()).path("result").path("content").get(0).path("text")
                    .asString().strip());
            List<ProcessHandle> watchdogs = watchdogs(server.pid());
            assertEquals(1, watchdogs.size(), "the command tools' watchdog: " + watchdogs);
            assertEquals(0, server.stop(), server.log());
            Await.until(() -> watchdogs.stream().noneMatch(ProcessHandle::isAlive), Duration.ofSeconds(10),
                    () -> "the watchdog outlived the server");
        } finally {
            server.close();
        }
    }

    /** The watchdogs of a server's JVM ({@code sh -c ... quiver-watchdog PID}). */
    private static List<ProcessHandle> watchdogs(long pid) {
        return ProcessHandle.allProcesses().filter(p -> p.info().arguments().map(a -> a.length >= 2
                && a[a.length - 2].equals("quiver-watchdog") && a[a.length - 1].equals(Long.toString(pid))).orElse(false))
                .toList();
    }

    private static JsonNode tool(McpClient client, String name, Map<String, ?> arguments) {
        try {
            return client.callTool(name, arguments);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** The audit trail's lines so far (none while there is no file). */
    private static List<JsonNode> trailLines(Path trail) throws IOException {
        if (!Files.exists(trail)) {
            return List.of();
        }
        return Files.readAllLines(trail, StandardCharsets.UTF_8).stream().filter(l -> !l.isBlank())
                .map(McpClient.JSON::readTree).toList();
    }

    private static CompletableFuture<JsonNode> call(McpClient client, int seconds, String label) {
        return CompletableFuture.supplyAsync(() -> tool(client, "slow_compute", Map.of("seconds", seconds, "label", label)));
    }
}
