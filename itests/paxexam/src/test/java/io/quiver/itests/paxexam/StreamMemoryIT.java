package io.quiver.itests.paxexam;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.quiver.itests.client.McpClient;
import io.quiver.itests.paxexam.config.QuiverOptions;
import io.quiver.itests.paxexam.mcp.Endpoint;
import io.quiver.itests.paxexam.mcp.RawHttp;
import io.quiver.itests.paxexam.operator.OperatorTools;
import java.io.IOException;
import java.io.InputStream;
import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;
import java.net.Socket;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.inject.Inject;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.ops4j.pax.exam.Configuration;
import org.ops4j.pax.exam.Option;
import org.ops4j.pax.exam.junit.PaxExam;
import org.ops4j.pax.exam.spi.reactors.ExamReactorStrategy;
import org.ops4j.pax.exam.spi.reactors.PerClass;
import org.osgi.framework.BundleContext;
import org.osgi.framework.ServiceRegistration;

/**
 * What an open SSE stream costs while it waits: a GET stream of a session and a 2026-07-28
 * {@code subscriptions/listen} stream each hold a few KiB of the container's off-heap buffers, not a whole
 * response buffer (Felix's Jetty sizes those at 24 KiB, and each listening client kept one: 240 MiB for
 * 10,000 of them). The streams are plain sockets, so nothing of a client library's own buffers is counted;
 * the JVM's direct buffer pool is read before and after, and each stream then hears a tool added. And a
 * message larger than a stream's buffer still arrives whole.
 */
@RunWith(PaxExam.class)
@ExamReactorStrategy(PerClass.class)
public class StreamMemoryIT {

    private static final Duration BOUND = Duration.ofSeconds(10);
    private static final int PAIRS = 60;
    private static final long MAX_BYTES_PER_STREAM = 10 * 1024;

    @Inject
    private BundleContext context;

    @Configuration
    public Option[] configuration() {
        return QuiverOptions.framework(StreamMemoryIT.class);
    }

    @Test
    public void anIdleStreamHoldsAFewKilobytesNotAResponseBuffer() throws Exception {
        URI endpoint = Endpoint.await(context, BOUND);
        List<Socket> open = new ArrayList<>();
        try {
            // one of each first: the buffer pools' first buffers, the code paths' first classes
            open.add(getStream(endpoint));
            open.add(listen(endpoint));
            long before = directBytes();
            for (int i = 0; i < PAIRS; i++) {
                open.add(getStream(endpoint));
                open.add(listen(endpoint));
            }
            long perStream = (directBytes() - before) / (2L * PAIRS);
            assertTrue("each open stream holds " + perStream + " bytes of direct buffers (at most "
                    + MAX_BYTES_PER_STREAM + ")", perStream <= MAX_BYTES_PER_STREAM);
            // and every one of them is live: a tool added now is announced on each
            ServiceRegistration<?> added = OperatorTools.registerText(context, "itest_stream_memory_added",
                    "Announced to every open stream (Pax Exam fixture)", "added");
            try {
                for (Socket socket : open) {
                    awaitListChanged(socket.getInputStream());
                }
            } finally {
                added.unregister();
            }
        } finally {
            for (Socket socket : open) {
                socket.close();
            }
        }
    }

    @Test
    public void aMessageLargerThanTheStreamsBufferArrivesWhole() throws Exception {
        URI endpoint = Endpoint.await(context, BOUND);
        String text = "0123456789abcdef".repeat(8 * 1024); // 128 KiB
        ServiceRegistration<?> big = OperatorTools.registerText(context, "itest_big_text",
                "Answers 128 KiB of text (Pax Exam fixture)", text);
        try (McpClient client = McpClient.connect(endpoint)) {
            // tools/call answers an SSE stream by default (sseMethods)
            assertEquals(text, client.callTool("itest_big_text", Map.of()).path("result").path("content").path(0)
                    .path("text").asString(""));
        } finally {
            big.unregister();
        }
    }

    /** A session's GET stream on its own connection, read up to its first event. */
    private static Socket getStream(URI endpoint) throws IOException {
        String session;
        try (Socket socket = RawHttp.connect(endpoint)) {
            Map<String, String> headers = new LinkedHashMap<>();
            headers.put("Content-Type", "application/json");
            headers.put("Accept", "application/json, text/event-stream");
            RawHttp.send(socket, endpoint, "POST", headers, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\","
                    + "\"params\":{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},"
                    + "\"clientInfo\":{\"name\":\"stream-memory\",\"version\":\"1\"}}}");
            InputStream in = socket.getInputStream();
            RawHttp.Head head = RawHttp.readHead(in);
            RawHttp.readBody(in, head);
            session = head.header("Mcp-Session-Id");
            assertTrue(head.toString(), head.status().contains(" 200 ") && session != null);
            headers.put("Mcp-Session-Id", session);
            headers.put("MCP-Protocol-Version", "2025-11-25");
            RawHttp.send(socket, endpoint, "POST", headers, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
            RawHttp.Head initialized = RawHttp.readHead(in);
            RawHttp.readBody(in, initialized);
            assertTrue(initialized.toString(), initialized.status().contains(" 202 "));
        }
        Socket stream = RawHttp.connect(endpoint);
        RawHttp.send(stream, endpoint, "GET", Map.of("Accept", "text/event-stream", "Mcp-Session-Id", session,
                "MCP-Protocol-Version", "2025-11-25"), null);
        return opened(stream);
    }

    /** A 2026-07-28 {@code subscriptions/listen} for tool list changes, read up to its acknowledgement. */
    private static Socket listen(URI endpoint) throws IOException {
        Socket stream = RawHttp.connect(endpoint);
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("Content-Type", "application/json");
        headers.put("Accept", "application/json, text/event-stream");
        headers.put("MCP-Protocol-Version", "2026-07-28");
        headers.put("Mcp-Method", "subscriptions/listen");
        RawHttp.send(stream, endpoint, "POST", headers, "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"subscriptions/listen\","
                + "\"params\":{\"notifications\":{\"toolsListChanged\":true},\"_meta\":{"
                + "\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
                + "\"io.modelcontextprotocol/clientCapabilities\":{},"
                + "\"io.modelcontextprotocol/clientInfo\":{\"name\":\"stream-memory\",\"version\":\"1\"}}}}");
        return opened(stream);
    }

    /** Checks the stream answered 200 with an event stream, and reads its first event. */
    private static Socket opened(Socket stream) throws IOException {
        InputStream in = stream.getInputStream();
        RawHttp.Head head = RawHttp.readHead(in);
        assertTrue(head.toString(), head.status().contains(" 200 ")
                && head.header("Content-Type").startsWith("text/event-stream"));
        boolean data = false;
        for (String line = RawHttp.line(in); !(data && line.isEmpty()); line = RawHttp.line(in)) {
            data |= line.startsWith("data:") || line.startsWith("id:");
        }
        return stream;
    }

    /**
     * Reads the stream up to a {@code notifications/tools/list_changed}; fails when it ends first
     * ({@code EOFException}) or none comes within the socket's 10 s ({@code SocketTimeoutException}).
     */
    private static void awaitListChanged(InputStream in) throws IOException {
        String line = RawHttp.line(in);
        while (!(line.startsWith("data:") && line.contains("\"notifications/tools/list_changed\""))) {
            line = RawHttp.line(in);
        }
    }

    private static long directBytes() {
        return ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class).stream()
                .filter(pool -> pool.getName().equals("direct")).mapToLong(BufferPoolMXBean::getMemoryUsed).sum();
    }
}
