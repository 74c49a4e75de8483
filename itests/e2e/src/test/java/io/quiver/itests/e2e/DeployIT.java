package io.quiver.itests.e2e;

import static io.quiver.itests.e2e.ToolBundles.GREETING_V1;
import static io.quiver.itests.e2e.ToolBundles.GREETING_V2;
import static io.quiver.itests.e2e.ToolBundles.TOOL;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quiver.itests.client.McpClient;
import io.quiver.itests.client.MessageStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * A tool bundle's life in {@code deploy/} as a user lives it, watched by a connected client:
 * copied in, it is callable and the client's stream hears one {@code tools/list_changed};
 * overwritten with a new version, the new behaviour answers and one more change is announced;
 * deleted, the tool is gone (calling it is an invalid-params error) and one more change is announced.
 */
class DeployIT {

    private static final String LIST_CHANGED = "notifications/tools/list_changed";
    /** FileInstall polls deploy/ every second and reports a file once it is stable for two polls. */
    private static final Duration EFFECT = Duration.ofSeconds(15);
    /** How long the stream must stay quiet after a change to show no second notification follows. */
    private static final Duration QUIET = Duration.ofMillis(1500);

    @Test
    void installUpdateAndRemoveAToolBundle() throws Exception {
        try (QuiverServer server = QuiverServer.start("deploy", "core,http");
             McpClient client = McpClient.connect(server.url(), "deploy-it", Duration.ofSeconds(20))) {
            Path v1 = ToolBundles.exampleJar();
            Path v2 = ToolBundles.version2(v1, server.home().resolve("greeting-tool-v2.jar"));
            Path jar = server.home().resolve("deploy").resolve("greeting-tool.jar");
            MessageStream stream = client.openEventStream();
            MessageStream listener = client.listenForToolChanges();
            listener.await("notifications/subscriptions/acknowledged", 1, EFFECT);
            assertNull(client.tool(TOOL), "no greet tool before the bundle is deployed");

            // install: copy the jar in
            Files.copy(v1, jar);
            stream.await(LIST_CHANGED, 1, EFFECT);
            JsonNode tool = client.tool(TOOL);
            assertNotNull(tool, "listed once announced");
            assertTrue(tool.path("description").asString().startsWith("Greets a person"), tool.toString());
            assertEquals("object", tool.path("inputSchema").path("type").asString(), "schema generated from the record");
            assertTrue(tool.path("inputSchema").path("properties").has("language"), tool.toString());
            assertTrue(tool.path("outputSchema").path("properties").has("text"), tool.toString());
            assertGreeting(client, GREETING_V1);
            Thread.sleep(QUIET.toMillis());
            assertEquals(1, stream.count(LIST_CHANGED), "one install, one list_changed");
            assertEquals(1, listener.count(LIST_CHANGED), "the 2026-07-28 listener hears it once too");
            assertEquals(4242, listener.matching(m -> m.method().equals(LIST_CHANGED)).get(0).message()
                    .path("params").path("_meta").path("io.modelcontextprotocol/subscriptionId").asInt(),
                    "tagged with the listen request's id");

            // update: overwrite it with version 2 (a new description, a new greeting)
            long overwritten = System.nanoTime();
            ToolBundles.overwrite(v2, jar);
            stream.await(LIST_CHANGED, 2, EFFECT);
            awaitGreeting(client, GREETING_V2);
            assertTrue(client.tool(TOOL).path("description").asString().startsWith(ToolBundles.DESCRIPTION_V2_PREFIX),
                    "the new description is listed");
            Thread.sleep(QUIET.toMillis());
            // The update unregisters the tool and registers it again (20-150 ms later, measured); one
            // change for the client all the same.
            assertEquals(2, stream.count(LIST_CHANGED), () -> "one update, one more list_changed; they came "
                    + stream.matching(m -> m.method().equals(LIST_CHANGED)).stream()
                            .map(m -> (m.nanos() - overwritten) / 1_000_000L + " ms").toList()
                    + " after the jar was overwritten");

            // uninstall: delete it
            Files.delete(jar);
            stream.await(LIST_CHANGED, 3, EFFECT);
            assertFalse(client.toolNames().contains(TOOL), "gone from tools/list");
            JsonNode call = client.callTool(TOOL, Map.of("name", "Ada"));
            assertEquals(McpClient.INVALID_PARAMS, McpClient.errorCode(call), call.toString());
            Thread.sleep(QUIET.toMillis());
            assertEquals(3, stream.count(LIST_CHANGED), "one removal, one more list_changed");
            assertEquals(3, listener.count(LIST_CHANGED), "the listener heard each change once");
            assertFalse(stream.ended(), "the GET stream stayed open throughout");
        }
    }

    /**
     * A tool bundle already in deploy/ when the server starts is part of the start: listed and callable as soon as the
     * endpoint line is out (before, FileInstall's first scan installed it a few hundred ms later, and a client that
     * listed the tools at once and ignored list changes never saw it).
     */
    @Test
    void aToolBundleInDeployAtTheStartIsListedOnceTheEndpointLineIsOut() throws Exception {
        try (QuiverServer server = QuiverServer.start("deploy-first", "core,http",
                home -> Files.copy(ToolBundles.exampleJar(), home.resolve("deploy").resolve("greeting-tool.jar")));
             McpClient client = McpClient.connect(server.url(), "deploy-it", Duration.ofSeconds(20))) {
            List<String> names = client.toolNames();
            assertTrue(names.contains(TOOL), () -> "greet in the first list: " + names);
            assertGreeting(client, GREETING_V1);
            String log = Files.readString(server.home().resolve("server.log"));
            int installed = log.indexOf("greeting-tool.jar: installed and started");
            assertTrue(installed >= 0, log);
            assertEquals(-1, log.indexOf("greeting-tool.jar: ", installed + 1), () -> "handled once, not again by"
                    + " FileInstall's first scan\n" + log);
        }
    }

    /** Calls the tool until it answers with the expected greeting (the update is under way). */
    private static void awaitGreeting(McpClient client, String expected) throws Exception {
        long deadline = System.nanoTime() + EFFECT.toNanos();
        while (true) {
            JsonNode response = client.callTool(TOOL, Map.of("name", "Ada"));
            if (expected.equals(response.path("result").path("structuredContent").path("text").asString(""))) {
                assertGreeting(client, expected);
                return;
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("the tool never answered '" + expected + "'; last answer " + response);
            }
            Thread.sleep(50);
        }
    }

    private static void assertGreeting(McpClient client, String expected) throws Exception {
        JsonNode response = client.callTool(TOOL, Map.of("name", "Ada"));
        JsonNode result = response.path("result");
        assertFalse(result.path("isError").asBoolean(true), response.toString());
        assertEquals(expected, result.path("structuredContent").path("text").asString(), response.toString());
        assertEquals("ENGLISH", result.path("structuredContent").path("language").asString(), response.toString());
    }
}
