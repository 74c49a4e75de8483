package io.quiver.itests.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quiver.itests.client.McpClient;
import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.IntFunction;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * Clients that ask for big answers and never read them hold no thread of the server. The call pool
 * has two threads here; four greedy connections each pipeline calls whose answers (~11 MB in all) are
 * far more than the socket buffers take. A call writing its answer to such a client used to wait on
 * the socket until the idle timeout (a minute), holding its call thread, so two greedy clients were
 * enough to leave every other blocking tool call waiting: now the answer waits, not the thread. Each
 * greedy connection keeps at most the one answer it is not reading (it sends nothing more until it is
 * written), and the session streams' unsent events are bounded by {@code maxUnsentBytes} per connection
 * and {@code maxUnsentBytesTotal} for all together.
 */
class GreedyClientsIT {

    private static final int GREEDY = 4;
    private static QuiverServer server;

    @BeforeAll
    static void start() throws Exception {
        server = QuiverServer.start("greedy-clients", "core,http,tools-default,admin", home -> chatty(home,
                "callThreads = 2\nmaxCallThreads = 2\nmaxUnsentBytes = 65536\n"));
        Files.writeString(server.home().resolve("big.txt"), "0123456789abcdef\n".repeat(11_000));
        Files.writeString(server.home().resolve("small.txt"), "small\n");
    }

    @AfterAll
    static void stop() throws Exception {
        server.close();
    }

    /** Session clients, whose {@code tools/call} answers are SSE streams (the default {@code sseMethods}). */
    @Test
    void sessionClientsThatDoNotReadTheirStreamedAnswersHoldNoCallThread() throws Exception {
        try (McpClient client = McpClient.connect(URI.create(server.url()))) {
            assertOthersAnswerBeside(i -> {
                // ids are unique among a session's requests in progress: one per connection
                String body = "{\"jsonrpc\":\"2.0\",\"id\":" + (100 + i) + ",\"method\":\"tools/call\","
                        + "\"params\":{\"name\":\"read_file\",\"arguments\":{\"path\":\"big.txt\"}}}";
                return Probe.postHead(server.url(), "MCP-Protocol-Version: " + McpClient.VERSION + "\r\nMcp-Session-Id: "
                        + client.session() + "\r\nContent-Length: " + body.length() + "\r\n") + body;
            }, client);
        }
    }

    /** 2026-07-28 requests, answered as plain JSON. */
    @Test
    void statelessClientsThatDoNotReadTheirJsonAnswersHoldNoCallThread() throws Exception {
        String body = "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\",\"params\":{\"name\":\"read_file\","
                + "\"arguments\":{\"path\":\"big.txt\"},\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
                + "\"io.modelcontextprotocol/clientCapabilities\":{},"
                + "\"io.modelcontextprotocol/clientInfo\":{\"name\":\"greedy\",\"version\":\"1\"}}}}";
        String request = Probe.postHead(server.url(), "MCP-Protocol-Version: 2026-07-28\r\nMcp-Method: tools/call\r\n"
                + "Mcp-Name: read_file\r\nContent-Length: " + body.length() + "\r\n") + body;
        try (McpClient client = McpClient.connect(URI.create(server.url()))) {
            assertOthersAnswerBeside(i -> request, client);
        }
    }

    /**
     * A client stops reading the progress of a chatty command (megabytes of SSE): the command runs to its end
     * (nothing waits for the client), the connection holds at most {@code maxUnsentBytes} (64 KiB here)
     * beyond the socket buffers and is then ended, and the client resumes with {@code Last-Event-ID} and
     * gets the result. Before, the notifying thread waited on the socket, and every byte was kept for the
     * client.
     */
    @Test
    void aClientFarBehindItsStreamLosesTheConnectionNotTheResult() throws Exception {
        assertChattyClientResumes(server);
    }

