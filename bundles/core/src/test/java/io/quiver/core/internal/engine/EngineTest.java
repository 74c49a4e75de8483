package io.quiver.core.internal.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quiver.api.CallerIdentity;
import io.quiver.api.Outcome;
import io.quiver.api.ProtocolError;
import io.quiver.api.Tool;
import io.quiver.api.ToolResult;
import io.quiver.api.call.CallEvent;
import io.quiver.api.content.AudioContent;
import io.quiver.api.content.ResourceLink;
import io.quiver.api.content.TextContent;
import io.quiver.api.input.InputRequest;
import io.quiver.api.input.InputResponse;
import io.quiver.api.transport.Inbound;
import io.quiver.api.transport.MessageSink;
import io.quiver.api.transport.Receipt;
import io.quiver.core.internal.catalog.Catalog;
import io.quiver.core.internal.json.Json;
import io.quiver.core.internal.pipeline.Extensions;
import io.quiver.core.internal.pipeline.ToolLimits;
import io.quiver.core.internal.pipeline.ToolLimitsRegistry;
import io.quiver.core.internal.settings.EngineConfig;
import io.quiver.core.internal.settings.EngineSettings;
import io.quiver.core.internal.wiring.EngineAssembly;
import io.quiver.lib.config.TypedConfig;
import java.nio.charset.StandardCharsets;
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

/** The engine driven directly, as a transport would, with tools registered in a real catalog. */
class EngineTest {

    private final Extensions extensions = new Extensions();

    private static final AtomicLong SERVICE_IDS = new AtomicLong(100);

    private Catalog catalog;
    private EngineAssembly assembly;
    private Engine engine;
    private final ToolLimitsRegistry limits = new ToolLimitsRegistry();
    private String sessionId;

    @BeforeEach
    void setUp() throws Exception {
        catalog = new Catalog();
        engine = assemble(EngineSettings.of(Map.of("toolTimeoutMs", 500, "clientRequestTimeoutMs", 2_000,
                "pageSize", 2, "listChangedDebounceMs", 20, "maxOutputBytes", 64)), limits);
        Recorder init = request(null, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":"
                + "{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{\"elicitation\":{}},"
                + "\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}");
        assertEquals("2025-11-25", init.response().path("result").path("protocolVersion").asString());
        assertFalse(engine.receive(bytes("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}"),
                inbound(sessionId)) instanceof Receipt.Rejected);
    }

    /** The engine as the component builds it; {@link #assembly} closes it. */
    private Engine assemble(EngineSettings settings, ToolLimitsRegistry limits) {
        assembly = EngineAssembly.of(catalog, settings, limits, extensions);
        return assembly.engine();
    }

    @AfterEach
    void tearDown() {
        assembly.close();
    }

    @Test
    void unknownMethodIsMethodNotFound() throws Exception {
        JsonNode response = call("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"no/such\"}").response();
        assertEquals(-32601, response.path("error").path("code").asInt());
    }

    @Test
    void requestsWithoutOrWithUnknownSessionAreRejected() {
        Receipt missing = engine.receive(bytes("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}"), inbound(null));
        assertEquals(Receipt.Reason.SESSION_REQUIRED, assertInstanceOf(Receipt.Rejected.class, missing).reason());
        Receipt unknown = engine.receive(bytes("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}"), inbound("nope"));
        assertEquals(Receipt.Reason.SESSION_NOT_FOUND, assertInstanceOf(Receipt.Rejected.class, unknown).reason());
    }

    @Test
    void toolsAreListedInNameOrderAcrossPages() throws Exception {
        for (String name : List.of("gamma", "alpha", "beta")) {
            register(name, 0, call -> Outcome.text(name));
        }
        JsonNode first = call("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}").response().path("result");
        assertEquals("alpha", first.path("tools").get(0).path("name").asString());
        assertEquals("beta", first.path("tools").get(1).path("name").asString());
        String cursor = first.path("nextCursor").asString();
        JsonNode second = call("{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/list\",\"params\":{\"cursor\":\""
                + cursor + "\"}}").response().path("result");
        assertEquals("gamma", second.path("tools").get(0).path("name").asString());
        assertFalse(second.has("nextCursor"));
    }

