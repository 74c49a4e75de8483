package io.quiver.core.internal.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
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
import io.quiver.core.internal.settings.EngineConfig;
import io.quiver.core.internal.settings.EngineSettings;
import io.quiver.core.internal.wiring.EngineAssembly;
import io.quiver.lib.config.TypedConfig;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** The engine's bounds: sessions and listeners, the handshake timeout, configuration changes, graceful stop. */
class EngineLimitsTest {

    private final Extensions extensions = new Extensions();

    private static final String INIT = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":"
            + "{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}";
    private static final String META = "\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
            + "\"io.modelcontextprotocol/clientCapabilities\":{}}";

    private final Catalog catalog = new Catalog();
    private EngineAssembly assembly;
    private Engine engine;

    /** The engine as the component builds it; {@link #assembly} closes it. */
    private Engine assemble(EngineSettings settings, ToolLimitsRegistry limits) {
        assembly = EngineAssembly.of(catalog, settings, limits, extensions);
        return assembly.engine();
    }

    @AfterEach
    void close() {
        assembly.close();
    }

    @Test
    void sessionsAreBoundedPerClientAddressAndOverall() {
        engine = assemble(EngineSettings.of(Map.of("maxSessions", 5, "maxSessionsPerClient", 3)), new ToolLimitsRegistry());
        for (int i = 0; i < 3; i++) {
            assertInstanceOf(Receipt.Pending.class, initialize("10.0.0.1"));
        }
        Receipt.Rejected refused = assertInstanceOf(Receipt.Rejected.class, initialize("10.0.0.1"));
        assertEquals(Receipt.Reason.UNAVAILABLE, refused.reason());
        assertEquals(-32000, Json.MAPPER.readTree(refused.body()).path("error").path("code").asInt());
        assertInstanceOf(Receipt.Pending.class, initialize("10.0.0.2"));
        assertInstanceOf(Receipt.Pending.class, initialize("10.0.0.3"));
        assertEquals(Receipt.Reason.UNAVAILABLE,
                assertInstanceOf(Receipt.Rejected.class, initialize("10.0.0.4")).reason(), "the overall bound");
        engine.sessions().all().get(0).close();
        assertInstanceOf(Receipt.Pending.class, initialize("10.0.0.4"), "a closed session frees its room");
        assertEquals(5, engine.sessions().size());
    }

    @Test
    void aSessionsRolesAreThoseOfItsLatestRequestsCredential() throws Exception {
        // a role taken from a key (or a narrower token) applies from the session's next request, not its next session
        engine = assemble(EngineSettings.of(Map.of()), new ToolLimitsRegistry());
        register("secret", call -> Outcome.text("s"));
        register("open", call -> Outcome.text("o"));
        extensions.addPolicy((caller, target) -> "secret".equals(target.name()) && !caller.roles().contains("admin")
                ? io.quiver.api.call.Decision.deny("admins only") : io.quiver.api.call.Decision.allow(), 0, 1);
        CallerIdentity admin = new CallerIdentity("bob", "acme", Set.of("admin"), true);
        CallerIdentity demoted = new CallerIdentity("bob", "acme", Set.of("user"), true);
        assertInstanceOf(Receipt.Pending.class, initialize("10.0.0.1", admin));
        String id = engine.sessions().all().get(0).id();
        assertEquals(2, listed(id, admin), "the admin sees both");
        assertEquals(1, listed(id, demoted), "the same key without the role, in the same session");
        assertEquals(demoted, engine.sessions().all().get(0).caller());
        Receipt other = engine.receive(bytes("{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"tools/list\"}"),
                new Inbound(id, null, new CallerIdentity("eve", "acme", Set.of("admin"), true)));
        assertEquals(Receipt.Reason.SESSION_NOT_FOUND, assertInstanceOf(Receipt.Rejected.class, other).reason());
        assertEquals(demoted, engine.sessions().all().get(0).caller(), "another principal changes nothing");
    }

    private int listed(String session, CallerIdentity caller) throws Exception {
        JsonNode answer = start(engine.receive(bytes("{\"jsonrpc\":\"2.0\",\"id\":" + System.nanoTime() % 100_000
                + ",\"method\":\"tools/list\"}"), new Inbound(session, null, caller))).json();
        return answer.path("result").path("tools").size();
    }

