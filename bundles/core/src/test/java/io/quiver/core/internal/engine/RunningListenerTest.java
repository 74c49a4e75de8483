package io.quiver.core.internal.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quiver.api.Outcome;
import io.quiver.api.call.CallEvent;
import io.quiver.api.call.CallListener;
import io.quiver.api.call.CallPolicy;
import io.quiver.api.call.Decision;
import io.quiver.core.internal.catalog.Catalog;
import io.quiver.core.internal.pipeline.Extensions;
import io.quiver.core.internal.pipeline.ToolLimitsRegistry;
import io.quiver.core.internal.settings.EngineSettings;
import io.quiver.core.internal.wiring.EngineAssembly;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * {@link CallListener#running}: a listener that implements it hears a call once before its tool runs (every check
 * passed) and once when it is over; a call that never reaches its tool is heard when it is over only; a listener
 * that keeps the interface's default hears nothing more than before.
 */
class RunningListenerTest {

    private static final AtomicLong SERVICE_IDS = new AtomicLong(7000);

    private final Extensions extensions = new Extensions();
    private final Catalog catalog = new Catalog();
    /** What happened, in order: the listener's events and the tool's runs. */
    private final List<String> story = new CopyOnWriteArrayList<>();
    private final List<CallEvent> runningEvents = new CopyOnWriteArrayList<>();
    private final List<CallEvent> ends = new CopyOnWriteArrayList<>();
    private EngineAssembly assembly;
    private SessionClient client;

    /** A listener that asks to hear calls before they run. */
    private final class Both implements CallListener {
        @Override
        public void called(CallEvent event) {
            ends.add(event);
            story.add("called " + event.tool() + " " + event.ending());
        }

        @Override
        public void running(CallEvent event) {
            runningEvents.add(event);
            story.add("running " + event.tool());
        }
    }

    @BeforeEach
    void setUp() throws Exception {
        tool("count", call -> {
            story.add("ran count");
            return Outcome.text("ran");
        }, "{\"type\":\"object\",\"properties\":{\"n\":{\"type\":\"integer\"}}}");
        tool("secret", call -> {
            story.add("ran secret");
            return Outcome.text("ran");
        }, null);
        extensions.addPolicy(new CallPolicy() {
            @Override
            public Decision decide(io.quiver.api.CallerIdentity caller, io.quiver.api.call.Target target) {
                return "secret".equals(target.name()) ? Decision.deny("not for you") : Decision.allow();
            }
        }, 0, 1L);
        assembly = EngineAssembly.of(catalog, EngineSettings.of(Map.of("toolTimeoutMs", 5_000)), new ToolLimitsRegistry(),
                extensions);
        client = SessionClient.open(assembly.engine());
    }

    @AfterEach
    void tearDown() {
        if (assembly != null) {
            assembly.close();
        }
    }

    @Test
    void aListenerThatAsksHearsTheCallBeforeItsToolRunsAndAgainAtItsEnd() throws Exception {
        extensions.addListener(new Both());
        JsonNode result = call(2, "count", "{\"n\":3}");
        assertFalse(result.path("isError").asBoolean(), result.toString());
        assertEquals(List.of("running count", "ran count", "called count COMPLETED"), story);

        CallEvent running = runningEvents.get(0);
        assertEquals(CallEvent.Ending.RUNNING, running.ending());
        assertEquals("count", running.tool());
        assertNotNull(running.invocationId());
        assertTrue(running.decisions().stream().anyMatch(step -> step.reason() != null && step.reason().contains("allowed")),
                "the decisions taken so far: " + running.decisions());
        assertNotNull(running.argumentsDigest(), "the digest of the arguments, as the end's event has it");
        CallEvent end = ends.get(0);
        assertEquals(running.invocationId(), end.invocationId());
        assertEquals(running.started(), end.started(), "both events name the same moment of arrival");
        assertEquals(running.argumentsDigest(), end.argumentsDigest());
    }

    @Test
    void aCallThatNeverReachesItsToolIsHeardAtItsEndOnly() throws Exception {
        extensions.addListener(new Both());
        call(2, "count", "{\"n\":\"three\"}");   // invalid arguments
        call(3, "secret", "{}");                // hidden by the policy
        call(4, "nothing_here", "{}");          // unknown
        assertEquals(List.of("called count INVALID", "called secret DENIED", "called nothing_here INVALID"), story);
        assertTrue(runningEvents.isEmpty(), "no running event: " + runningEvents);
    }

    @Test
    void aListenerWithTheDefaultHearsEachCallOnceAtItsEnd() throws Exception {
        List<CallEvent> ends = new CopyOnWriteArrayList<>();
        extensions.addListener(ends::add);
        call(2, "count", "{\"n\":1}");
        assertEquals(1, ends.size());
        assertEquals(CallEvent.Ending.COMPLETED, ends.get(0).ending());
        assertTrue(extensions.runningListeners().isEmpty(), "a lambda keeps the default: no running event is made");
    }

    private JsonNode call(int id, String tool, String arguments) throws Exception {
        JsonNode response = client.request("{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"tools/call\",\"params\":"
                + "{\"name\":\"" + tool + "\",\"arguments\":" + arguments + "}}").response();
        return response.has("result") ? response.path("result") : response;
    }

    private void tool(String name, io.quiver.api.Tool tool, String schema) {
        Map<String, Object> props = new HashMap<>();
        props.put("mcp.tool.name", name);
        props.put("mcp.tool.description", "test tool " + name);
        if (schema != null) {
            props.put("mcp.tool.inputSchema", schema);
        }
        props.put("service.id", SERVICE_IDS.incrementAndGet());
        catalog.bindTool(tool, props);
    }
}
