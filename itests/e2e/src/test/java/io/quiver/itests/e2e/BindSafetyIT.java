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
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Listening beyond loopback needs the host names clients use and authentication: without
 * {@code allowedHosts}, or without an authentication configured (and no {@code --insecure-no-auth}),
 * the server refuses to start and says what to configure; with them it starts, prints the address
 * it really listens on, still refuses other Host names, and refuses callers without a credential.
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
    void withAllowedHostsButNoAuthenticationItRefusesToStart() throws Exception {
        QuiverServer.Failure failure = QuiverServer.startFailing("bind-no-auth", "core,http,tools-default",
                home -> Files.writeString(home.resolve("etc/io.quiver.transport.http.cfg"), "allowedHosts = quiver.test\n"),
                "--bind", "0.0.0.0");
        assertEquals(1, failure.exitCode(), failure.log());
        assertFalse(failure.stdout().contains("Quiver MCP endpoint"), "no endpoint is announced: " + failure.stdout());
        assertTrue(failure.log().contains("needs authentication") && failure.log().contains("--insecure-no-auth"),
                "the message says what to configure:\n" + failure.log());
    }

    @Test
    void insecureNoAuthStartsWithAWarningAndPrintsTheAddressItListensOn() throws Exception {
        try (QuiverServer server = QuiverServer.start("bind-allowed", "core,http,tools-default",
                home -> Files.writeString(home.resolve("etc/io.quiver.transport.http.cfg"), "allowedHosts = quiver.test\n"),
                "--bind", "0.0.0.0", "--insecure-no-auth")) {
            assertTrue(server.url().startsWith("http://0.0.0.0:"), server.url());
            assertTrue(server.log().contains("WITHOUT authentication"), server.log());
            String local = "http://127.0.0.1:" + server.port() + "/mcp";
            assertEquals(200, initialize(local, "quiver.test:" + server.port()).statusCode());
            assertEquals(403, initialize(local, "evil.example:" + server.port()).statusCode());
            // a call works (whether it is quick is the attack tests' question, not this one's: the first
            // call of a fresh server loads the time zone data)
            assertTrue(Probe.statelessCall(local, "current_time", Map.of(), Duration.ofSeconds(10))
                    .path("result").path("structuredContent").has("datetime"));
        }
    }

    @Test
    void withAnApiKeyItStartsAndRefusesCallersWithoutOne() throws Exception {
        try (QuiverServer server = QuiverServer.start("bind-auth", "core,http,tools-default", home -> {
            Files.writeString(home.resolve("etc/io.quiver.transport.http.cfg"), "allowedHosts = quiver.test\n");
            // the hash of a key nobody has: the point is that authentication is configured
            Files.writeString(home.resolve("etc/io.quiver.auth.apikey-ops.cfg"), "hash = sha256:" + "ab".repeat(32)
                    + "\nsubject = ops\nexpires = 2099-01-01\n");
        }, "--bind", "0.0.0.0")) {
            String local = "http://127.0.0.1:" + server.port() + "/mcp";
            HttpResponse<String> r = initialize(local, "quiver.test:" + server.port());
            assertEquals(401, r.statusCode(), r.body());
            assertTrue(r.headers().firstValue("WWW-Authenticate").orElse("").contains("resource_metadata="), r.headers().toString());
            assertFalse(server.log().contains("WITHOUT authentication"), server.log());
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
