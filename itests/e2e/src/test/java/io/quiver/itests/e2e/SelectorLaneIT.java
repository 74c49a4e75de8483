package io.quiver.itests.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * MCP POSTs are served on the thread that read them (the selector lane), so nothing on that thread
 * may wait: a client that never reads its answers, and tools that block, must hold only their own
 * requests. Every other client's call keeps answering within a second meanwhile.
 */
class SelectorLaneIT {

    private static QuiverServer server;

    @BeforeAll
    static void start() throws Exception {
        server = QuiverServer.start("selector-lane", "core,http,tools-default,conformance",
                home -> Files.writeString(home.resolve("etc/io.quiver.transport.http.cfg"), "selectorLane = true\n"));
        assertEquals(1, server.logLines("are served on the thread that reads them"),
                "the lane took Felix's connector: " + server.log());
    }

    @AfterAll
    static void stop() throws Exception {
        server.close();
    }

    @Test
    void aClientThatNeverReadsItsAnswersHoldsOnlyItsOwnConnection() throws Exception {
        URI uri = URI.create(server.url());
        String body = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\",\"params\":{\"_meta\":{"
                + "\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
                + "\"io.modelcontextprotocol/clientCapabilities\":{},"
                + "\"io.modelcontextprotocol/clientInfo\":{\"name\":\"greedy\",\"version\":\"1\"}}}}";
        byte[] request = (Probe.postHead(server.url(), "MCP-Protocol-Version: 2026-07-28\r\nMcp-Method: tools/list\r\n"
                + "Content-Length: " + body.getBytes(StandardCharsets.UTF_8).length + "\r\n") + body)
                .getBytes(StandardCharsets.UTF_8);
        try (Socket greedy = new Socket()) {
            greedy.setReceiveBufferSize(1024);
            greedy.connect(new InetSocketAddress(uri.getHost(), uri.getPort()));
            OutputStream out = greedy.getOutputStream();
            // thousands of pipelined tools/list (each answer tens of KB), none of them read: the
            // server's writes to this connection stall, and so, soon, do its reads
            CompletableFuture<Integer> sent = CompletableFuture.supplyAsync(() -> {
                int n = 0;
                try {
                    for (; n < 100_000; n++) {
                        out.write(request);
                    }
                } catch (IOException e) {
                    // closed at the end of the test
                }
                return n;
            });
            Thread.sleep(2_000);
            assertFalse(sent.isDone(), "the greedy client's sending stalled: the server stopped serving it");
            for (int i = 0; i < 5; i++) {
                Probe.normalCallAnswers(server.url());
            }
            greedy.close();
            assertTrue(sent.get(10, TimeUnit.SECONDS) < 100_000);
        }
        Probe.normalCallAnswers(server.url());
    }

    @Test
    void toolsThatBlockAreHandedToThePoolAndOthersAnswerMeanwhile() throws Exception {
        List<CompletableFuture<JsonNode>> slow = new ArrayList<>();
        long t0 = System.nanoTime();
        for (int i = 0; i < 8; i++) {
            slow.add(CompletableFuture.supplyAsync(() -> {
                try {
                    return Probe.statelessCall(server.url(), "slow_compute", Map.of("seconds", 3), Duration.ofSeconds(30));
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            }));
        }
        Thread.sleep(500);
        for (int i = 0; i < 5; i++) {
            Probe.normalCallAnswers(server.url());
        }
        for (CompletableFuture<JsonNode> call : slow) {
            JsonNode response = call.get(30, TimeUnit.SECONDS);
            assertFalse(response.path("result").path("isError").asBoolean(true), response.toString());
        }
        long ms = (System.nanoTime() - t0) / 1_000_000;
        assertTrue(ms < 9_000, "eight 3-second calls ran side by side, not one after another: " + ms + " ms");
    }
}
