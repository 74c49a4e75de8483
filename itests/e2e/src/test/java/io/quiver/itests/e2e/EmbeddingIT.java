package io.quiver.itests.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.spec.McpSchema;
import io.quiver.launcher.HostTool;
import io.quiver.launcher.Quiver;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A host application embeds Quiver in its own JVM (the launcher on its class path, as
 * docs/embedding.md says), gives it plain Java tools, and the official Java SDK client calls them
 * over HTTP like any other tool: listed with their schema, validated, failing as the model should
 * read it, added and removed while the server runs.
 */
class EmbeddingIT {

    private static final String ADD_SCHEMA = "{\"type\":\"object\",\"properties\":{\"a\":{\"type\":\"number\"},"
            + "\"b\":{\"type\":\"number\"}},\"required\":[\"a\",\"b\"],\"additionalProperties\":false}";

    @TempDir
    Path home;

    @Test
    void hostToolsAreToolsForEveryClient() throws Exception {
        List<Map<String, Object>> ran = new CopyOnWriteArrayList<>();
        try (Quiver quiver = Quiver.builder()
                .features("core", "http")   // no port given: embedded, the OS assigns one on loopback
                .etc(home.resolve("etc"))
                .deploy(home.resolve("deploy"))
                .data(home.resolve("data"))
                .tool("host_add", "Adds two numbers", ADD_SCHEMA, arguments -> {
                    ran.add(arguments);
                    return String.valueOf(((Number) arguments.get("a")).intValue() + ((Number) arguments.get("b")).intValue());
                })
                .start()) {
            assertEquals("127.0.0.1", quiver.url().getHost());
            assertTrue(quiver.port() > 0 && quiver.port() != 7711, "an OS-assigned port: " + quiver.port());
            McpSyncClient client = connect(quiver.url());
            try {
                McpSchema.Tool add = client.listTools().tools().stream().filter(t -> t.name().equals("host_add"))
                        .findFirst().orElseThrow(() -> new AssertionError("the host tool is not listed"));
                assertEquals("Adds two numbers", add.description());
                assertEquals(List.of("a", "b"), add.inputSchema().get("required"), add.inputSchema().toString());

                McpSchema.CallToolResult five = client.callTool(new McpSchema.CallToolRequest("host_add", Map.of("a", 2, "b", 3)));
                assertFalse(Boolean.TRUE.equals(five.isError()), five.toString());
                assertEquals("5", assertInstanceOf(McpSchema.TextContent.class, five.content().get(0)).text());
                assertEquals(List.of(Map.of("a", 2, "b", 3)), ran, "the host's code got the arguments as plain Java");

                McpSchema.CallToolResult invalid = client.callTool(new McpSchema.CallToolRequest("host_add", Map.of("a", 2)));
                assertTrue(Boolean.TRUE.equals(invalid.isError()), "validated against its schema: " + invalid);
                assertEquals(1, ran.size(), "an invalid call never reaches the host's code");

                // added while the server runs; a failure the model should read comes back as isError with its text
                AutoCloseable refund = quiver.addTool("host_refund", "Refunds an order", null, arguments -> {
                    throw new HostTool.Failure("order " + arguments.get("order") + " was never paid");
                });
                assertTrue(names(client).contains("host_refund"));
                McpSchema.CallToolResult failed = client.callTool(new McpSchema.CallToolRequest("host_refund",
                        Map.of("order", "A-17")));
                assertTrue(Boolean.TRUE.equals(failed.isError()), failed.toString());
                assertEquals("order A-17 was never paid",
                        assertInstanceOf(McpSchema.TextContent.class, failed.content().get(0)).text());

                refund.close();
                assertFalse(names(client).contains("host_refund"), "removed with its registration");
            } finally {
                client.closeGracefully();
            }
        }
    }