    @Test
    void higherRankedToolShadowsAndLowerIsPromotedOnRemoval() throws Exception {
        Map<String, Object> low = register("echo", 0, call -> Outcome.text("low"));
        Map<String, Object> high = register("echo", 10, call -> Outcome.text("high"));
        assertEquals("high", text(call(callTool(2, "echo", "{}"))));
        catalog.unbindTool(high);
        assertEquals("low", text(call(callTool(3, "echo", "{}"))));
        catalog.unbindTool(low);
        assertEquals(-32602, call(callTool(4, "echo", "{}")).response().path("error").path("code").asInt());
    }

    @Test
    void argumentsAreValidatedBeforeTheToolRuns() throws Exception {
        AtomicInteger runs = new AtomicInteger();
        register("typed", 0, call -> {
            runs.incrementAndGet();
            return Outcome.text("ran");
        }, "{\"type\":\"object\",\"properties\":{\"n\":{\"type\":\"integer\"}},\"required\":[\"n\"]}");
        JsonNode result = call(callTool(2, "typed", "{\"n\":\"x\"}")).response().path("result");
        assertTrue(result.path("isError").asBoolean());
        assertTrue(result.path("content").get(0).path("text").asString().contains("n"));
        assertEquals(0, runs.get(), "the tool must not run with invalid arguments");
        assertEquals("ran", text(call(callTool(3, "typed", "{\"n\":4}"))));
        assertEquals(1, runs.get());
    }

    @Test
    void aThrowingToolYieldsAGenericErrorWithoutItsMessage() throws Exception {
        register("boom", 0, call -> {
            throw new IllegalStateException("secret database password is hunter2");
        });
        JsonNode result = call(callTool(2, "boom", "{}")).response().path("result");
        assertTrue(result.path("isError").asBoolean());
        assertFalse(result.toString().contains("hunter2"));
    }

    @Test
    void aThrowingPromptResourceOrCompleterYieldsAGenericErrorWithoutItsMessage() throws Exception {
        Map<String, Object> prompt = new HashMap<>(Map.of("mcp.prompt.name", "boom", "service.id", SERVICE_IDS.incrementAndGet()));
        catalog.bindPrompt(request -> {
            throw new IllegalStateException("prompt secret hunter2");
        }, prompt);
        catalog.bindResource(request -> {
            throw new IllegalStateException("resource secret hunter2");
        }, new HashMap<>(Map.of("mcp.resource.uri", "test://boom", "mcp.resource.name", "boom", "service.id",
                SERVICE_IDS.incrementAndGet())));
        catalog.bindCompleter(request -> {
            throw new IllegalStateException("completer secret hunter2");
        }, new HashMap<>(Map.of("mcp.completion.refType", "ref/prompt", "mcp.completion.ref", "boom", "service.id",
                SERVICE_IDS.incrementAndGet())));
        for (String message : List.of(
                "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"prompts/get\",\"params\":{\"name\":\"boom\"}}",
                "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"resources/read\",\"params\":{\"uri\":\"test://boom\"}}",
                "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"completion/complete\",\"params\":{\"ref\":{\"type\":"
                        + "\"ref/prompt\",\"name\":\"boom\"},\"argument\":{\"name\":\"a\",\"value\":\"\"}}}")) {
            JsonNode response = call(message).response();
            assertEquals(-32603, response.path("error").path("code").asInt(), response.toString());
            assertFalse(response.toString().contains("hunter2"), response.toString());
        }
    }

