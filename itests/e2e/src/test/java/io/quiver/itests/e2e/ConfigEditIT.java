package io.quiver.itests.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quiver.itests.client.McpClient;
import io.quiver.itests.client.MessageStream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * Editing {@code etc/} while clients are connected: every core and transport setting (each one the
 * shipped {@code etc/} files list) is changed while a session stream and a {@code subscriptions/listen}
 * stream are open; both keep hearing list changes, the session keeps working, the new values apply.
 * Then one bad value: it changes nothing but the problems list (and one log line), until it is fixed.
 */
class ConfigEditIT {

    private static final String CHANGED = "notifications/tools/list_changed";
    private static final Duration EFFECT = Duration.ofSeconds(15);
    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    /** A valid value, different from the default, for every engine setting. */
    private static final Map<String, String> CORE = ordered(
            "serverName", "quiver-edited", "instructions", "Be brief.", "toolTimeoutMs", "30000",
            "toolFailuresBeforeCooldown", "3", "toolCooldownMs", "10000",
            "maxConcurrentCalls", "32", "toolSharePercent", "60", "maxQueuedPerTool", "20",
            "maxConcurrentRequests", "128", "maxInlineRequests", "16", "maxQueued", "512", "clientRequestTimeoutMs", "60000",
            "hostTimeoutMs", "120000",
            "sessionIdleTimeoutMs", "1800000", "handshakeTimeoutMs", "30000", "maxSessions", "5000",
            "maxSessionsPerClient", "2000", "maxSessionsPerSubject", "500", "maxListeners", "1000", "maxListenersPerSubject", "100", "maxResourceSubscriptions", "1", "maxResourceUriLength", "16",
            "maxResourceSubscriptionBytes", "1000000", "pageSize", "3",
            "listChangedDebounceMs", "100",
            "maxInputRounds", "5", "maxBatchSize", "16", "maxOutputBytes", "524288", "shutdownGraceMs", "5000", "listTtlMs", "1000",
            "readTtlMs", "1000", "cacheScope", "public", "requestStateKeys", "a-new-signing-key-of-at-least-32-chars",
            "requestStateTtlMs", "300000", "taskTtlMs", "1800000", "taskTimeoutMs", "1800000", "maxTasks", "5000",
            "maxTasksPerSubject", "8");

    /** And for every transport setting. */
    private static final Map<String, String> TRANSPORT = ordered(
            "path", "/mcp2", "tenantPath", "/tenants/{tenant}/mcp", "allowedHosts", "quiver.test", "allowedOrigins", "https://app.example.com",
            "resourceUrl", "https://mcp.quiver.test/mcp", "authorizationServers", "https://issuer.quiver.test",
            "requiredScopes", "mcp:tools", "subjectRequestsPerSecond", "100", "subjectBurst", "50",
            "tenantRequestsPerSecond", "500", "tenantBurst", "1000", "maxConcurrentCallsPerSubject", "8", "headerTimeoutMs", "5000", "maxBodyBytes", "65536", "maxDrainBytes", "1048576", "bodyTimeoutMs", "10000",
            "maxStreams", "2000",
            "maxStreamsPerSession", "16", "sseRetryMs", "1000", "sseBufferEvents", "128", "sseRetainedStreams", "16",
            "sseKeepAliveMs", "5000", "sseMethods", "tools/call", "ssePollingMs", "0");

