package io.quiver.core.internal.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quiver.api.CallerIdentity;
import io.quiver.api.Outcome;
import io.quiver.api.Tool;
import io.quiver.api.call.Admission;
import io.quiver.api.call.Decision;
import io.quiver.api.input.InputRequest;
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
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * {@code receiveNow} and {@code runNow}: what a transport may serve on a thread that must never
 * wait, and that everything else is declined without having happened.
 */
class RunNowTest {

    private static final AtomicLong SERVICE_IDS = new AtomicLong(1000);

    private final Extensions extensions = new Extensions();
    private Catalog catalog;
    private EngineAssembly assembly;
    private Engine engine;
    private String sessionId;

    @BeforeEach
    void setUp() {
        catalog = new Catalog();
        assembly = EngineAssembly.of(catalog, EngineSettings.of(Map.of("toolTimeoutMs", 2_000,
                "clientRequestTimeoutMs", 2_000)), new ToolLimitsRegistry(), extensions);
        engine = assembly.engine();
        Receipt.Pending init = assertInstanceOf(Receipt.Pending.class, engine.receiveNow(bytes("{\"jsonrpc\":\"2.0\","
                + "\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-11-25\",\"capabilities\":"
                + "{\"elicitation\":{}},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}"), inbound(null)));
        Sink sink = new Sink();
        assertTrue(init.exchange().runNow(sink), "initialize waits on nothing");
        assertEquals("2025-11-25", sink.answer().path("result").path("protocolVersion").asString());
        sessionId = init.session().id();
    }

    @AfterEach
    void tearDown() {
        assembly.close();
    }

    @Test
    void aNonBlockingToolRunsOnTheCallingThreadAndAnswersThere() {
        AtomicReference<Thread> ranOn = new AtomicReference<>();
        register("pure", false, call -> {
            ranOn.set(Thread.currentThread());
            return Outcome.text("computed");
        });
        Sink sink = new Sink();
        assertTrue(pending(callTool(2, "pure")).exchange().runNow(sink));
        assertSame(Thread.currentThread(), ranOn.get());
        assertSame(Thread.currentThread(), sink.answeredOn);
        assertEquals("computed", sink.answer().path("result").path("content").get(0).path("text").asString());
    }

    @Test
    void aBlockingToolIsDeclinedWithoutRunningAndRunsWhenServedElsewhere() {
        AtomicInteger runs = new AtomicInteger();
        register("io", true, call -> {
            runs.incrementAndGet();
            return Outcome.text("read");
        });
        Receipt.Pending pending = pending(callTool(2, "io"));
        Sink sink = new Sink();
        assertFalse(pending.exchange().runNow(sink));
        assertEquals(0, runs.get(), "a declined call must not have run");
        assertNull(sink.answer, "a declined call must not have answered");
        pending.exchange().run(sink);
        assertEquals("read", sink.answer().path("result").path("content").get(0).path("text").asString());
        assertEquals(1, runs.get());
    }

    @Test
    void toolsAreBlockingUnlessTheyDeclareOtherwise() {
        AtomicInteger runs = new AtomicInteger();
        Map<String, Object> props = props("plain");
        catalog.bindTool(call -> {
            runs.incrementAndGet();
            return Outcome.text("x");
        }, props);
        assertFalse(pending(callTool(2, "plain")).exchange().runNow(new Sink()));
        assertEquals(0, runs.get());
    }

    @Test
    void anUnknownToolIsAnsweredAtOnceOnTheCallingThread() {
        // also while a host channel is in force: the call never gets as far as asking it
        extensions.addHost(invocation -> Admission.approve(), 0, 1L);
        Receipt.Pending pending = pending(callTool(2, "nope"));
        assertTrue(pending.exchange().quick());
        Sink sink = new Sink();
        assertTrue(pending.exchange().runNow(sink), "an unknown tool waits on nothing");
        assertSame(Thread.currentThread(), sink.answeredOn);
        assertEquals(-32602, sink.answer().path("error").path("code").asInt());
        assertTrue(sink.answer().path("error").path("message").asString().contains("Unknown tool: nope"));
    }

