package io.quiver.transport.http.internal;

import static io.quiver.transport.http.internal.EndpointRefusalsTest.assertRefused;
import static io.quiver.transport.http.internal.ScriptedEngine.bytes;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quiver.api.transport.MessageSink;
import io.quiver.api.transport.Receipt;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Clients that are slow, greedy or gone: a body that does not come in time, a body whose framing is broken, a
 * client that stops reading its stream, a client that leaves a request it made. Served by the servlet in a real
 * Jetty, over loopback.
 */
class SlowClientsTest {

    private final LiveEndpoint endpoint = new LiveEndpoint();

    @AfterEach
    void stop() throws Exception {
        endpoint.close();
    }

    @Test
    void aBodyThatDoesNotArriveInTimeIs408AndTheConnectionCloses() throws Exception {
        endpoint.with("bodyTimeoutMs", "200").start();
        try (RawHttp answer = RawHttp.sendOnly(endpoint.port(), "POST", "/mcp", Map.of("Accept",
                "application/json, text/event-stream", "Content-Type", "application/json", "Content-Length", "100"), null)) {
            answer.sendMore("{\"jsonrpc\":");
            answer.readHead();
            assertRefused(answer, 408, -32000, "Request Timeout: the body did not arrive within 200 ms");
            assertEquals("close", answer.header("Connection"));
        }
        assertEquals(0, endpoint.engine.inbounds.size());
    }

    @Test
    void aChunkedBodyWhoseFramingIsBrokenIs400ParseError() throws Exception {
        endpoint.start();
        try (RawHttp answer = RawHttp.sendOnly(endpoint.port(), "POST", "/mcp", Map.of("Accept",
                "application/json, text/event-stream", "Content-Type", "application/json", "Transfer-Encoding",
                "chunked"), null)) {
            answer.sendMore("5\r\n{\"a\":\r\nzz\r\n");
            answer.readHead();
            assertRefused(answer, 400, -32700, HttpErrors.MALFORMED);
            assertEquals("close", answer.header("Connection"));
        }
        assertEquals(0, endpoint.engine.inbounds.size());
    }

    /**
     * A client of a stateless request that stops reading its stream: once it holds {@code maxUnsentBytes} unread
     * (beyond what the sockets' buffers took), its connection ends and its request is cancelled; the server keeps
     * no more of its events.
     */
    @Test
    void aClientThatStopsReadingItsStreamHasItsRequestCancelled() throws Exception {
        endpoint.with("maxUnsentBytes", "65536").start();
        ScriptedEngine.Scripted call = new ScriptedEngine.Scripted("tools/call", ScriptedEngine.STATELESS, null);
        endpoint.engine.script = (message, inbound) -> new Receipt.Pending(null, call);
        try (Socket client = new Socket("127.0.0.1", endpoint.port())) {
            client.setReceiveBufferSize(4096);
            OutputStream out = client.getOutputStream();
            String body = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\"}";
            out.write(("POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: application/json, text/event-stream\r\n"
                    + "Content-Type: application/json\r\nContent-Length: " + body.length() + "\r\n\r\n" + body)
                    .getBytes(StandardCharsets.US_ASCII));
            out.flush();
            MessageSink sink = call.sink();
            byte[] event = bytes("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{\"data\":\""
                    + "x".repeat(16 * 1024) + "\"}}");
            // never read: the sockets' buffers fill (a few MiB on loopback), then what waits passes maxUnsentBytes
            for (int i = 0; i < 20_000 && !call.isAbandoned(); i++) {
                sink.send(event);
            }
            assertTrue(call.isAbandoned(), "the request is cancelled");
            assertEquals(0, endpoint.servlet.status().unsentBytes(), "nothing of it is held any more");
        }
    }

    @Test
    void aBodyDeclaredBeyondWhatWouldBeDrainedIs413BeforeItIsSent() throws Exception {
        endpoint.with("maxBodyBytes", "1000").with("maxDrainBytes", "1000").with("bodyTimeoutMs", "300").start();
        try (RawHttp answer = RawHttp.sendOnly(endpoint.port(), "POST", "/mcp", Map.of("Accept",
                "application/json, text/event-stream", "Content-Type", "application/json", "Content-Length", "2001"), null)) {
            answer.readHead(); // nothing of the body sent
            assertRefused(answer, 413, -32000, "Payload Too Large: the limit is 1000 bytes");
            assertEquals("close", answer.header("Connection"));
        }
    }