    private static void assertChattyClientResumes(QuiverServer server) throws Exception {
        URI uri = URI.create(server.url());
        try (McpClient client = McpClient.connect(uri); Socket slow = new Socket()) {
            await(() -> client.toolNames().contains("chatty"), "chatty listed");
            Files.deleteIfExists(server.home().resolve("chatty.end"));
            slow.setReceiveBufferSize(4096);
            slow.connect(new InetSocketAddress(uri.getHost(), uri.getPort()));
            String body = "{\"jsonrpc\":\"2.0\",\"id\":42,\"method\":\"tools/call\",\"params\":{\"name\":\"chatty\","
                    + "\"arguments\":{},\"_meta\":{\"progressToken\":\"t\"}}}";
            slow.getOutputStream().write((Probe.postHead(server.url(), "MCP-Protocol-Version: " + McpClient.VERSION
                    + "\r\nMcp-Session-Id: " + client.session() + "\r\nContent-Length: " + body.length() + "\r\n") + body)
                    .getBytes(StandardCharsets.UTF_8));
            slow.getOutputStream().flush();
            // the command's run ends (its result goes to the stream's buffer) while the client reads nothing
            await(() -> Files.exists(server.home().resolve("chatty.end")), "the chatty command ran to its end");
            Thread.sleep(2_000); // its result is made and sent (into the stream's buffer)

            slow.setSoTimeout(20_000);
            String received = dechunk(slow.getInputStream());
            assertTrue(received.length() < 10_000_000, "the server held back " + received.length() + " bytes for it");
            assertFalse(received.contains("\"id\":42,\"result\""), "the result came on the ended connection, after "
                    + received.length() + " bytes and " + received.split("notifications/progress", -1).length + " notifications");
            String last = null;
            for (String line : received.split("\n")) {
                if (line.startsWith("id: ")) {
                    last = line.substring(4).trim();
                }
            }
            assertNotNull(last, "events came before the connection ended");
            String resumed = resume(server, client.session(), last);
            assertTrue(resumed.contains("\"id\":42,\"result\"") && resumed.contains("done"), resumed.length() > 400
                    ? resumed.substring(resumed.length() - 400) : resumed);
        }
        Probe.normalCallAnswers(server.url());
    }

    /**
     * The same with a per-connection limit far above what the command writes, and a server-wide one of 64
     * KiB ({@code maxUnsentBytesTotal}): no number of clients that stop reading can fill the heap.
     */
    @Test
    void allClientsTogetherHoldAtMostTheServerWideLimit() throws Exception {
        try (QuiverServer small = QuiverServer.start("greedy-total", "core,http,tools-default", home -> chatty(home,
                "maxUnsentBytes = 1073741824\nmaxUnsentBytesTotal = 65536\n"))) {
            assertChattyClientResumes(small);
            assertTrue(small.logLines("holding maxUnsentBytesTotal (65536 bytes)") >= 1, "the operator is told:\n" + small.log());
            assertEquals(0, server.logLines("maxUnsentBytesTotal"), "not where only maxUnsentBytes was met:\n" + server.log());
        }
    }

    /**
     * Writes the transport's {@code settings} and a command tool {@code chatty}: 10,000 lines of 1,000 bytes
     * on stderr in 200 paced batches, each line passed on as a progress notification (paced: the forwarder
     * drops the oldest of 256 queued lines when it falls behind), ~10 MB of SSE; then it marks its end.
     */
    private static void chatty(Path home, String settings) throws IOException {
        Files.writeString(home.resolve("etc/io.quiver.transport.http.cfg"), settings);
        Path script = home.resolve("chatty.sh");
        Files.writeString(script, "for i in $(seq 200); do yes '" + "x".repeat(1000) + "' | head -n 50 >&2; sleep 0.01; done\n"
                + "echo > chatty.end; echo done\n");
        Files.writeString(home.resolve("etc/io.quiver.tools.command-chatty.cfg"),
                "argv = /bin/sh, " + script + "\ntimeoutMs = 60000\n");
    }