    @Test
    void aStopFromAToolsOwnThreadWaitsUntilTheFrameworkHasStopped() throws Exception {
        // the host's shutdown interrupted the very thread that asked for the stop: stop() returned at once, with the
        // framework still stopping and its temporary storage already deleted (attacker review)
        java.util.concurrent.atomic.AtomicReference<Quiver> self = new java.util.concurrent.atomic.AtomicReference<>();
        java.util.concurrent.CompletableFuture<Integer> stateAfterStop = new java.util.concurrent.CompletableFuture<>();
        Quiver quiver = Quiver.builder().features("core", "http")
                .etc(home.resolve("etc")).deploy(home.resolve("deploy"))   // a temporary storage: deleted by the stop
                .host(request -> {
                    switch (request.kind()) {
                        case ADMIT -> request.approve();
                        case RELEASE -> request.release();
                        case REVIEW -> request.deliver();
                        case RECORD -> request.recorded();
                        default -> { }
                    }
                })
                .tool("quit", "Stops the server", null, arguments -> {
                    self.get().stop();
                    stateAfterStop.complete(self.get().framework().getState());
                    return "stopped";
                })
                .start();
        self.set(quiver);
        McpSyncClient client = connect(quiver.url());
        try {
            client.callTool(new McpSchema.CallToolRequest("quit", Map.of()));
        } catch (RuntimeException e) {
            // the server went away under its answer
        }
        int state = stateAfterStop.get(60, java.util.concurrent.TimeUnit.SECONDS);
        assertTrue(state != org.osgi.framework.Bundle.STOPPING && state != org.osgi.framework.Bundle.ACTIVE,
                "stop() returned while the framework was in state " + state);
        try {
            client.close();
        } catch (RuntimeException e) {
            // gone
        }
    }

    @Test
    void twoContainersInOneJvmShareNothing() throws Exception {
        try (Quiver left = Quiver.builder().features("core", "http").etc(home.resolve("left/etc"))
                    .deploy(home.resolve("left/deploy")).data(home.resolve("left/data"))
                    .tool("left_only", "The left container's", null, arguments -> "left").start();
             Quiver right = Quiver.builder().features("core", "http").etc(home.resolve("right/etc"))
                    .deploy(home.resolve("right/deploy")).data(home.resolve("right/data"))
                    .tool("right_only", "The right container's", null, arguments -> "right").start()) {
            assertFalse(left.url().equals(right.url()), "each has its own endpoint");
            McpSyncClient toLeft = connect(left.url());
            McpSyncClient toRight = connect(right.url());
            try {
                assertTrue(names(toLeft).contains("left_only") && !names(toLeft).contains("right_only"), names(toLeft).toString());
                assertTrue(names(toRight).contains("right_only") && !names(toRight).contains("left_only"), names(toRight).toString());
                AutoCloseable extra = right.addTool("right_extra", "", null, arguments -> "extra");
                assertTrue(names(toRight).contains("right_extra"));
                assertFalse(names(toLeft).contains("right_extra"));
                extra.close();
            } finally {
                toLeft.closeGracefully();
                toRight.closeGracefully();
            }
            right.stop();
            assertEquals("left", assertInstanceOf(McpSchema.TextContent.class, connectAndCall(left.url(), "left_only")
                    .content().get(0)).text(), "stopping one leaves the other serving");
        }
    }

    private static McpSchema.CallToolResult connectAndCall(URI url, String tool) {
        McpSyncClient client = connect(url);
        try {
            return client.callTool(new McpSchema.CallToolRequest(tool, Map.of()));
        } finally {
            client.closeGracefully();
        }
    }

    private static McpSyncClient connect(URI url) {
        HttpClientStreamableHttpTransport transport = HttpClientStreamableHttpTransport
                .builder(url.getScheme() + "://" + url.getAuthority())
                .endpoint(url.getPath())
                .build();
        McpSyncClient client = McpClient.sync(transport).requestTimeout(Duration.ofSeconds(20)).build();
        client.initialize();
        return client;
    }

    private static List<String> names(McpSyncClient client) {
        return client.listTools().tools().stream().map(McpSchema.Tool::name).toList();
    }
}