    @Test
    void aBodyOverTheLimitButWithinTheDrainAllowanceIsReadToItsEndBeforeThe413() throws Exception {
        endpoint.with("maxBodyBytes", "1000").with("maxDrainBytes", "1000").with("bodyTimeoutMs", "300").start();
        Map<String, String> headers = Map.of("Accept", "application/json, text/event-stream", "Content-Type",
                "application/json", "Content-Length", "2000");
        try (RawHttp answer = RawHttp.sendOnly(endpoint.port(), "POST", "/mcp", headers, null)) {
            answer.sendMore("x".repeat(1999));
            answer.readHead();
            assertRefused(answer, 408, -32000, "Request Timeout: the body did not arrive within 300 ms");
        }
        try (RawHttp answer = RawHttp.sendOnly(endpoint.port(), "POST", "/mcp", headers, null)) {
            answer.sendMore("x".repeat(2000));
            answer.readHead();
            assertRefused(answer, 413, -32000, "Payload Too Large: the limit is 1000 bytes");
            assertEquals("close", answer.header("Connection"));
        }
        assertEquals(0, endpoint.engine.inbounds.size());
    }

    /**
     * Slowloris: a client that sends its request line and headers a little at a time is cut off once it took longer
     * than {@code headerTimeoutMs}; a connection idle between two requests is not.
     */
    @Test
    void aClientThatTricklesItsHeadersIsCutOffAndAnIdleOneIsNot() throws Exception {
        endpoint.withHeaderGuard().with("headerTimeoutMs", "1000").start(); // the least it may be
        ScheduledExecutorService ticker = Executors.newSingleThreadScheduledExecutor();
        try (RawHttp idle = endpoint.post("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/x\"}");
                Socket slow = new Socket("127.0.0.1", endpoint.port())) {
            assertEquals(202, idle.status()); // the guard learns the server's connectors from it
            slow.setSoTimeout(10_000);
            slow.getOutputStream().write("POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: app".getBytes(
                    StandardCharsets.US_ASCII));
            slow.getOutputStream().flush();
            // what the transport runs every second
            ticker.scheduleWithFixedDelay(endpoint.servlet::sweepHeaders, 0, 20, TimeUnit.MILLISECONDS);
            assertEquals(-1, slow.getInputStream().read(), "closed without an answer");
            ticker.shutdownNow();
            assertTrue(ticker.awaitTermination(10, TimeUnit.SECONDS));
            idle.sendMore("POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: application/json, text/event-stream\r\n"
                    + "Content-Type: application/json\r\nContent-Length: 2\r\n\r\n{}");
            idle.readHead();
            assertEquals(202, idle.status(), "the connection between requests was left open");
        } finally {
            ticker.shutdownNow();
        }
    }

    @Test
    void aClientStillWithinItsHeaderTimeIsServed() throws Exception {
        endpoint.withHeaderGuard().with("headerTimeoutMs", "60000").start();
        endpoint.servlet.watchServer(endpoint.server); // as the selector lane has it watch Felix's server
        try (RawHttp slow = RawHttp.connect(endpoint.port())) {
            slow.sendMore("POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n");
            // the request line and one header sent, the rest to come: Jetty has read them once its parser is in them
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            boolean parsed;
            while (!(parsed = inHeaders(endpoint)) && System.nanoTime() < deadline) {
                Thread.onSpinWait();
            }
            assertTrue(parsed);
            endpoint.servlet.sweepHeaders();
            endpoint.servlet.sweepHeaders();
            slow.sendMore("Accept: application/json, text/event-stream\r\nContent-Type: application/json\r\n"
                    + "Content-Length: 2\r\n\r\n{}");
            slow.readHead();
            assertEquals(202, slow.status(), "not cut off");
        }
    }

    /** Whether a connection of the server is inside a request's headers (read through Jetty's own parser). */
    private static boolean inHeaders(LiveEndpoint endpoint) {
        for (org.eclipse.jetty.server.Connector connector : endpoint.server.getConnectors()) {
            for (org.eclipse.jetty.io.EndPoint endPoint : ((org.eclipse.jetty.server.AbstractConnector) connector)
                    .getConnectedEndPoints()) {
                if (endPoint.getConnection() instanceof org.eclipse.jetty.server.internal.HttpConnection http
                        && http.getParser().inHeaderState() && !http.getParser().isStart()) {
                    return true;
                }
            }
        }
        return false;
    }
}
