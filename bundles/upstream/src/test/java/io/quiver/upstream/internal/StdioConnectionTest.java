package io.quiver.upstream.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.quiver.lib.external.ProcessTree;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A stdio upstream's process and what it started: nothing it started outlives it, whether it crashes (its
 * children orphaned) or stops cleanly when Quiver closes its stdin (children it did not stop).
 */
@EnabledOnOs(OS.LINUX)
class StdioConnectionTest {

    @TempDir
    Path dir;

    /** A server that starts a child, writes the child's pid, then does {@code then}. */
    private StdioConnection server(String then) throws Exception {
        assumeTrue(ProcessTree.sessions(), "needs setsid (util-linux) to start the server in a session of its own");
        Path script = dir.resolve("server.sh");
        Files.writeString(script, "sleep 1000 &\necho $! > " + dir.resolve("child.pid") + "\n" + then + "\n");
        ServerSpec spec = new ServerSpec("evil", ServerSpec.Kind.STDIO, "/bin/sh", List.of(script.toString()), Map.of(),
                null, null, Map.of(), null);
        return new StdioConnection(spec, dir, 1 << 20, new StderrTail(10));
    }

    private ProcessHandle child() throws Exception {
        Path pid = dir.resolve("child.pid");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while ((!Files.exists(pid) || Files.readString(pid).isBlank()) && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        Optional<ProcessHandle> child = ProcessHandle.of(Long.parseLong(Files.readString(pid).trim()));
        assertTrue(child.isPresent() && child.get().isAlive(), "the server's child runs");
        return child.get();
    }

    private static final class Ends implements Connection.Listener {
        final CompletableFuture<String> closed = new CompletableFuture<>();

        @Override
        public void message(ObjectNode message, JsonNode relatedTo) {
        }

        @Override
        public void closed(String why, boolean clean) {
            closed.complete(why);
        }
    }

    @Test
    void aMessageWithBytesThatAreNotUtf8StillArrives() throws Exception {
        // "caf\xe9" as Latin-1 writes it: the answer reaches its caller, the byte read as U+FFFD
        Path script = dir.resolve("latin1.sh");
        Files.writeString(script, "printf '{\"jsonrpc\":\"2.0\",\"id\":7,\"result\":{\"text\":\"caf\\351\"}}\\n'\n"
                + "cat > /dev/null\n");
        ServerSpec spec = new ServerSpec("latin1", ServerSpec.Kind.STDIO, "/bin/sh", List.of(script.toString()), Map.of(),
                null, null, Map.of(), null);
        StdioConnection connection = new StdioConnection(spec, dir, 1 << 20, new StderrTail(10));
        CompletableFuture<ObjectNode> got = new CompletableFuture<>();
        connection.open(new Connection.Listener() {
            @Override
            public void message(ObjectNode message, JsonNode relatedTo) {
                got.complete(message);
            }

            @Override
            public void closed(String why, boolean clean) {
                got.completeExceptionally(new AssertionError("closed: " + why));
            }
        });
        try {
            ObjectNode message = got.get(10, TimeUnit.SECONDS);
            assertEquals(7, message.path("id").asInt());
            assertEquals("caf\uFFFD", message.path("result").path("text").asString());
        } finally {
            connection.close();
        }
    }

    @Test
    void aServerThatCrashesLeavesNoChildBehind() throws Exception {
        StdioConnection connection = server("sleep 2; exit 1");
        Ends ends = new Ends();
        connection.open(ends);
        ProcessHandle child = child();
        ends.closed.get(10, TimeUnit.SECONDS);
        assertTrue(child.onExit().isDone() || waitGone(child), "the crashed server's child was stopped too");
        connection.close();
    }

    @Test
    void aServerStoppedCleanlyLeavesNoChildBehind() throws Exception {
        StdioConnection connection = server("cat > /dev/null; exit 0"); // ends when its stdin does
        Ends ends = new Ends();
        connection.open(ends);
        ProcessHandle child = child();
        connection.close();
        assertTrue(waitGone(child), "the child of a server that stopped when asked was stopped too");
        assertFalse(child.isAlive());
    }

    private static boolean waitGone(ProcessHandle p) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (p.isAlive() && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        return !p.isAlive();
    }
}
