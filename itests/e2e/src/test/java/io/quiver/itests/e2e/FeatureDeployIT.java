package io.quiver.itests.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * An OSGi Feature file dropped into deploy/ installs its bundles (found beside it in
 * deploy/bundles/) and its configurations; deleting it takes both away again.
 */
class FeatureDeployIT {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(5)).build();
    private static QuiverServer server;
    private static String session;

    @BeforeAll
    static void start() throws Exception {
        server = QuiverServer.start("feature-deploy", "core,http");
        session = initialize();
    }

    @AfterAll
    static void stop() throws Exception {
        server.close();
    }

    @Test
    void aFeatureFileBringsItsBundlesAndConfigurationsAndTakesThemAway() throws Exception {
        Path deploy = server.home().resolve("deploy");
        String version = System.getProperty("quiver.version");
        Files.createDirectories(deploy.resolve("bundles"));
        Files.copy(Path.of(System.getProperty("conformance.bundle")),
                deploy.resolve("bundles/tools.conformance-" + version + ".jar"));
        assertFalse(toolNames().contains("test_simple_text"));

        Path feature = deploy.resolve("fixtures.json");
        Files.writeString(feature, """
                {"feature-resource-version":"1.0","id":"io.quiver.test:fixtures:1.0",
                 "bundles":[{"id":"io.quiver:tools.conformance:%s","start-order":30}],
                 "configurations":{"io.quiver.core.tool~simple":{"tool":"test_simple_text","maxOutputBytes":9}}}
                """.formatted(version));
        await(names -> names.contains("test_simple_text"));
        String text = await(() -> callText("test_simple_text"), t -> t.startsWith("This is a") && t.contains("truncated"));
        assertTrue(text.startsWith("This is a\n[output truncated"), "the feature's tool limit applies: " + text);

        Files.delete(feature);
        await(names -> !names.contains("test_simple_text"));
        JsonNode gone = call("tools/call", "{\"name\":\"test_simple_text\"}");
        assertEquals(-32602, gone.path("error").path("code").asInt());
    }

    // -------------------------------------------------------------------------------------------

    private static String toolNames() throws Exception {
        StringBuilder names = new StringBuilder();
        for (JsonNode tool : call("tools/list", "{}").path("result").path("tools")) {
            names.append(tool.path("name").asString()).append(' ');
        }
        return names.toString();
    }

    private static void await(Predicate<String> condition) throws Exception {
        await(FeatureDeployIT::toolNames, condition);
    }

    private interface Probe {
        String get() throws Exception;
    }

    private static String await(Probe probe, Predicate<String> condition) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        String value = probe.get();
        while (!condition.test(value)) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("condition not met within 20 s; last value: " + value + "\n" + server.log());
            }
            Thread.sleep(100);
            value = probe.get();
        }
        return value;
    }

    private static String callText(String tool) throws Exception {
        JsonNode r = call("tools/call", "{\"name\":\"" + tool + "\"}");
        return r.path("result").path("content").path(0).path("text").asString("");
    }

    private static JsonNode call(String method, String params) throws Exception {
        String body = "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"" + method + "\",\"params\":" + params + "}";
        HttpResponse<String> r = HTTP.send(request(session).POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                HttpResponse.BodyHandlers.ofString());
        String text = r.body();
        if (r.headers().firstValue("Content-Type").orElse("").startsWith("text/event-stream")) {
            String last = null;
            for (String line : text.split("\n")) {
                if (line.startsWith("data:") && line.length() > 6) {
                    last = line.substring(5).trim();
                }
            }
            text = last;
        }
        return JSON.readTree(text);
    }

    private static HttpRequest.Builder request(String sessionId) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(server.url())).timeout(Duration.ofSeconds(20))
                .header("Content-Type", "application/json").header("Accept", "application/json, text/event-stream")
                .header("MCP-Protocol-Version", "2025-11-25");
        return sessionId == null ? b : b.header("Mcp-Session-Id", sessionId);
    }

    private static String initialize() throws Exception {
        String body = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":"
                + "\"2025-11-25\",\"capabilities\":{},\"clientInfo\":{\"name\":\"feature-deploy\",\"version\":\"1\"}}}";
        HttpResponse<String> r = HTTP.send(request(null).POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                HttpResponse.BodyHandlers.ofString());
        return r.headers().firstValue("Mcp-Session-Id").orElseThrow();
    }
}
