package io.quiver.itests.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quiver.itests.client.McpClient;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * MCP POSTs are served on the thread that read them (the selector lane, on by default), so nothing on
 * that thread may wait: a client that never reads its answers, and tools that block, must hold only
 * their own requests. Every other client's call keeps answering within a second meanwhile.
 */
class SelectorLaneIT {

    private static QuiverServer server;

    @BeforeAll
    static void start() throws Exception {
        server = QuiverServer.start("selector-lane", "core,http,tools-default,conformance");
        assertEquals(1, server.logLines("are served on the thread that reads them"),
                "the lane took Felix's connector without being asked: " + server.log());
    }

    @AfterAll
    static void stop() throws Exception {
        server.close();
    }

    /** Writes {@code request} up to {@code times} times, until the socket closes: how many went out. */
    private static int send(OutputStream out, byte[] request, int times) {
        int n = 0;
        try {
            for (; n < times; n++) {
                out.write(request);
            }
        } catch (IOException e) {
            // closed at the end of the test
        }
        return n;
    }

    /**
     * One whole 2026-07-28 POST of {@code method} (its params: {@code params} then the request's
     * {@code _meta}), head and body, as a client that pipelines it sends it; {@code name}: its Mcp-Name.
     */
    private static byte[] greedyRequest(String method, String params, String name) {
        String body = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"" + method + "\",\"params\":{" + params + "\"_meta\":{"
                + "\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
                + "\"io.modelcontextprotocol/clientCapabilities\":{},"
                + "\"io.modelcontextprotocol/clientInfo\":{\"name\":\"greedy\",\"version\":\"1\"}}}}";
        return (Probe.postHead(server.url(), "MCP-Protocol-Version: 2026-07-28\r\nMcp-Method: " + method + "\r\n"
                + (name == null ? "" : "Mcp-Name: " + name + "\r\n")
                + "Content-Length: " + body.getBytes(StandardCharsets.UTF_8).length + "\r\n") + body)
                .getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void aClientThatNeverReadsItsAnswersHoldsOnlyItsOwnConnection() throws Exception {
        URI uri = URI.create(server.url());
        byte[] request = greedyRequest("tools/list", "", null);
        try (Socket greedy = new Socket()) {
            greedy.setReceiveBufferSize(1024);
            greedy.connect(new InetSocketAddress(uri.getHost(), uri.getPort()));
            OutputStream out = greedy.getOutputStream();
            // thousands of pipelined tools/list (each answer tens of KB), none of them read: the
            // server's writes to this connection stall, and so, soon, do its reads
            CompletableFuture<Integer> sent = CompletableFuture.supplyAsync(() -> send(out, request, 100_000));
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

    /**
     * Clients that send blocking calls and never read the answers hold only their connections: an answer
     * smaller than Jetty's output buffer is written into it and completed without blocking, so no call
     * thread waits for such a client (with the pool's growth turned off in a trial, the other clients'
     * calls still answered on its four core threads). Other clients' blocking calls keep answering.
     */
    @Test
    void clientsThatNeverReadTheirBlockingCallsAnswersHoldOnlyTheirConnections() throws Exception {
        URI uri = URI.create(server.url());
        byte[] request = greedyRequest("tools/call", "\"name\":\"greet\",\"arguments\":{\"name\":\"greedy\"},", "greet");
        List<Socket> greedy = new ArrayList<>();
        List<CompletableFuture<Integer>> sending = new ArrayList<>();
        ExecutorService senders = Executors.newFixedThreadPool(4); // each blocks in its writes
        try {
            for (int c = 0; c < 4; c++) {
                Socket socket = new Socket();
                socket.setReceiveBufferSize(1024);
                socket.connect(new InetSocketAddress(uri.getHost(), uri.getPort()));
                greedy.add(socket);
                OutputStream out = socket.getOutputStream();
                sending.add(CompletableFuture.supplyAsync(() -> send(out, request, 1_000_000), senders));
            }
            Thread.sleep(3_000);
            for (CompletableFuture<Integer> s : sending) {
                assertFalse(s.isDone(), "a greedy client's sending stalled: the server stopped serving it");
            }
            for (int i = 0; i < 5; i++) {
                long t0 = System.nanoTime();
                JsonNode response = Probe.statelessCall(server.url(), "greet", Map.of("name", "n" + i), Duration.ofSeconds(10));
                long ms = (System.nanoTime() - t0) / 1_000_000;
                assertEquals("Hello, n" + i + "!", response.path("result").path("content").path(0).path("text").asString(""),
                        response.toString());
                assertTrue(ms < 2_000, "a blocking call took " + ms + " ms beside the greedy clients");
            }
            Probe.normalCallAnswers(server.url());
        } finally {
            for (Socket socket : greedy) {
                socket.close();
            }
        }
        for (CompletableFuture<Integer> s : sending) {
            assertTrue(s.get(10, TimeUnit.SECONDS) < 1_000_000);
        }
        senders.shutdown();
        Probe.normalCallAnswers(server.url());
    }

    /**
     * Calls on one connection alternate between the lane (a call that waits on nothing) and the call
     * pool (a blocking call, answered from a call thread while the lane reads on): every answer still
     * arrives, once, in order, on connections that switch at every call.
     */
    @Test
    void aConnectionSwitchingBetweenBlockingAndQuickCallsGetsEveryAnswer() throws Exception {
        List<CompletableFuture<Integer>> clients = new ArrayList<>();
        for (int c = 0; c < 4; c++) {
            int client = c;
            clients.add(CompletableFuture.supplyAsync(() -> {
                // one keep-alive HTTP/1.1 connection per client: its calls go one after another on it
                HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
                int answered = 0;
                for (int i = 0; i < 60; i++) {
                    String name = "c" + client + "-" + i;
                    try {
                        JsonNode result = switch (i % 3) {
                            case 0 -> call(http, "greet", Map.of("name", name));            // blocking
                            case 1 -> call(http, "test_simple_text", Map.of());             // waits on nothing
                            default -> call(http, i % 2 == 0 ? "greet" : "current_time",     // one of each
                                    i % 2 == 0 ? Map.of("name", name) : Map.of("timezone", "UTC"));
                        };
                        String text = result.path("result").path("content").path(0).path("text").asString("");
                        if (i % 3 == 0 || i % 3 == 2 && i % 2 == 0) {
                            assertEquals("Hello, " + name + "!", text, result.toString());
                        } else {
                            assertFalse(text.isEmpty(), result.toString());
                            assertFalse(result.path("result").path("isError").asBoolean(true), result.toString());
                        }
                        answered++;
                    } catch (Exception e) {
                        throw new IllegalStateException("call " + name + " failed", e);
                    }
                }
                return answered;
            }));
        }
        for (CompletableFuture<Integer> client : clients) {
            assertEquals(60, client.get(60, TimeUnit.SECONDS));
        }
        Probe.normalCallAnswers(server.url());
    }

    private static JsonNode call(HttpClient http, String tool, Map<String, Object> arguments) throws Exception {
        String body = McpClient.JSON.writeValueAsString(Map.of("jsonrpc", "2.0", "id", 7, "method", "tools/call",
                "params", Map.of("name", tool, "arguments", arguments, "_meta", Map.of(
                        "io.modelcontextprotocol/protocolVersion", "2026-07-28",
                        "io.modelcontextprotocol/clientCapabilities", Map.of(),
                        "io.modelcontextprotocol/clientInfo", Map.of("name", "switching", "version", "1")))));
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(server.url())).timeout(Duration.ofSeconds(10))
                .header("Content-Type", "application/json").header("Accept", "application/json, text/event-stream")
                .header("MCP-Protocol-Version", "2026-07-28").header("Mcp-Method", "tools/call").header("Mcp-Name", tool)
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), r.body());
        return McpClient.JSON.readTree(r.body());
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

    /**
     * Once an exchange is over, its connection is read again when the selector reports it, not at once
     * (where an HTTP/1.1 client has sent nothing yet). On one connection: requests after a pause, one
     * after a blocking call answered from the call pool, two pipelined in one write, and a pipelined one
     * cut in two with a pause between its halves are all answered, in order.
     */
    @Test
    void aConnectionIsReadAgainWheneverItsClientSendsMore() throws Exception {
        String url = server.url();
        String list = Probe.statelessPost(url, "tools/list", null, Map.of());
        String simple = Probe.statelessPost(url, "tools/call", "test_simple_text",
                Map.of("name", "test_simple_text", "arguments", Map.of()));
        String greet = Probe.statelessPost(url, "tools/call", "greet",
                Map.of("name", "greet", "arguments", Map.of("name", "after a pause")));
        try (Probe.Raw raw = new Probe.Raw(url)) {
            for (int i = 0; i < 3; i++) {
                Thread.sleep(100);
                assertToolList(raw.send(list).json());
            }
            assertGreeting(raw.send(greet).json());
            Thread.sleep(100);
            raw.send(simple + list);
            assertSimpleText(raw.json());
            assertToolList(raw.json());
            int half = greet.length() / 2;
            raw.send(simple + greet.substring(0, half));
            assertSimpleText(raw.json());
            Thread.sleep(200);
            raw.send(greet.substring(half));
            assertGreeting(raw.json());
            assertToolList(raw.send(list).json());
        }
    }

    private static void assertToolList(JsonNode answer) {
        assertFalse(answer.path("result").path("tools").isEmpty(), answer.toString());
    }

    private static void assertSimpleText(JsonNode answer) {
        assertFalse(answer.path("result").path("content").path(0).path("text").asString("").isEmpty(), answer.toString());
        assertFalse(answer.toString().contains("Hello"), answer.toString());
    }

    private static void assertGreeting(JsonNode answer) {
        assertEquals("Hello, after a pause!", answer.path("result").path("content").path(0).path("text").asString(""),
                answer.toString());
    }
}
