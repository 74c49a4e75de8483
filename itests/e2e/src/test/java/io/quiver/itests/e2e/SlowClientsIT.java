package io.quiver.itests.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quiver.itests.client.McpClient;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * Slow request bodies hold no thread: 300 clients that trickle their bodies a byte a second, and one
 * whose chunked body never ends, get 408 and a closed connection once {@code bodyTimeoutMs} is over;
 * 300 clients that trickle their headers are cut off after {@code headerTimeoutMs}; a normal call
 * keeps answering within a second meanwhile, and nothing is logged but a warning line. A client that
 * stops reading its streamed answers holds up its own connection and nothing else.
 */
class SlowClientsIT {

    private static final int CLIENTS = 300;
    private static QuiverServer server;

    @BeforeAll
    static void start() throws Exception {
        server = QuiverServer.start("slow-clients", "core,http,tools-default",
                home -> Files.writeString(home.resolve("etc/io.quiver.transport.http.cfg"),
                        "bodyTimeoutMs = 3000\nheaderTimeoutMs = 2000\nsseKeepAliveMs = 1000\n"));
    }

    @AfterAll
    static void stop() throws Exception {
        server.close();
    }

    @Test
    void tricklingHeadersAreCutOffAfterTheHeaderTimeout() throws Exception {
        String head = Probe.postHead(server.url(), "Content-Length: 2\r\n");
        List<Probe.Raw> slow = new ArrayList<>();
        try {
            for (int i = 0; i < CLIENTS; i++) {
                slow.add(new Probe.Raw(server.url()).send(head.substring(0, 3)));
            }
            // a byte a second each: never silent long enough for an idle timeout, never done
            int closed = 0;
            for (int second = 3; second < 9 && closed < CLIENTS; second++) {
                closed = 0;
                for (Probe.Raw raw : slow) {
                    if (!raw.trySend(head.substring(second, second + 1))) {
                        closed++;
                    }
                }
                Probe.normalCallAnswers(server.url());
                Thread.sleep(1000);
            }
            for (Probe.Raw raw : slow) {
                raw.socket.setSoTimeout(10_000);
                assertEquals(-1, raw.in.read(), "the server closed the connection");
            }
        } catch (SocketException e) {
            // a reset reads as closed too
        } finally {
            slow.forEach(Probe.Raw::close);
        }
        Probe.normalCallAnswers(server.url());
        assertTrue(server.logLines("connections sent no complete request headers within 2000 ms") >= 1, server.log());
    }

    @Test
    void tricklingBodiesGet408AndOthersAreServedMeanwhile() throws Exception {
        List<Probe.Raw> slow = new ArrayList<>();
        try {
            for (int i = 0; i < CLIENTS; i++) {
                slow.add(new Probe.Raw(server.url()).send(Probe.postHead(server.url(), "Content-Length: 100000\r\n") + "{"));
            }
            Probe.Raw chunked = new Probe.Raw(server.url())
                    .send(Probe.postHead(server.url(), "Transfer-Encoding: chunked\r\n") + "5\r\n{\"a\":\r\n");
            slow.add(chunked);
            // a byte a second each, past the 3 s deadline: the server ends them meanwhile
            for (int second = 0; second < 5; second++) {
                for (Probe.Raw raw : slow.subList(0, CLIENTS)) {
                    raw.trySend(" ");
                }
                Probe.normalCallAnswers(server.url());
                Thread.sleep(1000);
            }
            Map<Integer, Integer> statuses = new TreeMap<>();
            for (Probe.Raw raw : slow) {
                statuses.merge(raw.status(), 1, Integer::sum);
                raw.rest(); // returns only once the server closed the connection
            }
            assertEquals(Map.of(408, CLIENTS + 1), statuses, "every slow body, the endless chunked one too");
        } finally {
            slow.forEach(Probe.Raw::close);
        }
        Probe.normalCallAnswers(server.url());
        String log = server.log();
        assertFalse(log.contains("\tat "), "no stack trace in the log:\n" + log);
        assertFalse(log.contains(" ERROR "), "nothing logged as an error:\n" + log);
        assertTrue(server.logLines("were not complete within 3000 ms") >= 1, log);
    }

    /**
     * A session client pipelines calls whose answers (~190 KB each, streamed as SSE) it never reads: once
     * the socket buffers are full, what it does not take waits in memory, and the keep-alive sweep (every
     * second here) meets that stream on the transport's timer without waiting, so the timer's deadlines
     * still fire: a slow body gets its 408 on time, and calls answer. (The call thread used to block on the
     * socket holding the stream's lock, and the sweep to wait for that lock on the timer thread: no 408,
     * no keep-alive and no call thread added until the stuck write ended.)
     */
    @Test
    void aClientThatStopsReadingItsStreamedAnswersHoldsUpNoDeadline() throws Exception {
        Files.writeString(server.home().resolve("big.txt"), "0123456789abcdef\n".repeat(11_000));
        URI uri = URI.create(server.url());
        try (McpClient client = McpClient.connect(uri); Socket greedy = new Socket()) {
            greedy.setReceiveBufferSize(4096);
            greedy.connect(new InetSocketAddress(uri.getHost(), uri.getPort()));
            String body = "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\",\"params\":{\"name\":\"read_file\","
                    + "\"arguments\":{\"path\":\"big.txt\"}}}";
            String request = Probe.postHead(server.url(), "MCP-Protocol-Version: " + McpClient.VERSION + "\r\nMcp-Session-Id: "
                    + client.session() + "\r\nContent-Length: " + body.length() + "\r\n") + body;
            OutputStream out = greedy.getOutputStream();
            out.write(request.repeat(60).getBytes(StandardCharsets.UTF_8)); // ~11 MB of answers, far past the buffers
            out.flush();
            Thread.sleep(3_000); // the buffers fill, and the sweep has met the stuck stream twice

            try (Probe.Raw slow = new Probe.Raw(server.url())) {
                slow.socket.setSoTimeout(15_000);
                long t0 = System.nanoTime();
                slow.send(Probe.postHead(server.url(), "Content-Length: 100\r\n") + "{");
                assertEquals(408, slow.status(), "a slow body beside the stuck stream");
                long ms = (System.nanoTime() - t0) / 1_000_000;
                assertTrue(ms < 6_000, "the 408 came after " + ms + " ms (bodyTimeoutMs = 3000)");
            }
            Probe.normalCallAnswers(server.url());
            JsonNode time = client.callTool("current_time", Map.of()); // the same session, another connection
            assertTrue(time.path("result").path("structuredContent").has("datetime"), time.toString());
        }
        Probe.normalCallAnswers(server.url());
    }
}