    @Test
    void oneSubjectCannotTakeItsAddressesSessionsFromTheOthers() {
        engine = assemble(EngineSettings.of(Map.of("maxSessions", 100, "maxSessionsPerClient", 10,
                "maxSessionsPerSubject", 3)), new ToolLimitsRegistry());
        CallerIdentity bob = new CallerIdentity("bob", "acme", Set.of(), true);
        CallerIdentity root = new CallerIdentity("root", "acme", Set.of("admin"), true);
        for (int i = 0; i < 3; i++) {
            assertInstanceOf(Receipt.Pending.class, initialize("10.0.0.1", bob));
        }
        Receipt.Rejected refused = assertInstanceOf(Receipt.Rejected.class, initialize("10.0.0.2", bob),
                "from any address");
        assertEquals(Receipt.Reason.UNAVAILABLE, refused.reason());
        assertTrue(Json.MAPPER.readTree(refused.body()).path("error").path("message").asString().contains("of yours"));
        assertInstanceOf(Receipt.Pending.class, initialize("10.0.0.1", root), "another subject behind the same address");
        assertInstanceOf(Receipt.Pending.class, initialize("10.0.0.1", new CallerIdentity("bob", "globex", Set.of(), true)),
                "the same name in another tenant is another subject");
        assertEquals(5, engine.sessions().size(), "a refused session takes no room");
        engine.sessions().all().stream().filter(s -> s.caller().equals(bob)).findFirst().orElseThrow().close();
        assertInstanceOf(Receipt.Pending.class, initialize("10.0.0.2", bob), "a closed session frees its room");
    }

    @Test
    void aSessionThatNeverSpeaksAfterInitializeExpiresAfterTheHandshakeTimeout() throws Exception {
        engine = assemble(EngineSettings.of(Map.of("handshakeTimeoutMs", 1_000)), new ToolLimitsRegistry());
        String silent = ((Receipt.Pending) initialize("10.0.0.1")).session().id();
        String talking = ((Receipt.Pending) initialize("10.0.0.1")).session().id();
        assertInstanceOf(Receipt.Accepted.class, engine.receive(bytes(
                "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}"), inbound(talking)));
        Thread.sleep(1_100);
        engine.sessions().expireIdle(3_600_000, 1_000);
        assertNull(engine.sessions().get(silent));
        assertNotNull(engine.sessions().get(talking));
    }

    @Test
    void listenStreamsAreBounded() throws Exception {
        engine = assemble(EngineSettings.of(Map.of("maxListeners", 1)), new ToolLimitsRegistry());
        Recorder first = start(engine.receive(bytes(listen(1)), stateless()));
        first.firstInterim.get(5, TimeUnit.SECONDS);
        Receipt.Rejected refused = assertInstanceOf(Receipt.Rejected.class, engine.receive(bytes(listen(2)), stateless()));
        assertEquals(Receipt.Reason.UNAVAILABLE, refused.reason());
    }

    @Test
    void aNewConfigurationKeepsSessionsAndAppliesAtOnce() throws Exception {
        engine = assemble(EngineSettings.of(Map.of("pageSize", 1)), new ToolLimitsRegistry());
        for (String name : List.of("a", "b")) {
            register(name, call -> Outcome.text(name));
        }
        String session = ((Receipt.Pending) initialize(null)).session().id();
        assertTrue(call(session, "tools/list").path("result").has("nextCursor"));
        engine.reconfigure(TypedConfig.of(EngineConfig.class, Map.of("pageSize", 5, "serverName", "renamed")));
        assertNotNull(engine.sessions().get(session), "the session is still there");
        assertTrue(!call(session, "tools/list").path("result").has("nextCursor"), "the new page size applies");
    }

