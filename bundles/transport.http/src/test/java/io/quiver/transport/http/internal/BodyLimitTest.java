package io.quiver.transport.http.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quiver.api.transport.Receipt;
import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code maxBodyBytes} is the largest body taken, whichever way it comes: with a declared length, chunked (read as it
 * arrives) or after {@code Expect: 100-continue}. A byte more is 413; the limit itself reaches the engine whole.
 * Served by the servlet in a real Jetty, over loopback.
 */
class BodyLimitTest {

    private static final int LIMIT = 1000;

    private final List<Integer> received = new CopyOnWriteArrayList<>();
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();
    private final LiveEndpoint live = new LiveEndpoint();
    private URI endpoint;

    @BeforeEach
    void start() throws Exception {
        // every message taken (202), its size noted
        live.engine.script = (message, inbound) -> {
            received.add(message.length);
            return new Receipt.Accepted();
        };
        live.with("maxBodyBytes", Long.toString(LIMIT)).with("maxDrainBytes", "100000").start();
        endpoint = URI.create("http://127.0.0.1:" + live.port() + "/mcp");
    }

    @AfterEach
    void stop() throws Exception {
        live.close();
    }

    @Test
    void aBodyOfExactlyTheLimitIsTakenAndOneByteMoreIs413WithADeclaredLength() throws Exception {
        assertEquals(202, post(HttpRequest.BodyPublishers.ofByteArray(body(LIMIT))));
        assertEquals(413, post(HttpRequest.BodyPublishers.ofByteArray(body(LIMIT + 1))));
        assertEquals(List.of(LIMIT), received);
    }

    @Test
    void aChunkedBodyOfExactlyTheLimitIsTakenAndOneByteMoreIs413() throws Exception {
        // no declared length: the body is read as it comes, and counted
        assertEquals(202, post(HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(body(LIMIT)))));
        assertEquals(413, post(HttpRequest.BodyPublishers.ofInputStream(
                () -> new ByteArrayInputStream(body(LIMIT + 1)))));
        assertEquals(List.of(LIMIT), received);
    }

    @Test
    void aClientThatAsksBeforeSendingTheLimitMaySendIt() throws Exception {
        assertEquals("HTTP/1.1 202", askThenSend(LIMIT).substring(0, 12));
        assertTrue(askThenSend(LIMIT + 1).startsWith("HTTP/1.1 413"), "refused before it is sent");
        assertEquals(List.of(LIMIT), received);
    }

    /**
     * A POST with {@code Expect: 100-continue}, over a plain socket: the body follows a 100 (Continue); what the
     * server answered in the end.
     */
    private String askThenSend(int bytes) throws Exception {
        try (Socket socket = new Socket("127.0.0.1", endpoint.getPort())) {
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            out.write(("POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:" + endpoint.getPort()
                    + "\r\nAccept: application/json, text/event-stream\r\nContent-Type: application/json"
                    + "\r\nContent-Length: " + bytes + "\r\nExpect: 100-continue\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            out.flush();
            BufferedReader in = new BufferedReader(new InputStreamReader(socket.getInputStream(),
                    StandardCharsets.US_ASCII));
            String status = in.readLine();
            if (status.startsWith("HTTP/1.1 100")) {
                while (!in.readLine().isEmpty()) {
                    // the rest of the interim answer
                }
                out.write(body(bytes));
                out.flush();
                status = in.readLine();
            }
            return status;
        }
    }

    private int post(HttpRequest.BodyPublisher body) throws Exception {
        HttpRequest request = HttpRequest.newBuilder(endpoint).timeout(Duration.ofSeconds(10))
                .header("Accept", "application/json, text/event-stream").header("Content-Type", "application/json")
                .POST(body).build();
        HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() == 413) {
            assertTrue(response.body().contains("Payload Too Large: the limit is " + LIMIT + " bytes"), response.body());
        }
        return response.statusCode();
    }

    /** A JSON-RPC notification padded to exactly {@code bytes} bytes. */
    private static byte[] body(int bytes) {
        String head = "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/x\",\"params\":{\"pad\":\"";
        String tail = "\"}}";
        return (head + "p".repeat(bytes - head.length() - tail.length()) + tail).getBytes(StandardCharsets.UTF_8);
    }
}