    @Test
    void everySettingChangesWhileStreamsStayOpenAndABadValueOnlyMakesAProblem() throws Exception {
        assertEquals(shipped("io.quiver.core.cfg"), CORE.keySet(), "every engine setting of etc/ is edited here");
        assertEquals(shipped("io.quiver.transport.http.cfg"), TRANSPORT.keySet(),
                "every transport setting of etc/ is edited here");
        try (QuiverServer server = QuiverServer.start("config-edit", "core,http,tools-default,conformance,admin");
             McpClient client = McpClient.connect(server.url(), "config", Duration.ofSeconds(20))) {
            Path etc = server.home().resolve("etc");
            MessageStream stream = client.openEventStream();
            MessageStream listener = client.listenForToolChanges();
            listener.await("notifications/subscriptions/acknowledged", 1, EFFECT);
            assertTrue(client.request("tools/list", Map.of()).path("result").path("tools").size() > 3);

            write(etc.resolve("io.quiver.core.cfg"), CORE);
            write(etc.resolve("io.quiver.transport.http.cfg"), TRANSPORT);
            String moved = server.base() + "/mcp2";
            McpClient there = client.at(moved);
            JsonNode page = awaitPageOf(there, 3);
            assertTrue(page.has("nextCursor"), "pageSize 3 applies: " + page);
            assertEquals("{}", there.request("ping", Map.of()).path("result").toString(), "the session survived");
            assertTrue(there.request("resources/subscribe", Map.of("uri", "test://one")).has("result"));
            assertEquals(-32602, there.request("resources/subscribe", Map.of("uri", "test://two")).path("error").path("code")
                    .asInt(), "maxResourceSubscriptions 1 applies");
            JsonNode tooLong = there.request("resources/subscribe", Map.of("uri", "test://" + "x".repeat(10)));
            assertTrue(tooLong.path("error").path("message").asString().contains("maxResourceUriLength"),
                    "maxResourceUriLength 16 applies: " + tooLong);
            assertEquals(404, HTTP.send(HttpRequest.newBuilder(URI.create(server.url()))
                    .header("Accept", "text/event-stream").GET().build(), HttpResponse.BodyHandlers.discarding())
                    .statusCode(), "the old path serves no new requests");

            there.callTool("test_trigger_tool_change", Map.of());
            stream.await(CHANGED, 1, EFFECT);
            listener.await(CHANGED, 1, EFFECT);
            assertEquals("quiver-edited", Probe.stateless(moved, "server/discover", null, Map.of(), EFFECT)
                    .path("result").path("_meta").path("io.modelcontextprotocol/serverInfo").path("name").asString());

            Map<String, String> bad = new LinkedHashMap<>(CORE);
            bad.put("pageSize", "abc");
            write(etc.resolve("io.quiver.core.cfg"), bad);
            JsonNode problems = awaitProblems(there, "pageSize = abc");
            assertTrue(problems.toString().contains("io.quiver.core.cfg"), problems.toString());
            assertTrue(problems.toString().contains("not an integer"), problems.toString());
            assertEquals(3, there.request("tools/list", Map.of()).path("result").path("tools").size(),
                    "the last good page size stays");
            there.callTool("test_trigger_tool_change", Map.of());
            stream.await(CHANGED, 2, EFFECT);
            listener.await(CHANGED, 2, EFFECT);
            assertEquals(1, server.logLines("pageSize = abc"), "one log line:\n" + server.log());

            write(etc.resolve("io.quiver.core.cfg"), CORE);
            long deadline = System.nanoTime() + EFFECT.toNanos();
            while (problemsText(there).contains("pageSize") && System.nanoTime() < deadline) {
                Thread.sleep(100);
            }
            assertTrue(!problemsText(there).contains("pageSize"), "fixed, the problem is gone");
            Probe.normalCallAnswers(moved);
        }
    }

    // -------------------------------------------------------------------------------------------

    /** The settings a shipped etc/ file documents ({@code #key = value} lines). */
    private static Set<String> shipped(String file) throws IOException {
        Matcher m = Pattern.compile("(?m)^#([A-Za-z]+) *=").matcher(
                Files.readString(Path.of(System.getProperty("etc.dir")).resolve(file)));
        Set<String> keys = new TreeSet<>();
        while (m.find()) {
            keys.add(m.group(1));
        }
        return keys;
    }

    private static void write(Path file, Map<String, String> settings) throws IOException {
        String text = settings.entrySet().stream().map(e -> e.getKey() + " = " + e.getValue())
                .collect(Collectors.joining("\n", "", "\n"));
        Path part = file.resolveSibling("." + file.getFileName() + ".part");
        Files.writeString(part, text);
        Files.move(part, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }

    private static JsonNode awaitPageOf(McpClient client, int size) throws Exception {
        long deadline = System.nanoTime() + EFFECT.toNanos();
        while (true) {
            try {
                JsonNode result = client.request("tools/list", Map.of()).path("result");
                if (result.path("tools").size() == size || System.nanoTime() > deadline) {
                    return result;
                }
            } catch (IllegalStateException e) {
                if (System.nanoTime() > deadline) {
                    throw e;
                }
            }
            Thread.sleep(100);
        }
    }

    private static JsonNode awaitProblems(McpClient client, String text) throws Exception {
        long deadline = System.nanoTime() + EFFECT.toNanos();
        JsonNode problems;
        do {
            problems = client.callTool("problems_list", Map.of()).path("result").path("structuredContent");
            if (problems.toString().contains(text)) {
                return problems;
            }
            Thread.sleep(100);
        } while (System.nanoTime() < deadline);
        throw new AssertionError("no problem with '" + text + "' listed: " + problems);
    }

    private static String problemsText(McpClient client) throws Exception {
        return client.callTool("problems_list", Map.of()).path("result").path("structuredContent").toString();
    }

    private static Map<String, String> ordered(String... keyValues) {
        Map<String, String> map = new LinkedHashMap<>();
        for (int i = 0; i < keyValues.length; i += 2) {
            map.put(keyValues[i], keyValues[i + 1]);
        }
        return map;
    }
}