    @Test
    void aRefusalIsAnsweredWithItsCodeMessageAndData() throws Exception {
        catalog.bindPrompt(request -> {
            throw new ProtocolError(-32602, "Unknown city", Map.of("argument", "city"));
        }, new HashMap<>(Map.of("mcp.prompt.name", "weather", "service.id", SERVICE_IDS.incrementAndGet())));
        register("strict", 0, call -> {
            throw new ProtocolError(-32001, "Quota exceeded", List.of("daily"));
        });
        JsonNode prompt = call("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"prompts/get\",\"params\":{\"name\":\"weather\"}}")
                .response().path("error");
        assertEquals(Json.MAPPER.readTree("{\"code\":-32602,\"message\":\"Unknown city\",\"data\":{\"argument\":\"city\"}}"),
                prompt);
        JsonNode tool = call(callTool(3, "strict", "{}")).response().path("error");
        assertEquals(Json.MAPPER.readTree("{\"code\":-32001,\"message\":\"Quota exceeded\",\"data\":[\"daily\"]}"), tool);
    }

    @Test
    void aCallWithoutANameIsInvalidParams() throws Exception {
        for (String params : List.of("{}", "{\"name\":\"\"}", "{\"name\":7}")) {
            JsonNode response = call("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":" + params + "}")
                    .response();
            assertEquals(-32602, response.path("error").path("code").asInt(), params + ": " + response);
        }
    }

    @Test
    void aStructuredResultAlsoCarriesItsJsonAsText() throws Exception {
        register("report", 0, call -> Outcome.done(ToolResult.structured(Map.of("count", 3))));
        JsonNode result = call(callTool(2, "report", "{}")).response().path("result");
        assertFalse(result.path("isError").asBoolean(true), result.toString());
        assertEquals(3, result.path("structuredContent").path("count").asInt(), result.toString());
        assertEquals(Json.MAPPER.readTree("{\"count\":3}"), Json.MAPPER.readTree(result.path("content").get(0)
                .path("text").asString()), "clients that read only content get the same JSON as text");
    }

    @Test
    void aToolPastItsTimeoutIsStoppedAndOthersStillAnswer() throws Exception {
        CountDownLatch interrupted = new CountDownLatch(1);
        register("sleepy", 0, call -> {
            try {
                Thread.sleep(60_000);
            } catch (InterruptedException e) {
                interrupted.countDown();
            }
            return Outcome.text("late");
        });
        register("quick", 0, call -> Outcome.text("quick"));
        JsonNode result = call(callTool(2, "sleepy", "{}")).response().path("result");
        assertTrue(result.path("isError").asBoolean());
        assertTrue(result.path("content").get(0).path("text").asString().contains("timed out"));
        assertTrue(interrupted.await(5, TimeUnit.SECONDS), "the timed-out tool thread is interrupted");
        assertEquals("quick", text(call(callTool(3, "quick", "{}"))));
    }

    @Test
    void needsInputAsksTheClientAndRunsTheToolAgainWithTheAnswer() throws Exception {
        register("ask", 0, call -> {
            InputResponse answer = call.answers().get("who");
            if (answer instanceof InputResponse.Elicited e) {
                return Outcome.text("hello " + e.content().get("name"));
            }
            return Outcome.needsInput(new InputRequest.Elicitation("who", "Your name?",
                    Map.of("type", "object", "properties", Map.of("name", Map.of("type", "string")))));
        });
        Recorder recorder = request(sessionId, callTool(2, "ask", "{}"));
        JsonNode elicitation = recorder.awaitInterim();
        assertEquals("elicitation/create", elicitation.path("method").asString());
        assertEquals("Your name?", elicitation.path("params").path("message").asString());
        String answer = "{\"jsonrpc\":\"2.0\",\"id\":\"" + elicitation.path("id").asString()
                + "\",\"result\":{\"action\":\"accept\",\"content\":{\"name\":\"Ada\"}}}";
        assertInstanceOf(Receipt.Accepted.class, engine.receive(bytes(answer), inbound(sessionId)));
        assertEquals("hello Ada", recorder.response().path("result").path("content").get(0).path("text").asString());

        // an accepted answer that does not fit the form never reaches the tool
        Recorder again = request(sessionId, callTool(3, "ask", "{}"));
        JsonNode asked = again.awaitInterim();
        assertInstanceOf(Receipt.Accepted.class, engine.receive(bytes("{\"jsonrpc\":\"2.0\",\"id\":\""
                + asked.path("id").asString() + "\",\"result\":{\"action\":\"accept\",\"content\":{\"name\":42}}}"),
                inbound(sessionId)));
        JsonNode refused = again.response();
        assertFalse(refused.path("result").path("content").path(0).path("text").asString().startsWith("hello"),
                refused.toString());
        assertTrue(refused.toString().contains("does not fit its requestedSchema"), refused.toString());
    }

