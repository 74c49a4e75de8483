package io.quiver.core.internal.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quiver.api.CallerIdentity;
import io.quiver.api.Outcome;
import io.quiver.api.Tool;
import io.quiver.api.transport.Exchange;
import io.quiver.api.transport.Inbound;
import io.quiver.api.transport.MessageSink;
import io.quiver.api.transport.Receipt;
import io.quiver.core.internal.catalog.Catalog;
import io.quiver.core.internal.json.Json;
import io.quiver.core.internal.pipeline.Extensions;
import io.quiver.core.internal.pipeline.ToolLimitsRegistry;
import io.quiver.core.internal.settings.EngineSettings;
import io.quiver.core.internal.wiring.EngineAssembly;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * JSON-RPC batches, which the 2025-03-26 revision has (a server MUST take them) and no other: the engine
 * driven as a transport drives it, with tools in a real catalog.
 */
class EngineBatchTest {

    private static final AtomicLong SERVICE_IDS = new AtomicLong(100);

    private final Catalog catalog = new Catalog();
    private EngineAssembly assembly;
    private Engine engine;
    /** Every run of the {@code count} tool. */
    private final AtomicInteger counted = new AtomicInteger();

    @BeforeEach
    void setUp() {
        assembly = EngineAssembly.of(catalog, EngineSettings.of(Map.of("maxBatchSize", 6, "toolTimeoutMs", 5_000,
                "shutdownGraceMs", 5_000)),
                new ToolLimitsRegistry(), new Extensions());
        engine = assembly.engine();
        register("greet", call -> Outcome.text("hello " + call.arguments().get("name")));
        register("count", call -> Outcome.text("run " + counted.incrementAndGet()));
    }

    @AfterEach
    void tearDown() {
        assembly.close();
    }

