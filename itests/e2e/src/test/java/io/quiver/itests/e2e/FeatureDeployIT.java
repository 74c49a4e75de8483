package io.quiver.itests.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quiver.itests.client.McpClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

/**
 * An OSGi Feature file dropped into deploy/ installs its bundles (found beside it in
 * deploy/bundles/) and its configurations; deleting it takes both away again. A bundle the platform
 * already has (Jackson, which the server's class path provides) is not installed a second time.
 */
class FeatureDeployIT {

    private static QuiverServer server;
    private static McpClient client;

    @BeforeAll
    static void start() throws Exception {
        server = QuiverServer.start("feature-deploy", "core,http");
        client = McpClient.connect(server.url(), "feature-deploy", Duration.ofSeconds(20));
    }

    @AfterAll
    static void stop() throws Exception {
        client.close();
        server.close();
    }

    @Test
    void aFeatureFileBringsItsBundlesAndConfigurationsAndTakesThemAway() throws Exception {
        Path deploy = server.home().resolve("deploy");
        String version = System.getProperty("quiver.version");
        Files.createDirectories(deploy.resolve("bundles"));
        Files.copy(Path.of(System.getProperty("conformance.bundle")),
                deploy.resolve("bundles/tools.conformance-" + version + ".jar"));
        // the tool's Jackson, beside it as a feature's bundles would be: the platform has it already
        String jackson = tools.jackson.databind.cfg.PackageVersion.VERSION.toString();
        Files.copy(Path.of(ObjectMapper.class.getProtectionDomain().getCodeSource().getLocation().toURI()),
                deploy.resolve("bundles/jackson-databind-" + jackson + ".jar"));
        assertFalse(client.toolNames().contains("test_simple_text"));

        Path feature = deploy.resolve("fixtures.json");
        Files.writeString(feature, """
                {"feature-resource-version":"1.0","id":"io.quiver.test:fixtures:1.0",
                 "bundles":[{"id":"tools.jackson.core:jackson-databind:%s","start-order":20},
                            {"id":"io.quiver:tools.conformance:%s","start-order":30}],
                 "configurations":{"io.quiver.core.tool~simple":{"tool":"test_simple_text","maxOutputBytes":9}}}
                """.formatted(jackson, version));
        await(() -> String.join(" ", client.toolNames()), names -> names.contains("test_simple_text"));
        String installedLine = await(() -> server.log().lines().filter(l -> l.contains("Installed feature io.quiver.test:fixtures:1.0"))
                .findFirst().orElse(""), l -> !l.isEmpty());
        assertTrue(installedLine.endsWith(": 1 bundles, 1 configurations"), "the conformance tools only, not a second Jackson: "
                + installedLine);
        String text = await(FeatureDeployIT::simpleText, t -> t.startsWith("This is a") && t.contains("truncated"));
        assertTrue(text.startsWith("This is a\n[output truncated"), "the feature's tool limit applies: " + text);

        Files.delete(feature);
        await(() -> String.join(" ", client.toolNames()), names -> !names.contains("test_simple_text"));
        JsonNode gone = client.callTool("test_simple_text", Map.of());
        assertEquals(-32602, McpClient.errorCode(gone));
    }

    private static String simpleText() throws Exception {
        return client.callTool("test_simple_text", Map.of()).path("result").path("content").path(0).path("text")
                .asString("");
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
}
