package io.quiver.itests.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quiver.itests.client.McpClient;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Floods of sessions, streams and listeners are bounded: beyond the configured limits new ones get
 * 503 with Retry-After while existing clients keep being served, and sessions that never speak
 * after their initialize are gone after the handshake timeout, so a flood clears itself.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class FloodIT {

    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();
    private static QuiverServer server;

    @BeforeAll
    static void start() throws Exception {
        server = QuiverServer.start("flood", "core,http,tools-default", home -> {
            Files.writeString(home.resolve("etc/io.quiver.core.cfg"), """
                    maxSessions = 400
                    maxSessionsPerClient = 300
                    handshakeTimeoutMs = 8000
                    maxListeners = 50
                    """);
            Files.writeString(home.resolve("etc/io.quiver.transport.http.cfg"), """
                    maxStreams = 100
                    maxStreamsPerSession = 4
                    sseKeepAliveMs = 1000
                    """);
        });
    }

    @AfterAll
    static void stop() throws Exception {
        server.close();
    }

    @Test
    @Order(3)
    void aSessionFloodIsRefusedBeyondTheLimitAndClearsItself() throws Exception {
        try (McpClient normal = McpClient.connect(server.url(), "normal", Duration.ofSeconds(10))) {
            Map<Integer, Integer> statuses = new TreeMap<>();
            boolean retryAfter = true;
            List<CompletableFuture<HttpResponse<String>>> flood = new ArrayList<>();
            long t0 = System.nanoTime();
            for (int i = 0; i < 1000; i++) {
                flood.add(HTTP.sendAsync(initialize(), HttpResponse.BodyHandlers.ofString()));
                if (flood.size() == 32) {
                    for (CompletableFuture<HttpResponse<String>> f : flood) {
                        HttpResponse<String> r = f.get();
                        statuses.merge(r.statusCode(), 1, Integer::sum);
                        retryAfter &= r.statusCode() != 503 || r.headers().firstValue("Retry-After").isPresent();
                    }
                    flood.clear();
                }
            }
            for (CompletableFuture<HttpResponse<String>> f : flood) {
                statuses.merge(f.get().statusCode(), 1, Integer::sum);
            }
            long floodMs = (System.nanoTime() - t0) / 1_000_000;
            assertTrue(floodMs < 8000, "the flood must end before its first sessions expire; it took " + floodMs + " ms");
            assertEquals(Map.of(200, 299, 503, 701), statuses, "300 sessions per client address, the normal one included");
            assertTrue(retryAfter, "every 503 says when to try again");
            assertEquals("{}", normal.request("ping", Map.of()).path("result").toString(), "the normal session answers");
            Probe.normalCallAnswers(server.url());

            // the flood's sessions never spoke after initialize: gone after the handshake timeout
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            int status = 0;
            while (System.nanoTime() < deadline && (status = HTTP.send(initialize(), HttpResponse.BodyHandlers.ofString())
                    .statusCode()) != 200) {
                Thread.sleep(200);
            }
            assertEquals(200, status, "new sessions are taken again once the flood expired");
            assertEquals("{}", normal.request("ping", Map.of()).path("result").toString(), "the spoken session stays");
        }
    }

    @Test
    @Order(1)
    void streamsBeyondTheLimitAreRefused() throws Exception {
        List<Probe.Raw> open = new ArrayList<>();
        List<McpClient> sessions = new ArrayList<>();
        Map<Integer, Integer> statuses = new TreeMap<>();
        try {
            for (int i = 0; i < 130; i++) {
                McpClient client = McpClient.connect(server.url(), "streamer", Duration.ofSeconds(10));
                sessions.add(client);
                String session = client.session();
                Probe.Raw raw = new Probe.Raw(server.url());
                URI uri = URI.create(server.url());
                raw.send("GET " + uri.getPath() + " HTTP/1.1\r\nHost: " + uri.getHost() + ":" + uri.getPort()
                        + "\r\nAccept: text/event-stream\r\nMcp-Session-Id: " + session
                        + "\r\nMCP-Protocol-Version: " + McpClient.VERSION + "\r\n\r\n");
                int status = raw.status();
                statuses.merge(status, 1, Integer::sum);
                if (status == 200) {
                    open.add(raw);
                } else {
                    raw.close();
                }
            }
            assertEquals(Map.of(200, 100, 503, 30), statuses);
            Probe.normalCallAnswers(server.url());
        } finally {
            open.forEach(Probe.Raw::close);
            sessions.forEach(McpClient::close);
        }
        // closed streams give their room back
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        boolean reopened = false;
        while (!reopened && System.nanoTime() < deadline) {
            try (McpClient client = McpClient.connect(server.url(), "after", Duration.ofSeconds(10))) {
                client.openEventStream();
                reopened = true;
            } catch (IllegalStateException e) {
                Thread.sleep(200);
            }
        }
        assertTrue(reopened, "a stream opens again once the others closed");
    }

    @Test
    @Order(2)
    void listenStreamsBeyondTheLimitAreRefused() throws Exception {
        List<Probe.Raw> open = new ArrayList<>();
        Map<Integer, Integer> statuses = new TreeMap<>();
        try {
            for (int i = 0; i < 60; i++) {
                Probe.Raw raw = new Probe.Raw(server.url());
                raw.send(Probe.statelessPost(server.url(), "subscriptions/listen", null,
                        Map.of("notifications", Map.of("toolsListChanged", true))));
                int status = raw.status();
                statuses.merge(status, 1, Integer::sum);
                open.add(raw);
            }
            assertEquals(Map.of(200, 50, 503, 10), statuses);
            Probe.normalCallAnswers(server.url());
        } finally {
            open.forEach(Probe.Raw::close);
        }
    }

    private static HttpRequest initialize() {
        return HttpRequest.newBuilder(URI.create(server.url())).timeout(Duration.ofSeconds(20))
                .header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofString("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\","
                        + "\"params\":{\"protocolVersion\":\"" + McpClient.VERSION + "\",\"capabilities\":{},"
                        + "\"clientInfo\":{\"name\":\"flood\",\"version\":\"1\"}}}"))
                .build();
    }
}
