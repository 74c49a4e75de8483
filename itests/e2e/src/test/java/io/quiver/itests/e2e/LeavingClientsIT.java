package io.quiver.itests.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.quiver.itests.client.McpClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * Many 2026-07-28 clients that leave at once, some of their calls running and the rest waiting for the tool's
 * turn: closing the connection is how such a client cancels. Every call ends cancelled and leaves its line in
 * the audit trail (those that waited too, at once, not when their turn would have come), none of them
 * completes, nothing fails in the server while their answers race with the connections' ends (Jetty's
 * request recycled under an answer once threw out of the answering thread), and an ordinary call still answers.
 */
class LeavingClientsIT {

    private static final int CLIENTS = 48;
    private static final int ROUNDS = 3;

    @Test
    void clientsLeavingTogetherCancelEveryCallRunningOrWaitingAndTheServerStaysWhole() throws Exception {
        // 8 calls of one tool at once (half of 16), the others wait in its queue
        try (QuiverServer server = QuiverServer.start("leaving-clients", "core,http,tools-default,conformance",
                home -> Files.writeString(home.resolve("etc").resolve("io.quiver.core.cfg"),
                        "maxConcurrentCalls = 16\ntoolSharePercent = 50\n"))) {
            for (int round = 0; round < ROUNDS; round++) {
                List<Probe.Raw> clients = new ArrayList<>();
                for (int i = 0; i < CLIENTS; i++) {
                    clients.add(new Probe.Raw(server.url()).send(Probe.statelessPost(server.url(), "tools/call",
                            "slow_compute", Map.of("name", "slow_compute",
                                    "arguments", Map.of("seconds", 5, "label", "r" + round + "-" + i)))));
                }
                Thread.sleep(600); // running or waiting, each connection watched
                clients.forEach(Probe.Raw::close);
            }
            List<JsonNode> calls = awaitAudited(server.home(), CLIENTS * ROUNDS);
            for (JsonNode call : calls) {
                assertEquals("CANCELLED", call.path("ending").asString(), call.toString());
            }
            Probe.normalCallAnswers(server.url());
            assertEquals(0, server.logLines("ERROR"), server.log());
            assertEquals(0, server.logLines("Exception in thread"), server.log());
        }
    }

    /** The audit trail's lines of slow_compute once there are {@code count} (15 s at most), or fails. */
    private static List<JsonNode> awaitAudited(Path home, int count) throws Exception {
        Path audit = home.resolve("audit/calls.jsonl");
        List<JsonNode> calls = List.of();
        long deadline = System.nanoTime() + 15_000_000_000L;
        while (System.nanoTime() < deadline) {
            calls = new ArrayList<>();
            if (Files.exists(audit)) {
                for (String line : Files.readAllLines(audit)) {
                    JsonNode entry = McpClient.JSON.readTree(line);
                    if ("slow_compute".equals(entry.path("tool").asString())) {
                        calls.add(entry);
                    }
                }
            }
            if (calls.size() >= count) {
                break;
            }
            Thread.sleep(100);
        }
        assertEquals(count, calls.size(), "a line per call in the audit trail (the first: "
                + (calls.isEmpty() ? "none" : calls.get(0)) + ")");
        return calls;
    }
}