    /** Opens the greedy connections, the i-th pipelining {@code request.apply(i)} 60 times, then calls beside them. */
    private static void assertOthersAnswerBeside(IntFunction<String> request, McpClient client) throws Exception {
        URI uri = URI.create(server.url());
        List<Socket> greedy = new ArrayList<>();
        try {
            for (int i = 0; i < GREEDY; i++) {
                Socket socket = new Socket();
                greedy.add(socket);
                socket.setReceiveBufferSize(4096);
                socket.connect(new InetSocketAddress(uri.getHost(), uri.getPort()));
                OutputStream out = socket.getOutputStream();
                out.write(request.apply(i).repeat(60).getBytes(StandardCharsets.UTF_8));
                out.flush();
            }
            Thread.sleep(3_000); // the socket buffers fill; the answers after that wait
            // the operator sees what they hold (each holds one answer, beyond what the socket took)
            JsonNode held = transport(client);
            assertTrue(held.path("unsentBytes").asLong() > 0, held.toString());
            assertEquals(2, held.path("maxCallThreads").asInt(), held.toString());
            assertTrue(held.path("callThreads").asInt() <= 2, held.toString());

            for (int i = 0; i < 3; i++) {
                long t0 = System.nanoTime();
                JsonNode session = client.callTool("read_file", Map.of("path", "small.txt"));
                JsonNode stateless = Probe.statelessCall(server.url(), "read_file", Map.of("path", "small.txt"),
                        Duration.ofSeconds(20));
                long ms = (System.nanoTime() - t0) / 1_000_000;
                assertEquals("small\n", text(session), session.toString());
                assertEquals("small\n", text(stateless), stateless.toString());
                assertTrue(ms < 5_000, "two blocking calls beside the greedy clients took " + ms + " ms");
            }
        } finally {
            for (Socket socket : greedy) {
                socket.close();
            }
        }
        Probe.normalCallAnswers(server.url());
        // what the closed connections held is given back, to the byte
        await(() -> transport(client).path("unsentBytes").asLong() == 0, "no unread bytes held after the greedy"
                + " clients left");
    }

    /** The HTTP transport's figures, as the {@code transports_status} admin tool gives them. */
    private static JsonNode transport(McpClient client) throws Exception {
        JsonNode all = client.callTool("transports_status", Map.of()).path("result").path("structuredContent")
                .path("transports");
        assertEquals(1, all.size(), all.toString());
        assertEquals("http", all.get(0).path("name").asText(), all.toString());
        return all.get(0);
    }

    /** Reads a chunked HTTP response to its last chunk: its body. */
    private static String dechunk(InputStream in) throws IOException {
        DataInputStream data = new DataInputStream(new BufferedInputStream(in));
        String line;
        while (!(line = line(data)).isEmpty()) {
            assertTrue(!line.startsWith("HTTP/") || line.contains(" 200 "), line);
        }
        StringBuilder body = new StringBuilder();
        while (true) {
            int size = Integer.parseInt(line(data).trim(), 16);
            if (size == 0) {
                return body.toString();
            }
            byte[] chunk = new byte[size];
            data.readFully(chunk);
            body.append(new String(chunk, StandardCharsets.UTF_8));
            line(data);
        }
    }

    private static String line(DataInputStream in) throws IOException {
        StringBuilder b = new StringBuilder();
        int c;
        while ((c = in.read()) != '\n') {
            if (c < 0) {
                throw new EOFException("the connection closed mid-response after: " + b);
            }
            b.append((char) c);
        }
        return b.toString().stripTrailing();
    }

    /** A GET with {@code Last-Event-ID}: the resumed stream's events, read to its end. */
    private static String resume(QuiverServer server, String session, String lastEventId) throws Exception {
        HttpResponse<String> get = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(server.url()))
                .timeout(Duration.ofSeconds(20)).header("Accept", "text/event-stream").header("Mcp-Session-Id", session)
                .header("MCP-Protocol-Version", McpClient.VERSION).header("Last-Event-ID", lastEventId).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, get.statusCode(), get.body());
        return get.body();
    }

    private static void await(Callable<Boolean> condition, String what) throws Exception {
        Await.until(condition::call, Duration.ofSeconds(30), () -> what);
    }

    private static String text(JsonNode response) {
        return response.path("result").path("content").path(0).path("text").asText();
    }
}