    @Test
    void aBatchIsAnsweredWithOneArrayInItsOrderAndItsMessagesGoOutOnTheWay() throws Exception {
        CountDownLatch others = new CountDownLatch(1);
        register("slow", call -> {
            call.context().progress(1, 2.0, "half way");
            // held until the test lets it go: answered last, it still has the first place in the array
            assertTrue(others.await(5, TimeUnit.SECONDS));
            return Outcome.text("slow done");
        });
        String session = open("2025-03-26");
        Receipt receipt = engine.receive(bytes("["
                + call(1, "slow", "{}", "{\"progressToken\":\"p\"}") + ","
                + "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"},"
                + "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{}},"
                + "42,"
                + call(3, "greet", "{\"name\":\"Ada\"}", null) + ","
                + "{\"id\":9,\"method\":\"ping\"}]"), inbound(session));
        Receipt.Pending pending = assertInstanceOf(Receipt.Pending.class, receipt);
        Exchange exchange = pending.exchange();
        assertEquals(List.of("tools/call", "ping", "tools/call"), exchange.methods(), "its requests' methods, for the transport");
        assertEquals("tools/call", exchange.method());
        assertFalse(exchange.quick(), "a batch is never served by runNow");
        Sink sink = new Sink();
        exchange.start(sink);
        JsonNode progress = Json.MAPPER.readTree(sink.interim.isEmpty() ? awaitInterim(sink) : sink.interim.get(0));
        assertEquals("notifications/progress", progress.path("method").asString(), "sent before the batch is over");
        assertFalse(sink.done.isDone(), "the answer waits for the batch's last request");
        others.countDown();
        JsonNode answer = sink.answer();
        assertTrue(answer.isArray(), answer.toString());
        assertEquals(5, answer.size(), "two refused elements and three requests; the notification has no answer: " + answer);
        assertEquals("slow done", answer.get(0).path("result").path("content").get(0).path("text").asString());
        assertEquals(1, answer.get(0).path("id").asInt());
        assertEquals(2, answer.get(1).path("id").asInt());
        assertTrue(answer.get(1).has("result"));
        assertTrue(answer.get(2).path("id").isNull());
        assertEquals(-32600, answer.get(2).path("error").path("code").asInt());
        assertEquals("hello Ada", answer.get(3).path("result").path("content").get(0).path("text").asString());
        assertEquals(9, answer.get(4).path("id").asInt(), "an element without jsonrpc is refused with its id");
        assertEquals(-32600, answer.get(4).path("error").path("code").asInt());
    }

    /**
     * A transport that does not serve an exchange after all (a limit of its own) answers with the engine's refusal:
     * each request's error carries its id, a batch's refused elements keep theirs, and nothing runs.
     */
    @Test
    void aRefusalAnswersEachRequestByItsId() throws Exception {
        String session = open("2025-03-26");
        Receipt.Pending single = assertInstanceOf(Receipt.Pending.class,
                engine.receive(bytes(call(1, "count", "{}", null).replace("\"id\":1", "\"id\":\"c-7\"")), inbound(session)));
        single.exchange().abandon();
        JsonNode refused = Json.MAPPER.readTree(single.exchange().refusal(-32000, "Service Unavailable: busy"));
        assertEquals("c-7", refused.path("id").asString());
        assertEquals(-32000, refused.path("error").path("code").asInt());
        assertEquals("Service Unavailable: busy", refused.path("error").path("message").asString());
        Receipt.Pending batch = assertInstanceOf(Receipt.Pending.class, engine.receive(bytes("["
                + call(1, "count", "{}", null) + ",42," + "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}]"),
                inbound(session)));
        batch.exchange().abandon();
        JsonNode refusals = Json.MAPPER.readTree(batch.exchange().refusal(-32000, "Service Unavailable: busy"));
        assertEquals(3, refusals.size(), refusals.toString());
        assertEquals(1, refusals.get(0).path("id").asInt());
        assertEquals(-32000, refusals.get(0).path("error").path("code").asInt());
        assertTrue(refusals.get(1).path("id").isNull());
        assertEquals(-32600, refusals.get(1).path("error").path("code").asInt(), "the element refused already keeps its error");
        assertEquals(2, refusals.get(2).path("id").asInt());
        assertEquals(-32000, refusals.get(2).path("error").path("code").asInt());
        assertEquals(0, counted.get(), "nothing refused ran");
    }

    @Test
    void onlyASessionOf20250326TakesABatchAndARefusedBatchRunsNothing() throws Exception {
        String batch = "[" + call(1, "count", "{}", null) + "," + call(2, "count", "{}", null) + "]";
        String newer = open("2025-11-25");
        assertRefused(engine.receive(bytes(batch), inbound(newer)), Receipt.Reason.INVALID_REQUEST, "2025-11-25");
        assertRefused(engine.receive(bytes(batch), inbound(open("2024-11-05"))), Receipt.Reason.INVALID_REQUEST,
                "2024-11-05");
        assertRefused(engine.receive(bytes(batch), inbound(null)), Receipt.Reason.INVALID_REQUEST, "2025-03-26");
        assertRefused(engine.receive(bytes(batch), inbound("no-such-session")), Receipt.Reason.SESSION_NOT_FOUND, "");
        assertRefused(engine.receive(bytes("[" + initialize("2025-03-26") + "]"), inbound(null)),
                Receipt.Reason.INVALID_REQUEST, "initialize must not be part of a JSON-RPC batch");
        String session = open("2025-03-26");
        assertRefused(engine.receive(bytes("[]"), inbound(session)), Receipt.Reason.INVALID_REQUEST, "empty batch");
        List<String> seven = new ArrayList<>();
        for (int i = 1; i <= 7; i++) {
            seven.add(call(i, "count", "{}", null));
        }
        assertRefused(engine.receive(bytes("[" + String.join(",", seven) + "]"), inbound(session)),
                Receipt.Reason.INVALID_REQUEST, "at most 6");
        assertRefused(engine.receive(bytes(batch), new Inbound(session, "2026-07-28", CallerIdentity.ANONYMOUS)),
                Receipt.Reason.INVALID_REQUEST, "2025-03-26");
        assertEquals(0, counted.get(), "no request of a refused batch ran");
        // the same two calls, each alone, run in a 2025-11-25 session
        for (int id = 1; id <= 2; id++) {
            Sink alone = new Sink();
            assertInstanceOf(Receipt.Pending.class, engine.receive(bytes(call(id, "count", "{}", null)), inbound(newer)))
                    .exchange().start(alone);
            alone.answer();
        }
        assertEquals(2, counted.get());
    }

    @Test
    void aBatchWithoutRequestsIsAcceptedAndOneOfRefusedElementsIsRejectedWithEachError() throws Exception {
        String session = open("2025-03-26");
        assertInstanceOf(Receipt.Accepted.class, engine.receive(bytes("[{\"jsonrpc\":\"2.0\",\"method\":\"notifications/x\"},"
                + "{\"jsonrpc\":\"2.0\",\"id\":\"s-1\",\"result\":{}}]"), inbound(session)));
        Receipt.Rejected rejected = assertInstanceOf(Receipt.Rejected.class, engine.receive(bytes("[1,"
                + initialize("2025-03-26").replace("\"id\":1", "\"id\":5") + "]"), inbound(session)));
        assertEquals(Receipt.Reason.INVALID_REQUEST, rejected.reason());
        JsonNode errors = Json.MAPPER.readTree(rejected.body());
        assertEquals(2, errors.size(), errors.toString());
        assertTrue(errors.get(0).path("id").isNull());
        assertEquals(5, errors.get(1).path("id").asInt());
        assertTrue(errors.get(1).path("error").path("message").asString().contains("initialize"));
    }

    @Test
    void aRepeatedIdIsRefusedInItsPlaceAndACancelledRequestHasNone() throws Exception {
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch stopped = new CountDownLatch(1);
        register("long", call -> {
            started.countDown();
            try {
                Thread.sleep(60_000);
            } catch (InterruptedException e) {
                stopped.countDown();
            }
            return Outcome.text("never");
        });
        String session = open("2025-03-26");
        Sink sink = start(session, "[" + call(7, "long", "{}", null) + ",{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":\"ping\"},"
                + "{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":\"ping\"}]");
        assertTrue(started.await(5, TimeUnit.SECONDS));
        assertInstanceOf(Receipt.Accepted.class, engine.receive(bytes("{\"jsonrpc\":\"2.0\",\"method\":"
                + "\"notifications/cancelled\",\"params\":{\"requestId\":7}}"), inbound(session)));
        assertTrue(stopped.await(5, TimeUnit.SECONDS));
        JsonNode answer = sink.answer();
        assertEquals(2, answer.size(), answer.toString());
        assertTrue(answer.get(0).has("result"));
        assertEquals(8, answer.get(1).path("id").asInt());
        assertEquals(-32600, answer.get(1).path("error").path("code").asInt(), "the second id 8 while the first was in flight");

        // a batch whose one request is cancelled (in the same batch, before it starts) owes no answer at all
        Sink none = start(session, "[" + call(11, "count", "{}", null) + ",{\"jsonrpc\":\"2.0\",\"method\":"
                + "\"notifications/cancelled\",\"params\":{\"requestId\":11}}]");
        assertNull(none.done.get(5, TimeUnit.SECONDS).orElse(null));
        assertEquals(0, counted.get(), "the cancelled call did not run");
    }

    @Test
    void whileStoppingABatchsNotificationsAreTakenAndItsRequestsRefused() throws Exception {
        CountDownLatch started = new CountDownLatch(1);
        register("stuck", call -> {
            started.countDown();
            Thread.sleep(60_000);
            return Outcome.text("never");
        });
        String session = open("2025-03-26");
        Sink running = start(session, "[" + call(1, "stuck", "{}", null) + ",{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}]");
        assertTrue(started.await(5, TimeUnit.SECONDS));
        Thread stopping = new Thread(engine::drain, "drain");
        stopping.start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (!(engine.receive(bytes("{\"jsonrpc\":\"2.0\",\"id\":\"probe\",\"method\":\"ping\"}"), inbound(session))
                instanceof Receipt.Rejected)) {
            assertTrue(System.nanoTime() < deadline, "the engine never began to stop");
            Thread.sleep(5);
        }
        assertRefused(engine.receive(bytes("[{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":"
                + "{\"requestId\":1}}," + call(3, "count", "{}", null) + "]"), inbound(session)),
                Receipt.Reason.UNAVAILABLE, "shutting down");
        // the cancellation was taken: the stuck call ended without an answer, well within the grace period
        JsonNode answer = running.answer();
        assertEquals(List.of(2), answer.valueStream().map(r -> r.path("id").asInt()).toList(), answer.toString());
        stopping.join(5_000);
        assertFalse(stopping.isAlive());
        assertEquals(0, counted.get(), "the refused request did not run");
    }

    private Sink start(String session, String batch) {
        Receipt.Pending pending = assertInstanceOf(Receipt.Pending.class, engine.receive(bytes(batch), inbound(session)));
        Sink sink = new Sink();
        pending.exchange().start(sink);
        return sink;
    }

    private static void assertRefused(Receipt receipt, Receipt.Reason reason, String says) throws Exception {
        Receipt.Rejected rejected = assertInstanceOf(Receipt.Rejected.class, receipt);
        assertEquals(reason, rejected.reason());
        JsonNode error = Json.MAPPER.readTree(rejected.body());
        assertFalse(error.isArray(), "a batch refused whole gets one error");
        String message = error.path("error").path("message").asString();
        assertTrue(message.contains(says), message);
    }

    /** A new session at {@code version}, initialized; returns its id. */
    private String open(String version) throws Exception {
        Receipt.Pending pending = assertInstanceOf(Receipt.Pending.class, engine.receive(bytes(initialize(version)),
                inbound(null)));
        Sink sink = new Sink();
        pending.exchange().start(sink);
        assertEquals(version, sink.answer().path("result").path("protocolVersion").asString());
        String id = pending.session().id();
        engine.receive(bytes("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}"), inbound(id));
        return id;
    }

    private static String initialize(String version) {
        return "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"" + version
                + "\",\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}";
    }

    private static String call(int id, String name, String arguments, String meta) {
        return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"tools/call\",\"params\":{\"name\":\"" + name
                + "\",\"arguments\":" + arguments + (meta == null ? "" : ",\"_meta\":" + meta) + "}}";
    }

    private void register(String name, Tool tool) {
        Map<String, Object> props = new HashMap<>();
        props.put("mcp.tool.name", name);
        props.put("mcp.tool.description", "test tool " + name);
        props.put("service.id", SERVICE_IDS.incrementAndGet());
        props.put("service.ranking", 0);
        catalog.bindTool(tool, props);
    }

    private static Inbound inbound(String session) {
        return new Inbound(session, null, CallerIdentity.ANONYMOUS);
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] awaitInterim(Sink sink) throws Exception {
        return sink.firstInterim.get(10, TimeUnit.SECONDS);
    }

    /** Collects what the engine sends for one exchange. */
    private static final class Sink implements MessageSink {
        final List<byte[]> interim = new CopyOnWriteArrayList<>();
        final CompletableFuture<byte[]> firstInterim = new CompletableFuture<>();
        final CompletableFuture<Optional<byte[]>> done = new CompletableFuture<>();

        @Override
        public void send(byte[] message) {
            interim.add(message);
            firstInterim.complete(message);
        }

        @Override
        public void complete(byte[] response) {
            done.complete(Optional.ofNullable(response));
        }

        JsonNode answer() throws Exception {
            return Json.MAPPER.readTree(done.get(10, TimeUnit.SECONDS).orElseThrow());
        }
    }
}