    @Test
    void drainingLetsQuickCallsFinishThenCancelsTheRestWithAnErrorAndEndsStreams() throws Exception {
        engine = assemble(EngineSettings.of(Map.of("shutdownGraceMs", 500)), new ToolLimitsRegistry());
        CountDownLatch stopped = new CountDownLatch(1);
        register("quick", call -> {
            Thread.sleep(100);
            return Outcome.text("quick done");
        });
        register("stuck", call -> {
            try {
                Thread.sleep(60_000);
            } catch (InterruptedException e) {
                stopped.countDown();
            }
            return Outcome.text("never");
        });
        String session = ((Receipt.Pending) initialize(null)).session().id();
        Recorder stream = new Recorder();
        engine.session(session).orElseThrow().attach(stream);
        Recorder listener = start(engine.receive(bytes(listen(7)), stateless()));
        Recorder quick = start(engine.receive(bytes(callTool(2, "quick")), inbound(session)));
        Recorder stuck = start(engine.receive(bytes(callTool(3, "stuck")), inbound(session)));
        Thread.sleep(50);
        long t0 = System.nanoTime();
        engine.drain();
        assertTrue(System.nanoTime() - t0 >= TimeUnit.MILLISECONDS.toNanos(450), "the grace period is given");
        assertEquals("quick done", quick.json().path("result").path("content").get(0).path("text").asString());
        JsonNode error = stuck.json().path("error");
        assertEquals(-32000, error.path("code").asInt());
        assertTrue(error.path("message").asString().contains("shutting down"), error.toString());
        assertTrue(stopped.await(5, TimeUnit.SECONDS), "the stuck tool was interrupted");
        assertEquals("complete", listener.json().path("result").path("resultType").asString(),
                "the listen stream ends with its final result");
        assertTrue(stream.done.isDone(), "the session stream ended");
        assertEquals("notifications/message", Json.MAPPER.readTree(stream.interim.get(stream.interim.size() - 1))
                .path("method").asString(), "after a last message");
        Receipt after = engine.receive(bytes(callTool(4, "quick")), inbound(session));
        assertEquals(Receipt.Reason.UNAVAILABLE, assertInstanceOf(Receipt.Rejected.class, after).reason());
    }

    @Test
    void aCallServedOnTheTransportsThreadRunsItsToolThereUpToTheInlineBound() throws Exception {
        engine = assemble(EngineSettings.of(Map.of("maxInlineRequests", 1)), new ToolLimitsRegistry());
        CountDownLatch holding = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        register("where", call -> Outcome.text(Thread.currentThread().getName()));
        register("hold", call -> {
            holding.countDown();
            release.await();
            return Outcome.text("held");
        });
        String session = ((Receipt.Pending) initialize(null)).session().id();
        String here = Thread.currentThread().getName();
        assertEquals(here, text(run(engine.receive(bytes(callTool(2, "where")), inbound(session)))),
                "no hand-off: the tool ran on the thread that served the request");
        Recorder held = new Recorder();
        Thread serving = new Thread(() -> exchange(engine.receive(bytes(callTool(3, "hold")), inbound(session))).run(held));
        serving.start();
        assertTrue(holding.await(5, TimeUnit.SECONDS));
        String elsewhere = text(run(engine.receive(bytes(callTool(4, "where")), inbound(session))));
        assertTrue(elsewhere.startsWith("quiver-tool-"), "beyond the bound a call takes the engine's threads: " + elsewhere);
        release.countDown();
        assertEquals("held", text(held));
        serving.join(5_000);
        assertEquals(here, text(run(engine.receive(bytes(callTool(5, "where")), inbound(session)))),
                "the place is free again");
        engine.reconfigure(TypedConfig.of(EngineConfig.class, Map.of("maxInlineRequests", 0)));
        assertTrue(text(run(engine.receive(bytes(callTool(6, "where")), inbound(session)))).startsWith("quiver-tool-"),
                "0: always handed off");
    }