    @Test
    void progressGoesToTheRequestBeforeItsResponse() throws Exception {
        register("steps", 0, call -> {
            for (int i = 1; i <= 3; i++) {
                call.context().progress(i, 3.0, "step " + i);
            }
            return Outcome.text("done");
        });
        Recorder recorder = request(sessionId, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":"
                + "{\"name\":\"steps\",\"_meta\":{\"progressToken\":\"tok\"}}}");
        recorder.response();
        assertEquals(3, recorder.interim.size());
        JsonNode last = Json.MAPPER.readTree(recorder.interim.get(2));
        assertEquals("tok", last.path("params").path("progressToken").asString());
        assertEquals(3.0, last.path("params").path("progress").asDouble());
    }

    @Test
    void cancelledCallsStopAndOweNoResponse() throws Exception {
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch stopped = new CountDownLatch(1);
        register("long", 0, call -> {
            started.countDown();
            try {
                Thread.sleep(60_000);
            } catch (InterruptedException e) {
                stopped.countDown();
            }
            return Outcome.text("never");
        });
        Recorder recorder = request(sessionId, callTool(7, "long", "{}"));
        assertTrue(started.await(5, TimeUnit.SECONDS));
        engine.receive(bytes("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":7}}"),
                inbound(sessionId));
        assertTrue(stopped.await(5, TimeUnit.SECONDS));
        assertNull(recorder.done.get(5, TimeUnit.SECONDS).orElse(null));
    }

    @Test
    void aCancellationWithAMalformedRequestIdIsIgnored() throws Exception {
        for (String requestId : List.of("{\"x\":[1]}", "[7]", "true", "1.5", "null")) {
            Receipt receipt = engine.receive(bytes("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\","
                    + "\"params\":{\"requestId\":" + requestId + "}}"), inbound(sessionId));
            assertInstanceOf(Receipt.Accepted.class, receipt, requestId);
        }
        assertInstanceOf(Receipt.Accepted.class, engine.receive(bytes(
                "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\"}"), inbound(sessionId)));
        assertEquals("{}", call("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}").response().path("result")
                .toString(), "the session still answers");
    }

    @Test
    void anIdAlreadyInFlightInTheSessionIsRefused() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        AtomicInteger runs = new AtomicInteger();
        register("hold", 0, call -> {
            runs.incrementAndGet();
            release.await(5, TimeUnit.SECONDS);
            return Outcome.text("held");
        });
        Recorder first = request(sessionId, callTool(7, "hold", "{}"));
        Receipt again = engine.receive(bytes(callTool(7, "hold", "{}")), inbound(sessionId));
        Receipt.Rejected rejected = assertInstanceOf(Receipt.Rejected.class, again);
        assertEquals(Receipt.Reason.INVALID_REQUEST, rejected.reason());
        JsonNode error = Json.MAPPER.readTree(rejected.body());
        assertEquals(-32600, error.path("error").path("code").asInt());
        assertEquals(7, error.path("id").asInt());
        // the string "7" is another id than the number 7
        Recorder other = request(sessionId, "{\"jsonrpc\":\"2.0\",\"id\":\"7\",\"method\":\"ping\"}");
        assertEquals("\"7\"", other.response().path("id").toString());
        release.countDown();
        assertEquals("held", first.response().path("result").path("content").get(0).path("text").asString());
        assertEquals(1, runs.get(), "the refused duplicate never ran");
        assertEquals("held", text(call(callTool(7, "hold", "{}"))), "the id is free again once answered");
    }

    @Test
    void listChangesAreDebouncedIntoOneNotification() throws Exception {
        List<String> received = new CopyOnWriteArrayList<>();
        engine.session(sessionId).orElseThrow().attach(new MessageSink() {
            @Override
            public void send(byte[] message) {
                received.add(new String(message, StandardCharsets.UTF_8));
            }

            @Override
            public void complete(byte[] response) {
            }
        });
        for (int i = 0; i < 5; i++) {
            register("burst" + i, 0, call -> Outcome.text("x"));
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (received.isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        Thread.sleep(200);
        assertEquals(1, received.size(), received.toString());
        assertTrue(received.get(0).contains("notifications/tools/list_changed"));
    }

    /** Arguments of a record-typed tool. */
    public record Greeting(String name, Optional<Integer> times) {
    }

    @Test
    void recordArgumentsGenerateTheSchemaAndConvert() throws Exception {
        Map<String, Object> props = new HashMap<>();
        props.put("mcp.tool.name", "greet");
        props.put("mcp.tool.description", "greets");
        props.put("mcp.tool.arguments", Greeting.class.getName());
        props.put("mcp.tool.icons", new String[] {"https://example.com/greet.png",
            "{\"src\":\"https://example.com/greet-dark.svg\",\"mimeType\":\"image/svg+xml\",\"sizes\":[\"any\"],\"theme\":\"dark\"}"});
        props.put("service.id", SERVICE_IDS.incrementAndGet());
        catalog.bindTool(call -> {
            Greeting g = call.arguments(Greeting.class);
            return Outcome.text(("hi " + g.name() + " ").repeat(g.times().orElse(1)).trim());
        }, props);
        JsonNode tool = call("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}").response()
                .path("result").path("tools").get(0);
        assertEquals("string", tool.path("inputSchema").path("properties").path("name").path("type").asString());
        assertEquals("[\"name\"]", tool.path("inputSchema").path("required").toString());
        assertEquals("[{\"src\":\"https://example.com/greet.png\"},{\"src\":\"https://example.com/greet-dark.svg\","
                + "\"mimeType\":\"image/svg+xml\",\"sizes\":[\"any\"],\"theme\":\"dark\"}]", tool.path("icons").toString());
        assertEquals("hi Ada hi Ada", text(call(callTool(3, "greet", "{\"name\":\"Ada\",\"times\":2}"))));
        assertTrue(call(callTool(4, "greet", "{\"times\":2}")).response().path("result").path("isError").asBoolean(),
                "a missing required argument is refused by the generated schema");
    }

    @Test
    void outputBeyondTheLimitIsCutVisibly() throws Exception {
        register("flood", 0, call -> Outcome.text("é".repeat(100)));
        String text = text(call(callTool(2, "flood", "{}")));
        assertTrue(text.startsWith("é".repeat(32)), text);
        assertFalse(text.startsWith("é".repeat(33)), "64 bytes hold 32 two-byte characters");
        assertTrue(text.contains("[output truncated"), text);
    }

    @Test
    void aToolAtItsLimitQueuesWithoutAThreadThenRefusesAndOthersStillAnswer() throws Exception {
        engine.reconfigure(TypedConfig.of(EngineConfig.class, Map.of("maxQueuedPerTool", 1)));
        limits.put(new ToolLimits("slow", 5_000, 1, 0));
        CountDownLatch release = new CountDownLatch(1);
        AtomicInteger running = new AtomicInteger();
        AtomicInteger most = new AtomicInteger();
        register("slow", 0, call -> {
            most.accumulateAndGet(running.incrementAndGet(), Math::max);
            release.await(5, TimeUnit.SECONDS);
            running.decrementAndGet();
            return Outcome.text("slow done");
        });
        register("quick", 0, call -> Outcome.text("quick"));
        Recorder first = request(sessionId, callTool(2, "slow", "{}"));
        Recorder second = request(sessionId, callTool(3, "slow", "{}"));
        JsonNode third = call(callTool(4, "slow", "{}")).response().path("result");
        assertTrue(third.path("isError").asBoolean());
        assertTrue(third.path("content").get(0).path("text").asString().contains("busy"), third.toString());
        assertEquals("quick", text(call(callTool(5, "quick", "{}"))), "other tools answer meanwhile");
        assertFalse(second.done.isDone(), "the queued call waits for the running one");
        release.countDown();
        assertEquals("slow done", text(first));
        assertEquals("slow done", text(second));
        assertEquals(1, most.get(), "never more than the tool's limit at once");
    }

    /**
     * A call cancelled while it waits for its tool's turn leaves the queue at once: it ends unanswered before the
     * running call does (its stream need not wait for a turn it will not take), listeners hear it ended cancelled
     * (the audit trail's line), it never runs, and the next call takes the free place in the queue.
     */
    @Test
    void aCallCancelledWhileItWaitsForItsTurnLeavesTheQueueAtOnceAndIsRecorded() throws Exception {
        List<CallEvent> events = new CopyOnWriteArrayList<>();
        extensions.addListener(events::add);
        engine.reconfigure(TypedConfig.of(EngineConfig.class, Map.of("maxQueuedPerTool", 1)));
        limits.put(new ToolLimits("slow", 5_000, 1, 0));
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        AtomicInteger runs = new AtomicInteger();
        register("slow", 0, call -> {
            runs.incrementAndGet();
            started.countDown();
            release.await(5, TimeUnit.SECONDS);
            return Outcome.text("slow done");
        });
        Recorder running = request(sessionId, callTool(2, "slow", "{}"));
        assertTrue(started.await(5, TimeUnit.SECONDS));
        Recorder waiting = request(sessionId, callTool(3, "slow", "{}"));
        assertFalse(waiting.done.isDone(), "it waits for the running call");
        engine.receive(bytes("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":3}}"),
                inbound(sessionId));
        assertNull(waiting.done.get(5, TimeUnit.SECONDS).orElse(null), "ended, unanswered, while the other still runs");
        assertFalse(running.done.isDone());
        assertEquals(1, events.size(), events.toString());
        assertEquals("slow", events.get(0).tool());
        assertEquals(CallEvent.Ending.CANCELLED, events.get(0).ending());
        Recorder next = request(sessionId, callTool(4, "slow", "{}"));
        assertFalse(next.done.isDone(), "queued in the place the cancelled call left, not refused as busy");
        release.countDown();
        assertEquals("slow done", text(running));
        assertEquals("slow done", text(next), "the queue's place was free for it");
        assertEquals(2, runs.get(), "the cancelled call never ran");
        assertEquals(3, events.size(), events.toString());
    }

    /**
     * A header that names no revision date ({@code latest}) is an unsupported version, however its text sorts; a
     * message naming 2026-07-28 without params for its {@code _meta} (a response: that revision sends clients no
     * requests) is an invalid request, not an "unsupported" 2026-07-28.
     */
    @Test
    void aVersionThatIsNoDateIsUnsupportedAndAStatelessResponseIsInvalid() {
        for (String version : List.of("latest", "DRAFT-2026-v1", "9")) {
            Receipt receipt = engine.receive(bytes("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":"
                    + "{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}"),
                    new Inbound(null, version, CallerIdentity.ANONYMOUS));
            Receipt.Rejected rejected = assertInstanceOf(Receipt.Rejected.class, receipt, version);
            assertEquals(Receipt.Reason.UNSUPPORTED_VERSION, rejected.reason(), version);
            assertTrue(new String(rejected.body(), StandardCharsets.UTF_8).contains("unsupported protocol version " + version),
                    new String(rejected.body(), StandardCharsets.UTF_8));
        }
        Receipt response = engine.receive(bytes("{\"jsonrpc\":\"2.0\",\"id\":5,\"result\":{}}"),
                new Inbound(null, "2026-07-28", CallerIdentity.ANONYMOUS));
        Receipt.Rejected rejected = assertInstanceOf(Receipt.Rejected.class, response);
        assertEquals(Receipt.Reason.INVALID_REQUEST, rejected.reason());
        String body = new String(rejected.body(), StandardCharsets.UTF_8);
        assertTrue(body.contains("nothing is answered by a response") && !body.contains("unsupported"), body);
        Receipt later = engine.receive(bytes("{\"jsonrpc\":\"2.0\",\"id\":5,\"result\":{}}"),
                new Inbound(null, "2027-01-15", CallerIdentity.ANONYMOUS));
        assertEquals(Receipt.Reason.UNSUPPORTED_VERSION, assertInstanceOf(Receipt.Rejected.class, later).reason(),
                "a later revision's date is an unsupported version");
    }

    /**
     * A tool that watches its context rather than its interrupt (a file walk, say) is told at its timeout too:
     * {@code isCancelled()} turns true when the call times out, so the tool stops instead of working on for
     * nobody. (The API says so; before, only a client's cancellation set it.)
     */
    @Test
    void aTimedOutToolSeesItsCallCancelled() throws Exception {
        CountDownLatch stopped = new CountDownLatch(1);
        register("poller", 0, call -> {
            long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (System.nanoTime() < until) {
                if (call.context().isCancelled()) {
                    stopped.countDown();
                    return Outcome.text("stopped");
                }
                Thread.interrupted(); // deaf to interrupts: only the context can stop it
                Thread.onSpinWait();
            }
            return Outcome.text("worked on");
        });
        JsonNode result = call(callTool(2, "poller", "{}")).response().path("result");
        assertTrue(result.path("isError").asBoolean(), result.toString());
        assertTrue(stopped.await(10, TimeUnit.SECONDS), "the tool saw its call cancelled at the timeout");
    }

    @Test
    void byDefaultOneToolGetsItsShareOfTheToolThreads() throws Exception {
        engine.reconfigure(TypedConfig.of(EngineConfig.class, Map.of("maxConcurrentCalls", 4,
                "toolSharePercent", 50, "maxQueuedPerTool", 0)));
        CountDownLatch release = new CountDownLatch(1);
        register("hog", 0, call -> {
            release.await(5, TimeUnit.SECONDS);
            return Outcome.text("hog done");
        });
        register("quick", 0, call -> Outcome.text("quick"));
        Recorder a = request(sessionId, callTool(2, "hog", "{}"));
        Recorder b = request(sessionId, callTool(3, "hog", "{}"));
        JsonNode refused = call(callTool(4, "hog", "{}")).response().path("result");
        assertTrue(refused.path("content").get(0).path("text").asString().contains("busy"), refused.toString());
        assertEquals("quick", text(call(callTool(5, "quick", "{}"))));
        release.countDown();
        assertEquals("hog done", text(a));
        assertEquals("hog done", text(b));
    }

    @Test
    void pingIsAnsweredOnTheCallersThreadWhileEveryWorkerIsBusy() throws Exception {
        engine.reconfigure(TypedConfig.of(EngineConfig.class, Map.of("maxConcurrentRequests", 1,
                "maxQueued", 1)));
        CountDownLatch release = new CountDownLatch(1);
        register("blocker", 0, call -> {
            release.await(5, TimeUnit.SECONDS);
            return Outcome.text("done");
        });
        Recorder blocked = request(sessionId, callTool(2, "blocker", "{}"));
        Recorder ping = call("{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"ping\"}");
        assertTrue(ping.done.isDone(), "answered before start() returned");
        Recorder list = call("{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"tools/list\"}");
        assertTrue(list.done.isDone());
        release.countDown();
        assertEquals("done", text(blocked));
    }

    @Test
    void olderRevisionsGetOnlyWhatTheirRevisionDefines() throws Exception {
        register("linker", 0, call -> Outcome.done(new ToolResult(List.of(
                new TextContent("see"),
                new ResourceLink("file:///a.txt", "a", "text/plain"),
                new AudioContent("UklG", "audio/wav")), Map.of("k", 1), false, Map.of())));
        Recorder init = request(null, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":"
                + "{\"protocolVersion\":\"2024-11-05\",\"capabilities\":{},\"clientInfo\":{\"name\":\"old\",\"version\":\"1\"}}}");
        assertEquals("2024-11-05", init.response().path("result").path("protocolVersion").asString());
        JsonNode tool = call("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}").response()
                .path("result").path("tools").get(0);
        assertFalse(tool.has("annotations"), tool.toString());
        JsonNode result = call(callTool(3, "linker", "{}")).response().path("result");
        assertFalse(result.has("structuredContent"), result.toString());
        assertEquals("text", result.path("content").get(1).path("type").asString());
        assertEquals("[resource: file:///a.txt]", result.path("content").get(1).path("text").asString());
        assertEquals("text", result.path("content").get(2).path("type").asString(), "no audio before 2025-03-26");
    }

    @Test
    void aFailedInitializeLeavesNoSessionBehind() throws Exception {
        for (String params : List.of("{\"protocolVersion\":\"2025-11-25\",\"capabilities\":[]}", "{\"capabilities\":{}}")) {
            Recorder init = request(null, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":" + params + "}");
            assertEquals(-32602, init.response().path("error").path("code").asInt(), params);
            assertTrue(engine.session(sessionId).isEmpty(), params);
            Receipt after = engine.receive(bytes("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}"),
                    inbound(sessionId));
            assertEquals(Receipt.Reason.SESSION_NOT_FOUND, assertInstanceOf(Receipt.Rejected.class, after).reason(), params);
        }
    }

    @Test
    void aCapabilityDeclaredAsNullIsLeftOut() throws Exception {
        Recorder init = request(null, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":"
                + "{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{\"sampling\":null,\"roots\":{\"listChanged\":null}},"
                + "\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}");
        assertEquals("2025-11-25", init.response().path("result").path("protocolVersion").asString(),
                "answered, not an internal error");
        assertTrue(call("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}").response().has("result"));
    }

    @Test
    void deletedSessionsAreGone() {
        engine.session(sessionId).orElseThrow().close();
        Receipt after = engine.receive(bytes("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}"), inbound(sessionId));
        assertEquals(Receipt.Reason.SESSION_NOT_FOUND, assertInstanceOf(Receipt.Rejected.class, after).reason());
    }

    // -------------------------------------------------------------------------------------------

    private Map<String, Object> register(String name, int ranking, Tool tool) {
        return register(name, ranking, tool, null);
    }

    private Map<String, Object> register(String name, int ranking, Tool tool, String schema) {
        Map<String, Object> props = new HashMap<>();
        props.put("mcp.tool.name", name);
        props.put("mcp.tool.description", "test tool " + name);
        if (schema != null) {
            props.put("mcp.tool.inputSchema", schema);
        }
        props.put("service.id", SERVICE_IDS.incrementAndGet());
        props.put("service.ranking", ranking);
        catalog.bindTool(tool, props);
        return props;
    }

    private static String callTool(int id, String name, String args) {
        return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"tools/call\",\"params\":{\"name\":\"" + name
                + "\",\"arguments\":" + args + "}}";
    }

    private static String text(Recorder recorder) throws Exception {
        return recorder.response().path("result").path("content").get(0).path("text").asString();
    }

    private Recorder call(String message) {
        return request(sessionId, message);
    }

    private Recorder request(String session, String message) {
        Receipt receipt = engine.receive(bytes(message), inbound(session));
        Receipt.Pending pending = assertInstanceOf(Receipt.Pending.class, receipt);
        if (session == null) {
            sessionId = pending.session().id();
        }
        Recorder recorder = new Recorder();
        pending.exchange().start(recorder);
        return recorder;
    }

    private static Inbound inbound(String session) {
        return new Inbound(session, null, CallerIdentity.ANONYMOUS);
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    /** Collects what the engine sends for one request. */
    private static final class Recorder implements MessageSink {
        final List<byte[]> interim = new CopyOnWriteArrayList<>();
        final CompletableFuture<Optional<byte[]>> done = new CompletableFuture<>();
        final CompletableFuture<JsonNode> firstInterim = new CompletableFuture<>();

        @Override
        public void send(byte[] message) {
            interim.add(message);
            firstInterim.complete(Json.MAPPER.readTree(message));
        }

        @Override
        public void complete(byte[] response) {
            done.complete(Optional.ofNullable(response));
        }

        JsonNode response() throws Exception {
            byte[] body = done.get(10, TimeUnit.SECONDS).orElseThrow();
            assertNotNull(body);
            return Json.MAPPER.readTree(body);
        }

        JsonNode awaitInterim() throws Exception {
            return firstInterim.get(10, TimeUnit.SECONDS);
        }
    }
}
