package io.quiver.core.internal.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quiver.api.Outcome;
import io.quiver.api.call.Admission;
import io.quiver.api.call.CallEvent;
import io.quiver.api.call.HostChannel;
import io.quiver.api.call.Invocation;
import io.quiver.core.internal.catalog.Catalog;
import io.quiver.core.internal.pipeline.Extensions;
import io.quiver.core.internal.pipeline.ToolLimitsRegistry;
import io.quiver.core.internal.settings.EngineSettings;
import io.quiver.core.internal.wiring.EngineAssembly;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * The framework property {@code quiver.host.required} ({@link Extensions#hostRequired}): an embedder
 * that declared a host channel never has a tool call run unseen, neither before its channel is there
 * nor after it went away, and a channel that goes while a call waits for it does not let that call run.
 */
class HostRequiredTest {

    private static final AtomicLong SERVICE_IDS = new AtomicLong(5000);
    private static final long HOST_ID = 1L;
    private static final String NOT_CONNECTED = "The call of count was not admitted: The host application is not connected.";

    private final Extensions extensions = new Extensions();
    private final Catalog catalog = new Catalog();
    /** How often the tool ran: the side effect a refused call must not have. */
    private final AtomicInteger runs = new AtomicInteger();
    private final List<CallEvent> events = new CopyOnWriteArrayList<>();
    private EngineAssembly assembly;
    private SessionClient client;

    @BeforeEach
    void setUp() {
        extensions.hostRequired(true); // as EngineComponent sets it from the framework property
        extensions.addListener(events::add);
        Map<String, Object> props = new HashMap<>();
        props.put("mcp.tool.name", "count");
        props.put("mcp.tool.description", "counts its runs");
        props.put("service.id", SERVICE_IDS.incrementAndGet());
        catalog.bindTool(call -> Outcome.text("ran " + runs.incrementAndGet()), props);
    }

    /** The engine as the component builds it, with the host's time to answer, and a 2025-11-25 session. */
    private void start(long hostTimeoutMs) throws Exception {
        assembly = EngineAssembly.of(catalog, EngineSettings.of(Map.of("toolTimeoutMs", 5_000,
                "clientRequestTimeoutMs", 2_000, "hostTimeoutMs", hostTimeoutMs)), new ToolLimitsRegistry(), extensions);
        client = SessionClient.open(assembly.engine());
    }

    @AfterEach
    void tearDown() {
        if (assembly != null) {
            assembly.close();
        }
    }

    @Test
    void withNoHostChannelInForceACallIsRefusedAndTheToolDoesNotRun() throws Exception {
        start(10_000);
        JsonNode result = call(2).response().path("result");
        assertTrue(result.path("isError").asBoolean(), result.toString());
        assertEquals(NOT_CONNECTED, text(result));
        assertEquals(0, runs.get(), "the tool must not run while the host is not connected");
        CallEvent event = lastEvent();
        assertEquals(CallEvent.Ending.DENIED, event.ending());
        assertEquals("The host application is not connected.", event.detail());
    }

    @Test
    void whenTheHostChannelGoesAwayTheNextCallIsRefusedAndWhenItComesBackCallsRunAgain() throws Exception {
        start(10_000);
        extensions.addHost(invocation -> Admission.approve(), 0, HOST_ID);
        assertEquals("ran 1", text(call(2).response().path("result")));

        extensions.removeHost(HOST_ID); // as EngineComponent.unbindHost does when the embedder's channel goes
        JsonNode refused = call(3).response().path("result");
        assertTrue(refused.path("isError").asBoolean(), refused.toString());
        assertEquals(NOT_CONNECTED, text(refused));
        assertEquals(1, runs.get(), "the call after the host went away must not run");
        assertEquals(CallEvent.Ending.DENIED, lastEvent().ending());

        extensions.addHost(invocation -> Admission.approve(), 0, HOST_ID + 1);
        assertEquals("ran 2", text(call(4).response().path("result")));
    }

    @Test
    void withoutTheRequirementACallWithNoHostRuns() throws Exception {
        extensions.hostRequired(false);
        start(10_000);
        assertEquals("ran 1", text(call(2).response().path("result")));
    }

    @Test
    void aHostChannelThatGoesAwayWhileACallWaitsForItStopsTheCallAndTheToolDoesNotRun() throws Exception {
        start(10_000);
        AtomicReference<Consumer<String>> stop = new AtomicReference<>();
        CountDownLatch deciding = new CountDownLatch(1);
        CountDownLatch interrupted = new CountDownLatch(1);
        extensions.addHost(new HostChannel() {
            @Override
            public void begin(Invocation invocation, Consumer<String> stopper) {
                stop.set(stopper);
            }

            @Override
            public Admission admit(Invocation invocation) {
                deciding.countDown();
                try {
                    Thread.sleep(30_000);
                } catch (InterruptedException e) {
                    interrupted.countDown();
                }
                return Admission.approve(); // even a yes that comes after the stop must not run the call
            }
        }, 0, HOST_ID);
        SessionClient.Answer waiting = call(2);
        assertTrue(deciding.await(10, TimeUnit.SECONDS), "the call waits for the host to admit it");

        // a host that stops the calls waiting for it as it leaves (its reason reaches the caller; a host that leaves
        // without a word ends them too: aHostChannelThatGoesAwayWithoutAWordEndsTheWaitAtOnce)
        stop.get().accept("the host channel closed");
        extensions.removeHost(HOST_ID);

        JsonNode result = waiting.response().path("result");
        assertTrue(result.path("isError").asBoolean(), result.toString());
        assertEquals("The host stopped the call of count: the host channel closed", text(result));
        assertTrue(interrupted.await(10, TimeUnit.SECONDS), "the host's wait was ended");
        assertEquals(0, runs.get(), "the tool must not run once its host went away");
        assertEquals(CallEvent.Ending.CANCELLED, lastEvent().ending());

        assertEquals(NOT_CONNECTED, text(call(3).response().path("result")), "and later calls are refused");
        assertEquals(0, runs.get());
    }

    @Test
    @org.junit.jupiter.api.Timeout(60)
    void aHostChannelThatGoesAwayWithoutAWordEndsTheWaitAtOnce() throws Exception {
        start(600_000); // the host's time would not end the wait within the test
        CountDownLatch deciding = new CountDownLatch(1);
        extensions.addHost(invocation -> {
            deciding.countDown();
            try {
                Thread.sleep(30_000);
            } catch (InterruptedException e) {
                // the host's time ran out
            }
            return Admission.approve();
        }, 0, HOST_ID);
        SessionClient.Answer waiting = call(2);
        assertTrue(deciding.await(10, TimeUnit.SECONDS));
        extensions.removeHost(HOST_ID); // as EngineComponent.unbindHost does: the host never said a word

        JsonNode result = waiting.response().path("result");
        assertTrue(result.path("isError").asBoolean(), result.toString());
        assertEquals("The call of count was not admitted: The host application went away before it could admit the"
                + " call.", text(result));
        assertEquals(0, runs.get(), "the tool must not run when its host never answered");
        assertEquals(CallEvent.Ending.DENIED, lastEvent().ending());
    }

    @Test
    @org.junit.jupiter.api.Timeout(60)
    void aHostThatGoesAwayWhileTheToolRunsIsNotAskedToReviewItsResult() throws Exception {
        CountDownLatch running = new CountDownLatch(1);
        CountDownLatch go = new CountDownLatch(1);
        Map<String, Object> props = new HashMap<>();
        props.put("mcp.tool.name", "gated");
        props.put("service.id", SERVICE_IDS.incrementAndGet());
        catalog.bindTool(call -> {
            running.countDown();
            go.await();
            return Outcome.text("gated ran");
        }, props);
        start(600_000); // the host's time would not end a wait within the test
        AtomicInteger reviews = new AtomicInteger();
        extensions.addHost(new HostChannel() {
            @Override
            public Admission admit(Invocation invocation) {
                return Admission.approve();
            }

            @Override
            public io.quiver.api.ToolResult review(Invocation invocation, io.quiver.api.ToolResult result) {
                reviews.incrementAndGet();
                try {
                    Thread.sleep(30_000); // a host that is gone never answers
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                return result;
            }
        }, 0, HOST_ID);
        SessionClient.Answer waiting = client.request("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\","
                + "\"params\":{\"name\":\"gated\",\"arguments\":{}}}");
        assertTrue(running.await(10, TimeUnit.SECONDS));
        extensions.removeHost(HOST_ID); // gone while the tool runs: no wait on it is under way to end
        go.countDown();

        JsonNode result = waiting.response().path("result");
        assertTrue(result.path("isError").asBoolean(), result.toString());
        assertEquals("The result of gated was not delivered: The host application went away before it could record"
                + " the result.", text(result));
        assertEquals(0, reviews.get(), "a host that is gone is not asked");
    }

    // -------------------------------------------------------------------------------------------

    /** The one event of the last call that is over (listeners hear it before the answer is sent). */
    private CallEvent lastEvent() {
        assertFalse(events.isEmpty(), "no call event");
        return events.get(events.size() - 1);
    }

    private SessionClient.Answer call(int id) {
        return client.request("{\"jsonrpc\":\"2.0\",\"id\":" + id
                + ",\"method\":\"tools/call\",\"params\":{\"name\":\"count\",\"arguments\":{}}}");
    }

    private static String text(JsonNode result) {
        return result.path("content").path(0).path("text").asString();
    }
}
