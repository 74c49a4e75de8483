package io.quiver.itests.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quiver.itests.client.McpClient;
import io.quiver.itests.client.MessageStream;
import io.quiver.launcher.Quiver;
import io.quiver.launcher.SharedUpstream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * An upstream server the host application owns, shared by two containers in its JVM (docs/embedding.md,
 * "Upstream servers the host owns"): server-everything over stdio (pinned in {@code upstreams/package.json}),
 * behind a tap ({@code upstreams/tap.mjs}) that records what reaches the server and makes the process a
 * tree. Both containers list and call it, concurrently, each getting its own answers and its own progress;
 * stopping one cancels its call in flight upstream while the process (the same pid) serves the other;
 * closing it ends the whole tree and takes its tools from the other; the host starts it again.
 */
class SharedUpstreamIT {

    private static final Duration T = Duration.ofSeconds(30);
    private static final Path TAP = EverythingHttp.UPSTREAMS.resolve("tap.mjs");
    private static final String LONG = "everything.trigger-long-running-operation";

    @TempDir
    Path home;

    @Test
    void twoContainersShareOneProcessTheHostOwns() throws Exception {
        Path tapLog = home.resolve("tap.log");
        SharedUpstream everything = SharedUpstream.stdio("everything",
                List.of("node", TAP.toString(), "node", EverythingHttp.EVERYTHING.toString(), "stdio"),
                Map.of("TAP_LOG", tapLog.toString()), null).start();
        Quiver a = null;
        Quiver b = null;
        try {
            long pid = everything.pid();
            assertTrue(everything.running());
            List<ProcessHandle> tree = new ArrayList<>();
            await(() -> ProcessHandle.of(pid).map(p -> p.descendants().count() > 0).orElse(false), "the tap's child");
            tree.add(ProcessHandle.of(pid).orElseThrow());
            ProcessHandle.of(pid).orElseThrow().descendants().forEach(tree::add);

            // a short grace: A's stop cancels its call in flight soon
            Files.createDirectories(home.resolve("a/etc"));
            Files.writeString(home.resolve("a/etc/io.quiver.core.cfg"), "shutdownGraceMs = 300\n");
            a = container("a", everything, "core", "http");
            b = container("b", everything, "core", "http", "admin");

            try (McpClient toA = McpClient.connect(a.url().toString(), "shared-it-a", T);
                 McpClient toB = McpClient.connect(b.url().toString(), "shared-it-b", T)) {
                awaitTools(toA, List.of("everything.echo", LONG));
                awaitTools(toB, List.of("everything.echo", LONG));

                // both call echo at once, many times: each gets its own answers
                List<CompletableFuture<String>> echoes = new ArrayList<>();
                for (int i = 0; i < 8; i++) {
                    for (var to : List.of(Map.entry("A", toA), Map.entry("B", toB))) {
                        String message = "from " + to.getKey() + " #" + i;
                        echoes.add(CompletableFuture.supplyAsync(() -> echo(to.getValue(), message)));
                        echoes.add(CompletableFuture.completedFuture("Echo: " + message));
                    }
                }
                for (int i = 0; i < echoes.size(); i += 2) {
                    assertEquals(echoes.get(i + 1).get(), echoes.get(i).get(T.toSeconds(), TimeUnit.SECONDS));
                }
                assertEquals(pid, everything.pid());

                // progress of two concurrent long calls goes to the container (and client) that asked
                McpClient.Call progressA = toA.send("tools/call", toA.toolCall(LONG, Map.of("duration", 2, "steps", 4), "a-token"));
                McpClient.Call progressB = toB.send("tools/call", toB.toolCall(LONG, Map.of("duration", 2, "steps", 2), "b-token"));
                assertTrue(text(progressA.response(T)).contains("Steps: 4"));
                assertTrue(text(progressB.response(T)).contains("Steps: 2"));
                assertProgress(progressA.stream(), "a-token", 4);
                assertProgress(progressB.stream(), "b-token", 2);

                // the operators see it as shared
                JsonNode listed = toB.callTool("upstreams_list", Map.of()).path("result").path("structuredContent")
                        .path("upstreams").get(0);
                assertEquals("everything", listed.path("name").asString(), listed.toString());
                assertEquals("shared", listed.path("kind").asString(), listed.toString());
                assertEquals("ready", listed.path("state").asString(), listed.toString());
                assertEquals("shared by the host, pid " + pid, listed.path("connection").asString(), listed.toString());

                // A stops with a call in flight: cancelled upstream; B's own call, and the process, go on
                McpClient.Call inFlight = toA.send("tools/call", toA.toolCall(LONG, Map.of("duration", 60, "steps", 60), "a-slow"));
                inFlight.stream().awaitNotification("notifications/progress", T);
                long wireId = wireIdOf(tapLog, "\"duration\":60");
                McpClient.Call bMeanwhile = toB.send("tools/call", toB.toolCall(LONG, Map.of("duration", 3, "steps", 3), "b-meanwhile"));
                a.stop();
                a = null;
                await(() -> tapLines(tapLog).stream().anyMatch(l -> l.contains("notifications/cancelled")
                        && l.contains("\"requestId\":" + wireId)), "A's call in flight cancelled upstream (id " + wireId + ")");
                assertTrue(everything.running(), "the process runs on");
                assertEquals(pid, everything.pid());
                assertTrue(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false));
                assertEquals("Echo: B after A", echo(toB, "B after A"));
                JsonNode meanwhile = bMeanwhile.response(T);
                assertTrue(text(meanwhile).contains("Steps: 3"), "B's call in flight is unaffected: " + meanwhile);
                assertProgress(bMeanwhile.stream(), "b-meanwhile", 3);

                // the host closes it: the whole tree ends, B's tools of it go
                everything.close();
                assertFalse(everything.running());
                for (ProcessHandle p : tree) {
                    await(() -> !p.isAlive(), "process " + p.pid() + " of the tree gone");
                }
                await(() -> names(toB).stream().noneMatch(n -> n.startsWith("everything.")), "B's everything tools gone");

                // restarting is the host's: B sees it again, a new process
                everything.start();
                assertTrue(everything.pid() != pid);
                awaitTools(toB, List.of("everything.echo"));
                assertEquals("Echo: again", echo(toB, "again"));
            }
        } finally {
            if (a != null) {
                a.stop();
            }
            if (b != null) {
                b.stop();
            }
            everything.close();
        }
    }

    @Test
    void aServerThatFailsToStartSaysWhyAndAContainerStartsWithoutIt() throws Exception {
        SharedUpstream fails = SharedUpstream.stdio("fails", List.of("node", "-e", "process.exit(3)"), Map.of(), null)
                .startTimeout(Duration.ofSeconds(10));
        IOException e = org.junit.jupiter.api.Assertions.assertThrows(IOException.class, fails::start);
        assertTrue(e.getMessage().contains("status 3"), e.getMessage());
        assertFalse(fails.running());
        // a container given it while it does not run simply has no such server, and starts
        try (Quiver c = container("c", fails, "core", "http");
             McpClient to = McpClient.connect(c.url().toString(), "shared-it-c", T)) {
            assertTrue(names(to).stream().noneMatch(n -> n.startsWith("fails.")), names(to).toString());
        }
    }

    private Quiver container(String name, SharedUpstream shared, String... features) throws Exception {
        return Quiver.builder().features(features).etc(home.resolve(name + "/etc")).deploy(home.resolve(name + "/deploy"))
                .data(home.resolve(name + "/data")).upstream(shared).start();
    }

    private static String echo(McpClient client, String message) {
        try {
            return text(client.callTool("everything.echo", Map.of("message", message)));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static String text(JsonNode response) {
        assertFalse(response.path("result").path("isError").asBoolean(false), response.toString());
        return response.path("result").path("content").get(0).path("text").asString();
    }

    /** Every progress notification of the stream carries the client's token, with the total of its own call. */
    private static void assertProgress(MessageStream stream, String token, int total) {
        List<MessageStream.Received> progress = stream.matching(r -> r.method().equals("notifications/progress"));
        assertFalse(progress.isEmpty(), "no progress for " + token);
        for (MessageStream.Received r : progress) {
            JsonNode params = r.message().path("params");
            assertEquals(token, params.path("progressToken").asString(), params.toString());
            assertEquals(total, params.path("total").asInt(), params.toString());
        }
    }

    /** The id the shared connection gave the one call whose line contains {@code marker}. */
    private static long wireIdOf(Path tapLog, String marker) throws Exception {
        long deadline = System.nanoTime() + T.toNanos();
        while (System.nanoTime() < deadline) {
            for (String line : tapLines(tapLog)) {
                if (line.contains("\"tools/call\"") && line.contains(marker)) {
                    return McpClient.JSON.readTree(line).path("id").asLong();
                }
            }
            Thread.sleep(50);
        }
        throw new AssertionError("no tools/call with " + marker + " reached the server: " + tapLines(tapLog));
    }

    private static List<String> tapLines(Path tapLog) {
        try {
            return Files.readAllLines(tapLog);
        } catch (IOException e) {
            return List.of();
        }
    }

    private static void awaitTools(McpClient client, List<String> names) throws Exception {
        await(() -> names(client).containsAll(names), "tools " + names);
    }

    private static List<String> names(McpClient client) {
        try {
            return client.toolNames();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static void await(BooleanSupplier condition, String what) throws Exception {
        Await.until(condition::getAsBoolean, T, () -> what);
    }
}
