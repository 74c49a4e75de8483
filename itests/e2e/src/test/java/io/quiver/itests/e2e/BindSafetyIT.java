package io.quiver.itests.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quiver.itests.client.McpClient;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * Listening beyond loopback needs the host names clients use: without {@code allowedHosts} the
 * server refuses to start and says what to configure; with them it starts, prints the address it
 * really listens on, and still refuses other Host names.
 */
class BindSafetyIT {

    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();

    @Test
    void everyAddressWithoutAllowedHostsRefusesToStart() throws Exception {
        QuiverServer.Failure failure = QuiverServer.startFailing("bind-refused", "core,http,tools-default",
                home -> { }, "--bind", "0.0.0.0");
        assertEquals(1, failure.exitCode(), failure.log());
        assertFalse(failure.stdout().contains("Quiver MCP endpoint"), "no endpoint is announced: " + failure.stdout());
        assertTrue(failure.log().contains("allowedHosts"), "the message says what to configure:\n" + failure.log());
        assertTrue(failure.log().contains("io.quiver.transport.http.cfg"), failure.log());
    }

    @Test
    void withAllowedHostsItStartsAndPrintsTheAddressItListensOn() throws Exception {
        try (QuiverServer server = QuiverServer.start("bind-allowed", "core,http,tools-default",
                home -> Files.writeString(home.resolve("etc/io.quiver.transport.http.cfg"), "allowedHosts = quiver.test\n"),
                "--bind", "0.0.0.0")) {
            assertTrue(server.url().startsWith("http://0.0.0.0:"), server.url());
            String local = "http://127.0.0.1:" + server.port() + "/mcp";
            assertEquals(200, initialize(local, "quiver.test:" + server.port()).statusCode());
            assertEquals(403, initialize(local, "evil.example:" + server.port()).statusCode());
            Probe.normalCallAnswers(local);
        }
    }

    private static HttpResponse<String> initialize(String url, String host) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10)).header("Host", host)
                .header("Content-Type", "application/json").header("Accept", "application/json, text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofString("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\","
                        + "\"params\":{\"protocolVersion\":\"" + McpClient.VERSION + "\",\"capabilities\":{},"
                        + "\"clientInfo\":{\"name\":\"bind\",\"version\":\"1\"}}}"))
                .build(), HttpResponse.BodyHandlers.ofString());
    }
}
