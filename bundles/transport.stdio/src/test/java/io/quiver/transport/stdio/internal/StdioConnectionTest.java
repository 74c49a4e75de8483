package io.quiver.transport.stdio.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quiver.api.CallerIdentity;
import io.quiver.api.transport.Exchange;
import io.quiver.api.transport.Inbound;
import io.quiver.api.transport.McpEngine;
import io.quiver.api.transport.McpSession;
import io.quiver.api.transport.MessageSink;
import io.quiver.api.transport.Receipt;
import io.quiver.api.transport.StreamPolicy;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

class StdioConnectionTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final FakeEngine engine = new FakeEngine();
    private final ByteArrayOutputStream stdout = new ByteArrayOutputStream();
    private final LineWriter out = new LineWriter(stdout);

    @Test
    void theSessionOfInitializeGoesWithEveryLaterMessageAsTheLocalCaller() throws IOException {
        boolean ended = serve("""
                {"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}
                {"jsonrpc":"2.0","method":"notifications/initialized"}
                {"jsonrpc":"2.0","id":2,"method":"ping"}
                """);
        assertTrue(ended, "serve returns true at the end of stdin");
        assertEquals(3, engine.inbounds.size());
        assertNull(engine.inbounds.get(0).sessionId(), "initialize names no session");
        assertEquals("s-1", engine.inbounds.get(1).sessionId());
        assertEquals("s-1", engine.inbounds.get(2).sessionId());
        for (Inbound inbound : engine.inbounds) {
            assertEquals(CallerIdentity.ANONYMOUS, inbound.caller());
            assertNull(inbound.headers());
            assertNull(inbound.clientAddress());
            assertNull(inbound.protocolVersion());
        }
        List<JsonNode> lines = lines();
        assertEquals(2, lines.size(), lines::toString);
        assertEquals(1, lines.get(0).path("id").asInt());
        assertEquals(2, lines.get(1).path("id").asInt());
    }

    @Test
    @org.junit.jupiter.api.Timeout(30)
    void whileTheServerStartsInitializeIsAnsweredAndTheNextRequestWaitsForTheStartToBeOver() throws Exception {
        CountDownLatch waiting = new CountDownLatch(1);
        CountDownLatch started = new CountDownLatch(1);
        Runnable untilStarted = () -> {
            waiting.countDown();
            try {
                started.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        };
        String input = """
                {"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}
                {"jsonrpc":"2.0","method":"notifications/initialized"}
                {"jsonrpc":"2.0","id":2,"method":"ping"}
                """;
        LineReader in = new LineReader(new ByteArrayInputStream(utf8(input)), () -> 1 << 20);
        StdioConnection connection = new StdioConnection(engine, in, out, CallerIdentity.ANONYMOUS, () -> 1 << 20,
                untilStarted);
        Thread reader = new Thread(() -> {
            try {
                connection.serve();
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        });
        reader.start();
        waiting.await();
        List<JsonNode> before = lines();
        assertEquals(1, before.size(), before::toString);
        assertEquals(1, before.get(0).path("id").asInt(), "initialize is answered while the server starts");
        started.countDown();
        assertEquals(2, awaitLines(2).get(1).path("id").asInt(), "the ping once the start is over");
        reader.join();
    }

    @Test
    void theSessionStreamIsAttachedOnceInitializeIsAnsweredAndItsNotificationsGoOut() throws Exception {
        serve("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{}}\n");
        assertNotNull(engine.session.stream, "attached");
        assertEquals(1, engine.session.linesWhenAttached, "after the initialize response, never before it");
        engine.session.stream.send(utf8("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/tools/list_changed\"}"));
        assertEquals("notifications/tools/list_changed", awaitLines(2).get(1).path("method").asString());
    }

    @Test
    @org.junit.jupiter.api.Timeout(30)
    void theEnginesNotificationsNeverWaitForAClientThatDoesNotRead() throws Exception {
        // a client that stops reading stdout fills the pipe: before, the engine's timer, sending a list change, then
        // waited with it, and with it the watchdog of tool timeouts and the session sweep
        CountDownLatch never = new CountDownLatch(1);
        LineWriter stuck = new LineWriter(new java.io.OutputStream() {
            @Override
            public void write(int b) throws IOException {
                try {
                    never.await();
                } catch (InterruptedException e) {
                    throw new IOException(e);
                }
            }
        });
        StdioConnection.Queued timerSide = new StdioConnection.Queued(new MessageSink() {
            @Override
            public void send(byte[] message) {
                stuck.write(message);
            }

            @Override
            public void complete(byte[] response) {
            }
        });
        long start = System.nanoTime();
        for (int i = 0; i < 3 * StdioConnection.Queued.MAX_QUEUED; i++) {
            timerSide.send(utf8("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/tools/list_changed\"}"));
        }
        assertTrue(System.nanoTime() - start < TimeUnit.SECONDS.toNanos(5), "the sender never waited for stdout");
        timerSide.stop();
        never.countDown();
    }

    @Test
    void aFailedInitializeAttachesNothing() throws IOException {
        engine.initializeFails = true;
        serve("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{}}\n");
        assertNull(engine.session.stream);
        assertTrue(lines().get(0).has("error"));
    }

    @Test
    void malformedLinesAndRefusedRequestsAreAnsweredRefusedNotificationsAreNot() throws IOException {
        serve("""
                this is not json
                {"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":3}}
                {"jsonrpc":"2.0","id":7,"method":"tools/list"}
                """);
        List<JsonNode> lines = lines();
        assertEquals(2, lines.size(), lines::toString);
        assertEquals(-32700, lines.get(0).path("error").path("code").asInt());
        assertTrue(lines.get(0).get("id").isNull());
        assertEquals(7, lines.get(1).path("id").asInt());
        assertEquals(-32600, lines.get(1).path("error").path("code").asInt());
    }

    @Test
    void aLineOverTheLimitIsAnsweredAndTheNextIsServed() throws IOException {
        String big = "{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"ping\",\"params\":{\"pad\":\"" + "x".repeat(4000) + "\"}}";
        StdioConnection connection = connection("""
                {"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}
                """ + big + "\n" + """
                {"jsonrpc":"2.0","id":2,"method":"ping"}
                """, 2048);
        assertTrue(connection.serve());
        List<JsonNode> lines = lines();
        assertEquals(3, lines.size(), lines::toString);
        assertEquals(-32600, lines.get(1).path("error").path("code").asInt());
        assertTrue(lines.get(1).get("id").isNull());
        assertTrue(lines.get(1).path("error").path("message").asString().contains("2048"), lines.get(1)::toString);
        assertEquals(2, lines.get(2).path("id").asInt());
        assertEquals(2, engine.inbounds.size(), "the long line never reached the engine");
    }

    @Test
    void aSlowRequestDoesNotHoldTheNextLine() throws Exception {
        boolean ended = serve("""
                {"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}
                {"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"slow"}}
                {"jsonrpc":"2.0","id":3,"method":"ping"}
                """);
        assertTrue(ended, "every line was read while the call was still running");
        assertEquals(List.of(1, 3), lines().stream().map(l -> l.path("id").asInt()).toList());
        engine.releaseCalls.countDown();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (lines().size() < 3 && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertEquals(List.of(1, 3, 2), lines().stream().map(l -> l.path("id").asInt()).toList());
    }

    @Test
    void theEndDrainsTheEngineAndDetachesTheStream() throws IOException {
        StdioConnection connection = connection("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{}}\n",
                1 << 20);
        assertTrue(connection.serve());
        assertFalse(engine.drained);
        connection.end();
        assertTrue(engine.drained);
        assertTrue(engine.session.detached);
    }

    @Test
    void afterTheSessionEndedTheClientIsToldToInitializeAgain() throws IOException {
        StdioConnection connection = connection("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{}}\n",
                1 << 20);
        connection.serve();
        engine.session.close();
        connection.receive(utf8("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}"));
        assertNull(engine.inbounds.get(1).sessionId());
        assertEquals(-32600, lines().get(1).path("error").path("code").asInt());
    }

    /**
     * A client that closed stdout but not stdin gets nothing more run for it: the next line ends the serving as the
     * end of stdin does (before, every later request ran, its answer dropped, until stdin ended).
     */
    @Test
    void onceStdoutIsClosedNoFurtherRequestIsTaken() throws IOException {
        LineWriter closed = new LineWriter(new java.io.OutputStream() {
            @Override
            public void write(int b) throws IOException {
                throw new IOException("Broken pipe");
            }
        });
        StdioConnection connection = new StdioConnection(engine, new LineReader(new ByteArrayInputStream(utf8("""
                {"jsonrpc":"2.0","id":1,"method":"ping"}
                {"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"delete_everything"}}
                {"jsonrpc":"2.0","id":3,"method":"ping"}
                """)), () -> 1 << 20), closed, CallerIdentity.ANONYMOUS, () -> 1 << 20);
        assertTrue(connection.serve(), "ended as at the end of stdin");
        assertEquals(1, engine.inbounds.size(), "only the request whose answer found stdout closed was taken");
    }

    /**
     * Over stdio a 2026-07-28 client cancels a request with {@code notifications/cancelled} (it has no stream of its
     * own to close): the request is cancelled and not answered; one the notification does not name goes on.
     */
    @Test
    void aStatelessRequestIsCancelledByANotificationNamingIt() throws IOException {
        String meta = "\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\"}";
        boolean ended = serve("{\"jsonrpc\":\"2.0\",\"id\":\"c-1\",\"method\":\"tools/call\",\"params\":{\"name\":\"slow\","
                + meta + "}}\n"
                + "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\",\"params\":{\"name\":\"slow\"," + meta + "}}\n"
                + "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":\"c-1\"}}\n"
                + "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":\"nope\"," + meta
                + "}}\n"
                + "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\",\"params\":{" + meta + "}}\n");
        assertTrue(ended);
        assertEquals(List.of("\"c-1\""), engine.abandoned, "only the request named is cancelled");
        List<JsonNode> lines = lines();
        assertEquals(1, lines.size(), "the cancelled request is not answered: " + lines);
        assertEquals(2, lines.get(0).path("id").asInt());
    }

    @Test
    void theIdIsReadWhereverItStands() {
        assertEquals("\"c-1\"", StdioConnection.idOf(utf8("{\"jsonrpc\":\"2.0\",\"params\":{\"id\":9,\"a\":[{\"id\":8}]},"
                + "\"id\":\"c-1\",\"method\":\"x\"}")));
        assertEquals("7", StdioConnection.idOf(utf8("{\"id\":7}")));
        assertEquals(null, StdioConnection.idOf(utf8("{\"id\":null,\"method\":\"x\"}")));
        assertEquals(null, StdioConnection.idOf(utf8("{\"method\":\"x\",\"params\":{\"id\":1}}")));
        assertEquals(null, StdioConnection.idOf(utf8("[1]")));
    }

    private boolean serve(String input) throws IOException {
        return connection(input, 1 << 20).serve();
    }

    private StdioConnection connection(String input, long limit) {
        LineReader in = new LineReader(new ByteArrayInputStream(utf8(input)), () -> limit);
        return new StdioConnection(engine, in, out, CallerIdentity.ANONYMOUS, () -> limit);
    }

    /** The lines written, once there are at least {@code count} (within 5 s). */
    private List<JsonNode> awaitLines(int count) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (lines().size() < count && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        return lines();
    }

    private List<JsonNode> lines() {
        String text;
        synchronized (out) {
            text = stdout.toString(StandardCharsets.UTF_8);
        }
        assertTrue(text.isEmpty() || text.endsWith("\n"), text);
        return text.lines().map(JSON::readTree).toList();
    }

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    /** Answers like the engine at the transport SPI: sessions, refusals, a call that waits to be released. */
    private final class FakeEngine implements McpEngine {
        final List<Inbound> inbounds = new CopyOnWriteArrayList<>();
        final FakeSession session = new FakeSession();
        final CountDownLatch releaseCalls = new CountDownLatch(1);
        volatile boolean drained;
        volatile boolean initializeFails;

        @Override
        public Receipt receive(byte[] message, Inbound inbound) {
            inbounds.add(inbound);
            JsonNode node;
            try {
                node = JSON.readTree(message);
            } catch (RuntimeException e) {
                return new Receipt.Rejected(Receipt.Reason.PARSE_ERROR, error(null, -32700, "Parse error"));
            }
            JsonNode id = node.get("id");
            String method = node.path("method").asString("");
            if (node.path("params").path("_meta").has("io.modelcontextprotocol/protocolVersion")) {
                // the stateless era: no session; a ping is answered at once, a call when cancelled (as the engine
                // ends a cancelled call with an error the transport must not write)
                if (id == null) {
                    return new Receipt.Accepted();
                }
                return new Receipt.Pending(null, stateless(method, id));
            }
            if (method.equals("initialize")) {
                return new Receipt.Pending(session, exchange(method, sink -> sink.complete(initializeFails
                        ? error(id, -32602, "bad") : utf8("{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"result\":{}}"))));
            }
            if (inbound.sessionId() == null || !session.isOpen()) {
                return new Receipt.Rejected(Receipt.Reason.SESSION_REQUIRED, error(id, -32600, "initialize first"));
            }
            if (id == null) {
                return new Receipt.Accepted();
            }
            if (method.equals("tools/call")) {
                return new Receipt.Pending(session, exchange(method, sink -> {
                    Thread t = new Thread(() -> {
                        try {
                            releaseCalls.await();
                        } catch (InterruptedException e) {
                            return;
                        }
                        sink.complete(utf8("{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"result\":{\"content\":[]}}"));
                    });
                    t.setDaemon(true);
                    t.start();
                }));
            }
            return new Receipt.Pending(session, exchange(method,
                    sink -> sink.complete(utf8("{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"result\":{}}"))));
        }

        private byte[] error(JsonNode id, int code, String message) {
            return utf8("{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"error\":{\"code\":" + code + ",\"message\":\"" + message
                    + "\"}}");
        }

        private Exchange exchange(String method, Consumer<MessageSink> serve) {
            return new Exchange() {
                @Override
                public void start(MessageSink sink) {
                    serve.accept(sink);
                }

                @Override
                public String method() {
                    return method;
                }

                @Override
                public String protocolVersion() {
                    return "2025-11-25";
                }

                @Override
                public StreamPolicy streamPolicy() {
                    return new StreamPolicy(false, false, false);
                }

                @Override
                public void abandon() {
                }
            };
        }

        /** The ids of the stateless requests abandoned (cancelled). */
        final List<String> abandoned = new CopyOnWriteArrayList<>();

        private Exchange stateless(String method, JsonNode id) {
            return new Exchange() {
                private volatile MessageSink sink;

                @Override
                public void start(MessageSink to) {
                    sink = to;
                    if (method.equals("ping")) {
                        to.complete(utf8("{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"result\":{}}"));
                    }
                }

                @Override
                public String method() {
                    return method;
                }

                @Override
                public String protocolVersion() {
                    return "2026-07-28";
                }

                @Override
                public StreamPolicy streamPolicy() {
                    return new StreamPolicy(false, false, true);
                }

                @Override
                public void abandon() {
                    abandoned.add(id.toString());
                    sink.complete(error(id, -32800, "cancelled"));
                }
            };
        }

        @Override
        public Optional<McpSession> session(String id) {
            return Optional.of(session);
        }

        @Override
        public byte[] errorResponse(int code, String message) {
            return error(null, code, message);
        }

        @Override
        public List<String> supportedVersions() {
            return List.of("2025-11-25");
        }

        @Override
        public void drain() {
            drained = true;
        }
    }

    private final class FakeSession implements McpSession {
        volatile boolean open = true;
        volatile MessageSink stream;
        volatile int linesWhenAttached = -1;
        volatile boolean detached;

        @Override
        public String id() {
            return "s-1";
        }

        @Override
        public String protocolVersion() {
            return "2025-11-25";
        }

        @Override
        public CallerIdentity caller() {
            return CallerIdentity.ANONYMOUS;
        }

        @Override
        public StreamPolicy streamPolicy() {
            return new StreamPolicy(false, false, false);
        }

        @Override
        public AutoCloseable attach(MessageSink sink) {
            if (stream != null) {
                return null;
            }
            linesWhenAttached = lines().size();
            stream = sink;
            return () -> detached = true;
        }

        @Override
        public boolean hasStream() {
            return stream != null;
        }

        @Override
        public void close() {
            open = false;
        }

        @Override
        public boolean isOpen() {
            return open;
        }

        @Override
        public void onClose(Runnable action) {
        }
    }
}