    @Test
    void aToolStuckOnTheTransportsThreadPastItsTimeoutIsAnsweredThenAndOnlyOnce() throws Exception {
        engine = assemble(EngineSettings.of(Map.of("toolTimeoutMs", 300)), new ToolLimitsRegistry());
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch interrupted = new CountDownLatch(1);
        register("stuck", call -> {
            while (release.getCount() > 0) {
                try {
                    release.await();
                } catch (InterruptedException e) {
                    interrupted.countDown(); // and carries on
                }
            }
            return Outcome.text("late");
        });
        register("quick", call -> Outcome.text("quick"));
        String session = ((Receipt.Pending) initialize(null)).session().id();
        Recorder stuck = new Recorder();
        Thread serving = new Thread(() -> exchange(engine.receive(bytes(callTool(2, "stuck")), inbound(session)))
                .run(stuck));
        long t0 = System.nanoTime();
        serving.start();
        JsonNode answer = stuck.json();
        long tookMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
        assertTrue(answer.path("result").path("isError").asBoolean(), answer.toString());
        assertEquals("The tool stuck timed out after 300 ms.", answer.path("result").path("content").get(0)
                .path("text").asString());
        assertTrue(tookMs < 3_000, "answered at the timeout, while the tool still ran: " + tookMs + " ms");
        assertTrue(serving.isAlive(), "the serving thread still waits for the tool");
        assertTrue(interrupted.await(0, TimeUnit.SECONDS), "the tool was interrupted first");
        release.countDown();
        serving.join(5_000);
        assertEquals(1, stuck.completions.get(), "the late outcome is not sent");
        assertEquals("quick", text(run(engine.receive(bytes(callTool(3, "quick")), inbound(session)))),
                "the session goes on");
    }

    private static Exchange exchange(Receipt receipt) {
        return assertInstanceOf(Receipt.Pending.class, receipt, receipt.toString()).exchange();
    }

    /** Served on this thread, as a transport does with {@link Exchange#run}. */
    private static Recorder run(Receipt receipt) {
        Recorder recorder = new Recorder();
        exchange(receipt).run(recorder);
        return recorder;
    }

    private static String text(Recorder answered) throws Exception {
        return answered.json().path("result").path("content").get(0).path("text").asString();
    }

    // -------------------------------------------------------------------------------------------

    /** An initialize, answered. */
    private Receipt initialize(String address) {
        return initialize(address, CallerIdentity.ANONYMOUS);
    }

    private Receipt initialize(String address, CallerIdentity caller) {
        Receipt receipt = engine.receive(bytes(INIT), new Inbound(null, null, caller, null, address));
        if (receipt instanceof Receipt.Pending pending) {
            Recorder answer = new Recorder();
            pending.exchange().start(answer);
            answer.done.join();
        }
        return receipt;
    }

    private JsonNode call(String session, String method) throws Exception {
        return start(engine.receive(bytes("{\"jsonrpc\":\"2.0\",\"id\":" + System.nanoTime() % 100_000
                + ",\"method\":\"" + method + "\"}"), inbound(session))).json();
    }

    private static String callTool(int id, String name) {
        return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"tools/call\",\"params\":{\"name\":\"" + name + "\"}}";
    }

    private static String listen(int id) {
        return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"subscriptions/listen\",\"params\":"
                + "{\"notifications\":{\"toolsListChanged\":true}," + META + "}}";
    }

    private int serviceId = 2000;

    private void register(String name, Tool tool) {
        Map<String, Object> props = new HashMap<>();
        props.put("mcp.tool.name", name);
        props.put("mcp.tool.description", "test " + name);
        props.put("service.id", (long) ++serviceId);
        catalog.bindTool(tool, props);
    }

    private static Recorder start(Receipt receipt) {
        Receipt.Pending pending = assertInstanceOf(Receipt.Pending.class, receipt, receipt.toString());
        Recorder recorder = new Recorder();
        pending.exchange().start(recorder);
        return recorder;
    }

    private static Inbound inbound(String session) {
        return new Inbound(session, null, CallerIdentity.ANONYMOUS);
    }

    private static Inbound stateless() {
        return new Inbound(null, null, CallerIdentity.ANONYMOUS);
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static final class Recorder implements MessageSink {
        final List<byte[]> interim = new CopyOnWriteArrayList<>();
        final CompletableFuture<byte[]> done = new CompletableFuture<>();
        final CompletableFuture<JsonNode> firstInterim = new CompletableFuture<>();
        final AtomicInteger completions = new AtomicInteger();

        @Override
        public void send(byte[] message) {
            interim.add(message);
            firstInterim.complete(Json.MAPPER.readTree(message));
        }

        @Override
        public void complete(byte[] response) {
            completions.incrementAndGet();
            done.complete(response);
        }

        JsonNode json() throws Exception {
            byte[] body = done.get(10, TimeUnit.SECONDS);
            assertNotNull(body);
            return Json.MAPPER.readTree(body);
        }
    }
}
