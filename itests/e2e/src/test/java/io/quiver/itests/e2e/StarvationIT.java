package io.quiver.itests.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quiver.itests.client.McpClient;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * One slow tool cannot starve the others: with 320 slow calls sent at once, the slow tool runs at
 * most its share of the tool threads (half of maxConcurrentCalls by default), a bounded number wait
 * without a thread, and the rest are told at once that it is busy, while ping and another tool
 * answer within a second.
 */
class StarvationIT {

    private static final int SESSIONS = 10;
    private static final int CALLS_PER_SESSION = 32;

    @Test
    void aFloodedToolGetsItsShareAndOthersStillAnswer() throws Exception {
        try (QuiverServer server = QuiverServer.start("starvation", "core,http,tools-default,conformance",
                home -> Files.writeString(home.resolve("etc/io.quiver.transport.http.cfg"), "ssePollingMs = 0\n"))) {
            List<McpClient> clients = new ArrayList<>();
            ExecutorService senders = Executors.newFixedThreadPool(SESSIONS * CALLS_PER_SESSION);
            try {
                for (int i = 0; i < SESSIONS; i++) {
                    clients.add(McpClient.connect(server.url(), "flooder-" + i, Duration.ofSeconds(60)));
                }
                Map<String, AtomicInteger> outcomes = new ConcurrentHashMap<>();
                List<CompletableFuture<Void>> calls = new ArrayList<>();
                long t0 = System.nanoTime();
                List<Long> busyMillis = Collections.synchronizedList(new ArrayList<>());
                for (McpClient client : clients) {
                    for (int j = 0; j < CALLS_PER_SESSION; j++) {
                        calls.add(CompletableFuture.runAsync(() -> {
                            try {
                                JsonNode r = client.callTool("slow_compute", Map.of("seconds", 4, "label", "slow"));
                                String text = r.path("result").path("content").path(0).path("text").asString("");
                                String outcome = text.contains("is busy") ? "busy" : text.startsWith("Computed") ? "done"
                                        : "other: " + r;
                                if (outcome.equals("busy")) {
                                    busyMillis.add((System.nanoTime() - t0) / 1_000_000);
                                }
                                outcomes.computeIfAbsent(outcome, k -> new AtomicInteger()).incrementAndGet();
                            } catch (Exception e) {
                                outcomes.computeIfAbsent("failed: " + e, k -> new AtomicInteger()).incrementAndGet();
                            }
                        }, senders));
                    }
                }
                Thread.sleep(1500);
                try (McpClient other = McpClient.connect(server.url(), "other", Duration.ofSeconds(10))) {
                    for (int i = 0; i < 5; i++) {
                        long t = System.nanoTime();
                        assertEquals("{}", other.request("ping", Map.of()).path("result").toString());
                        long ping = (System.nanoTime() - t) / 1_000_000;
                        t = System.nanoTime();
                        JsonNode time = other.callTool("current_time", Map.of());
                        long call = (System.nanoTime() - t) / 1_000_000;
                        assertTrue(time.path("result").path("structuredContent").has("datetime"), time.toString());
                        assertTrue(ping < 1000 && call < 1000, "ping " + ping + " ms, current_time " + call + " ms");
                        Probe.normalCallAnswers(server.url());
                    }
                }
                CompletableFuture.allOf(calls.toArray(CompletableFuture[]::new)).get(120, TimeUnit.SECONDS);
                int total = SESSIONS * CALLS_PER_SESSION;
                int done = outcomes.getOrDefault("done", new AtomicInteger()).get();
                int busy = outcomes.getOrDefault("busy", new AtomicInteger()).get();
                assertEquals(total, done + busy, outcomes.toString());
                // 32 running + 64 waiting at most while all 320 arrive within the first call's 4 s
                assertTrue(done >= 96 && done <= 160, "calls taken: " + outcomes);
                assertTrue(busy >= 160, "calls told the tool is busy: " + outcomes);
                assertTrue(busyMillis.stream().allMatch(ms -> ms < 4000), "busy answers come at once: " + busyMillis);
            } finally {
                senders.shutdownNow();
                clients.forEach(McpClient::close);
            }
        }
    }
}