    @Test
    void aToolThePolicyHidesIsAnsweredAsAnUnknownOneIsNeverRunning() {
        // a blocking tool would go to a thread that may wait: hidden, it must not be told apart by where, or how fast
        AtomicInteger runs = new AtomicInteger();
        register("secret", true, call -> {
            runs.incrementAndGet();
            return Outcome.text("ran");
        });
        extensions.addPolicy((caller, target) -> "secret".equals(target.name()) ? Decision.deny("hidden")
                : Decision.allow(), 0, 7L);
        Sink hidden = new Sink();
        Sink unknown = new Sink();
        assertTrue(pending(callTool(2, "secret")).exchange().runNow(hidden));
        assertTrue(pending(callTool(2, "nope")).exchange().runNow(unknown));
        assertSame(Thread.currentThread(), hidden.answeredOn);
        assertEquals(unknown.answer().toString().replace("nope", "secret"), hidden.answer().toString());
        assertEquals(0, runs.get(), "the hidden tool never ran");
    }

    @Test
    void withAHostChannelEvenANonBlockingToolIsDeclined() {
        register("pure", false, call -> Outcome.text("computed"));
        extensions.addHost(invocation -> Admission.approve(), 0, 1L);
        assertFalse(pending(callTool(2, "pure")).exchange().runNow(new Sink()), "the host may take its time to admit");
    }

    @Test
    void aNonBlockingToolThatAsksForInputGetsAnErrorInsteadOfWaiting() {
        AtomicInteger runs = new AtomicInteger();
        register("asker", false, call -> {
            runs.incrementAndGet();
            return Outcome.needsInput(new InputRequest.Elicitation("who", "Your name?",
                    Map.of("type", "object", "properties", Map.of("name", Map.of("type", "string")))));
        });
        Sink sink = new Sink();
        assertTrue(pending(callTool(2, "asker")).exchange().runNow(sink));
        JsonNode result = sink.answer().path("result");
        assertTrue(result.path("isError").asBoolean(), result.toString());
        assertTrue(result.toString().contains("non-blocking"), result.toString());
        assertTrue(sink.interim.isEmpty(), "no elicitation may have been sent: nobody would wait for it");
        assertEquals(1, runs.get());
    }

    @Test
    void controlMethodsAreServedNowButStreamsNotificationsAndResponsesAreNotReceived() {
        Sink sink = new Sink();
        assertTrue(pending("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}").exchange().runNow(sink));
        assertNotNull(sink.answer().path("result").path("tools"));
        Sink ping = new Sink();
        assertTrue(pending("{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"ping\"}").exchange().runNow(ping));
        assertTrue(ping.answer().path("result").isObject());
        for (String declined : List.of("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":"
                + "{\"requestId\":9}}", "{\"jsonrpc\":\"2.0\",\"id\":\"e1\",\"result\":{}}",
                "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"tasks/cancel\",\"params\":{\"taskId\":\"t\"}}",
                "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"resources/read\",\"params\":{\"uri\":\"x:y\"}}", "not json")) {
            assertNull(engine.receiveNow(bytes(declined), inbound(sessionId)), declined);
        }
        // declined means not received: the same id is still free for the thread that may wait
        assertInstanceOf(Receipt.Pending.class, engine.receive(bytes("{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":"
                + "\"tasks/cancel\",\"params\":{\"taskId\":\"t\"}}"), inbound(sessionId)));
    }

    // -------------------------------------------------------------------------------------------

    private Receipt.Pending pending(String message) {
        return assertInstanceOf(Receipt.Pending.class, engine.receiveNow(bytes(message), inbound(sessionId)));
    }

    private void register(String name, boolean blocking, Tool tool) {
        Map<String, Object> props = props(name);
        props.put("mcp.tool.blocking", blocking);
        catalog.bindTool(tool, props);
    }

    private static Map<String, Object> props(String name) {
        Map<String, Object> props = new HashMap<>();
        props.put("mcp.tool.name", name);
        props.put("mcp.tool.description", "test tool " + name);
        props.put("service.id", SERVICE_IDS.incrementAndGet());
        return props;
    }

    private static String callTool(int id, String name) {
        return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"tools/call\",\"params\":{\"name\":\"" + name
                + "\",\"arguments\":{}}}";
    }

    private static Inbound inbound(String session) {
        return new Inbound(session, null, CallerIdentity.ANONYMOUS);
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    /** What the engine sends for one request, and on which thread the answer came. */
    private static final class Sink implements MessageSink {
        final List<byte[]> interim = new CopyOnWriteArrayList<>();
        volatile byte[] answer;
        volatile Thread answeredOn;

        @Override
        public void send(byte[] message) {
            interim.add(message);
        }

        @Override
        public void complete(byte[] response) {
            answeredOn = Thread.currentThread();
            answer = response;
        }

        JsonNode answer() {
            assertNotNull(answer, "answered on the calling thread");
            return Json.MAPPER.readTree(answer);
        }
    }
}
