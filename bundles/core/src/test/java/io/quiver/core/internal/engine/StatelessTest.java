package io.quiver.core.internal.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quiver.api.CallerIdentity;
import io.quiver.api.LogLevel;
import io.quiver.api.Outcome;
import io.quiver.api.Tool;
import io.quiver.api.content.ResourceContents;
import io.quiver.api.input.InputNeeded;
import io.quiver.api.input.InputRequest;
import io.quiver.api.input.InputResponse;
import io.quiver.api.transport.Inbound;
import io.quiver.api.transport.MessageSink;
import io.quiver.api.transport.Receipt;
import io.quiver.core.internal.catalog.Catalog;
import io.quiver.core.internal.json.Json;
import io.quiver.core.internal.pipeline.Extensions;
import io.quiver.core.internal.pipeline.ParamHeaders;
import io.quiver.core.internal.pipeline.ToolLimitsRegistry;
import io.quiver.core.internal.settings.EngineSettings;
import io.quiver.core.internal.wiring.EngineAssembly;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** The 2026-07-28 path of the engine: envelope checks, stateless results, multi-round input. */
class StatelessTest {

    private final Extensions extensions = new Extensions();

    private static final String META = "\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
            + "\"io.modelcontextprotocol/clientCapabilities\":{\"elicitation\":{}}";
    private static final CallerIdentity ALICE = new CallerIdentity("alice", "default", Set.of(), true);
    private static final CallerIdentity MALLORY = new CallerIdentity("mallory", "default", Set.of(), true);

    private final Catalog catalog = new Catalog();
    private EngineAssembly assembly;
    private Engine engine = engine(600_000);
    private final AtomicInteger greeted = new AtomicInteger();

    private Engine engine(long stateTtlMs) {
        return assemble(EngineSettings.of(Map.of("toolTimeoutMs", 2_000, "listChangedDebounceMs", 20,
                "listTtlMs", 5_000, "cacheScope", "public",
                "requestStateKeys", List.of("a-signing-key-of-at-least-32-characters"), "requestStateTtlMs", stateTtlMs)), new ToolLimitsRegistry());
    }

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
    void discoverNamesTheRevisionAndCarriesResultTypeServerInfoAndCacheHints() throws Exception {
        JsonNode result = complete(request("server/discover", "{" + META + "}}", ALICE, null)).path("result");
        assertEquals("complete", result.path("resultType").asString());
        assertEquals("[\"2026-07-28\",\"2025-11-25\",\"2025-06-18\",\"2025-03-26\",\"2024-11-05\"]",
                result.path("supportedVersions").toString(), "every revision spoken, newest first: the legacy ones by initialize");
        assertEquals("quiver", result.path("_meta").path("io.modelcontextprotocol/serverInfo").path("name").asString());
        assertEquals(5_000, result.path("ttlMs").asInt());
        assertEquals("public", result.path("cacheScope").asString());
        assertTrue(result.path("capabilities").path("tools").path("listChanged").asBoolean());
    }

    @Test
    void aCapabilityDeclaredAsNullIsAnsweredAsIfAbsent() throws Exception {
        registerGreeter();
        String meta = "\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
                + "\"io.modelcontextprotocol/clientCapabilities\":";
        JsonNode withNulls = complete(request("tools/call", "{\"name\":\"greeter\"," + meta
                + "{\"elicitation\":null,\"sampling\":null}}}", ALICE, null));
        JsonNode without = complete(request("tools/call", "{\"name\":\"greeter\"," + meta + "{}}}", ALICE, null));
        assertTrue(without.has("result") || without.path("error").path("code").asInt() != -32603, without.toString());
        assertEquals(without.toString(), withNulls.toString());
        assertEquals(0, greeted.get());
    }

    @Test
    void envelopeProblemsAreRejectedBeforeAnyHandler() {
        assertEquals(Receipt.Reason.INVALID_META, rejected("server/discover",
                "{\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\"}}", null));
        Receipt unsupported = engine.receive(bytes(message("server/discover",
                "{\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"v999\","
                        + "\"io.modelcontextprotocol/clientCapabilities\":{}}}")), inbound(ALICE, null));
        Receipt.Rejected r = assertInstanceOf(Receipt.Rejected.class, unsupported);
        assertEquals(Receipt.Reason.UNSUPPORTED_VERSION, r.reason());
        JsonNode error = Json.MAPPER.readTree(r.body()).path("error");
        assertEquals(-32022, error.path("code").asInt());
        assertEquals("v999", error.path("data").path("requested").asString());
        assertEquals("[\"2026-07-28\",\"2025-11-25\",\"2025-06-18\",\"2025-03-26\",\"2024-11-05\"]",
                error.path("data").path("supported").toString());
        // a later revision named by the header alone, without _meta: told so, not that _meta is missing
        Receipt.Rejected later = assertInstanceOf(Receipt.Rejected.class, engine.receive(bytes(message("tools/list", "{}")),
                inbound(ALICE, Map.of("mcp-protocol-version", "2099-01-01"))));
        assertEquals(Receipt.Reason.UNSUPPORTED_VERSION, later.reason());
        JsonNode laterError = Json.MAPPER.readTree(later.body()).path("error");
        assertEquals(-32022, laterError.path("code").asInt());
        assertEquals("2099-01-01", laterError.path("data").path("requested").asString());
        // an earlier revision in the header and a _meta version that is no string: the envelope is wrong, not the version
        assertEquals(Receipt.Reason.INVALID_META, assertInstanceOf(Receipt.Rejected.class, engine.receive(bytes(message(
                "tools/list", "{\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":5}}")),
                inbound(ALICE, Map.of("mcp-protocol-version", "2025-06-18")))).reason());
        assertEquals(Receipt.Reason.HEADER_MISMATCH, rejected("tools/list", "{" + META + "}}",
                Map.of("mcp-protocol-version", "2026-07-28", "mcp-method", "prompts/list")));
        assertEquals(Receipt.Reason.HEADER_MISMATCH, rejected("tools/list", "{" + META + "}}",
                Map.of("mcp-protocol-version", "2026-07-28")));
        assertEquals(Receipt.Reason.METHOD_NOT_FOUND, rejected("ping", "{" + META + "}}", null));
        assertEquals(Receipt.Reason.METHOD_NOT_FOUND, rejected("initialize", "{" + META + "}}", null));
        assertEquals(Receipt.Reason.METHOD_NOT_FOUND, rejected("resources/subscribe", "{" + META + "}}", null));
    }

    @Test
    void mcpNameIsCheckedAfterDecoding() {
        register("echo_name", call -> Outcome.text("ok"));
        Map<String, String> headers = new HashMap<>(Map.of("mcp-protocol-version", "2026-07-28",
                "mcp-method", "tools/call", "mcp-name", "=?base64?ZWNob19uYW1l?="));
        String params = "{\"name\":\"echo_name\"," + META + "}}";
        assertInstanceOf(Receipt.Pending.class, engine.receive(bytes(message("tools/call", params)),
                inbound(ALICE, headers)));
        headers.put("mcp-name", "other");
        assertEquals(Receipt.Reason.HEADER_MISMATCH, rejected("tools/call", params, headers));
        headers.put("mcp-name", "=?base64?ZWNob19uYW1l?=!");
        assertEquals(Receipt.Reason.HEADER_MISMATCH, rejected("tools/call", params, headers));
        assertEquals("echo_name", ParamHeaders.decode("  echo_name "));
        assertNull(ParamHeaders.decode("=?base64?SGVsbG8?="), "bad padding");
        assertEquals("=?base64?SGVsbG8=", ParamHeaders.decode("=?base64?SGVsbG8="), "no suffix: literal");
    }

    @Test
    void inputRequiredRoundTripsThroughTheSignedState() throws Exception {
        registerGreeter();
        JsonNode first = complete(request("tools/call", "{\"name\":\"greeter\"," + META + "}}", ALICE, null))
                .path("result");
        assertEquals("input_required", first.path("resultType").asString());
        assertEquals("elicitation/create", first.path("inputRequests").path("who").path("method").asString());
        assertFalse(first.has("ttlMs"), "no cache hints on input_required");
        String state = first.path("requestState").asString();
        JsonNode done = complete(request("tools/call", retry(state), ALICE, null)).path("result");
        assertEquals("complete", done.path("resultType").asString());
        assertEquals("Hello, Ada!", done.path("content").get(0).path("text").asString());
        assertEquals(1, greeted.get());
    }

    @Test
    void tamperedCrossCallerAndExpiredStatesAreRejectedAndTheToolNeverFinishes() throws Exception {
        registerGreeter();
        String state = complete(request("tools/call", "{\"name\":\"greeter\"," + META + "}}", ALICE, null))
                .path("result").path("requestState").asString();
        String tampered = state.substring(0, 5) + (state.charAt(5) == 'A' ? 'B' : 'A') + state.substring(6);
        assertEquals(-32602, complete(request("tools/call", retry(tampered), ALICE, null)).path("error").path("code").asInt());
        assertEquals(-32602, complete(request("tools/call", retry(state + "x"), ALICE, null)).path("error").path("code").asInt());
        assertEquals(-32602, complete(request("tools/call", retry(state), MALLORY, null)).path("error").path("code").asInt());
        assembly.close();
        engine = engine(1);
        String expired = complete(request("tools/call", "{\"name\":\"greeter\"," + META + "}}", ALICE, null))
                .path("result").path("requestState").asString();
        Thread.sleep(20);
        assertEquals(-32602, complete(request("tools/call", retry(expired), ALICE, null)).path("error").path("code").asInt());
        assertEquals(0, greeted.get(), "no rejected state may reach the tool's side effect");
    }

    @Test
    void aStateAnswersTheCallItWasIssuedForAndNoOtherArguments() throws Exception {
        registerGreeter();
        String asked = "{\"name\":\"greeter\",\"arguments\":{\"file\":\"a.txt\",\"n\":[1,{\"x\":1,\"y\":2}]},";
        String state = complete(request("tools/call", asked + META + "}}", ALICE, null)).path("result")
                .path("requestState").asString();
        // the user approved a.txt: the approval is no approval of PROD.db
        JsonNode other = complete(request("tools/call", retry(state).replace("{\"name\":\"greeter\",",
                "{\"name\":\"greeter\",\"arguments\":{\"file\":\"PROD.db\",\"n\":[1,{\"x\":1,\"y\":2}]},"), ALICE, null));
        assertEquals(-32602, other.path("error").path("code").asInt(), other.toString());
        assertEquals(0, greeted.get(), "the answer never reached a call with other arguments");
        // the same arguments, their properties in another order: the same call
        String again = complete(request("tools/call", asked + META + "}}", ALICE, null)).path("result")
                .path("requestState").asString();
        JsonNode same = complete(request("tools/call", retry(again).replace("{\"name\":\"greeter\",",
                "{\"name\":\"greeter\",\"arguments\":{\"n\":[1,{\"y\":2,\"x\":1}],\"file\":\"a.txt\"},"), ALICE, null));
        assertEquals("Hello, Ada!", same.path("result").path("content").get(0).path("text").asString(), same.toString());
    }

    @Test
    void anAcceptedAnswerThatDoesNotFitTheFormIsRefused() throws Exception {
        registerGreeter();
        String state = complete(request("tools/call", "{\"name\":\"greeter\"," + META + "}}", ALICE, null))
                .path("result").path("requestState").asString();
        JsonNode misfit = complete(request("tools/call", retry(state).replace("{\"name\":\"Ada\"}", "{\"name\":42}"),
                ALICE, null)).path("result");
        assertEquals("input_required", misfit.path("resultType").asString(), "asked again: " + misfit);
        assertEquals(0, greeted.get(), "the tool never got a number where it asked for a string");
        JsonNode done = complete(request("tools/call", retry(misfit.path("requestState").asString()), ALICE, null));
        assertEquals("Hello, Ada!", done.path("result").path("content").get(0).path("text").asString(), done.toString());
    }

    @Test
    void aRequestStateIsGoodForOneRetryOnly() throws Exception {
        registerGreeter();
        String state = complete(request("tools/call", "{\"name\":\"greeter\"," + META + "}}", ALICE, null))
                .path("result").path("requestState").asString();
        assertEquals("complete", complete(request("tools/call", retry(state), ALICE, null)).path("result")
                .path("resultType").asString());
        JsonNode replay = complete(request("tools/call", retry(state), ALICE, null));
        assertEquals(-32602, replay.path("error").path("code").asInt());
        assertEquals("Invalid params: requestState integrity check failed",
                replay.path("error").path("message").asString(), "a replay is refused like a tampered state");
        assertEquals(1, greeted.get(), "the replay never reached the tool's side effect");
    }

    @Test
    void answersTheServerDidNotAskForAreIgnored() throws Exception {
        registerGreeter();
        String unasked = "{\"name\":\"greeter\",\"inputResponses\":{\"who\":"
                + "{\"action\":\"accept\",\"content\":{\"name\":\"Eve\"}}}," + META + "}}";
        JsonNode first = complete(request("tools/call", unasked, ALICE, null)).path("result");
        assertEquals("input_required", first.path("resultType").asString(),
                "an answer sent before the server asked does not count");
        assertEquals(0, greeted.get());
        JsonNode done = complete(request("tools/call", retry(first.path("requestState").asString()), ALICE, null));
        assertEquals("Hello, Ada!", done.path("result").path("content").get(0).path("text").asString());
    }

    @Test
    void inputTheClientDidNotDeclareIsAMissingCapability() throws Exception {
        register("needs_sampling", call -> Outcome.needsInput(new InputRequest.Sampling("s", List.of(), 10, null)));
        Recorder r = request("tools/call", "{\"name\":\"needs_sampling\"," + META + "}}", ALICE, null);
        r.done.get(5, TimeUnit.SECONDS);
        assertEquals(Receipt.Reason.MISSING_CAPABILITY, r.failure);
        JsonNode error = Json.MAPPER.readTree(r.body).path("error");
        assertEquals(-32021, error.path("code").asInt());
        assertTrue(error.path("data").path("requiredCapabilities").path("sampling").isObject());
    }

    @Test
    void logMessagesOnlyWhenTheRequestAskedForALevel() throws Exception {
        register("chatty", call -> {
            call.context().log(LogLevel.INFO, "t", "hello");
            return Outcome.text("done");
        });
        Recorder quiet = request("tools/call", "{\"name\":\"chatty\"," + META + "}}", ALICE, null);
        complete(quiet);
        assertTrue(quiet.interim.isEmpty());
        Recorder loud = request("tools/call", "{\"name\":\"chatty\"," + META
                + ",\"io.modelcontextprotocol/logLevel\":\"debug\"}}", ALICE, null);
        complete(loud);
        assertEquals(1, loud.interim.size());
    }

    @Test
    void taskToolsRunAsTasksForDeclaringClientsOnlyAndBelongToTheirCaller() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        jobTool(release, new AtomicInteger());
        String tasksMeta = "\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
                + "\"io.modelcontextprotocol/clientCapabilities\":{\"extensions\":{\"io.modelcontextprotocol/tasks\":{}}}}";
        Recorder refused = request("tools/call", "{\"name\":\"job\"," + META + "}}", ALICE, null);
        refused.done.get(5, TimeUnit.SECONDS);
        assertEquals(Receipt.Reason.MISSING_CAPABILITY, refused.failure, "a required task tool needs the extension");

        JsonNode created = complete(request("tools/call", "{\"name\":\"job\"," + tasksMeta + "}", ALICE, null))
                .path("result");
        assertEquals("task", created.path("resultType").asString());
        String id = created.path("taskId").asString();
        String get = "{\"taskId\":\"" + id + "\"," + tasksMeta + "}";
        assertEquals("working", complete(request("tasks/get", get, ALICE, null)).path("result").path("status").asString());
        assertEquals(-32602, complete(request("tasks/get", get, MALLORY, null)).path("error").path("code").asInt(),
                "another caller cannot see the task");
        release.countDown();
        JsonNode done = null;
        for (int i = 0; i < 100; i++) {
            done = complete(request("tasks/get", get, ALICE, null)).path("result");
            if ("completed".equals(done.path("status").asString())) {
                break;
            }
            Thread.sleep(20);
        }
        assertEquals("job done", done.path("result").path("content").get(0).path("text").asString(), done.toString());
        assertEquals("complete", complete(request("tasks/cancel", get, ALICE, null)).path("result").path("resultType")
                .asString(), "cancelling a finished task is acknowledged");
    }

    @Test
    void aSubjectsUnfinishedTasksAreBoundedAndAnotherSubjectsAreNot() throws Exception {
        assembly.close();
        engine = assemble(EngineSettings.of(Map.of("maxTasksPerSubject", 2)), new ToolLimitsRegistry());
        CountDownLatch release = new CountDownLatch(1);
        AtomicInteger started = new AtomicInteger();
        jobTool(release, started);
        String call = "{\"name\":\"job\",\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
                + "\"io.modelcontextprotocol/clientCapabilities\":{\"extensions\":{\"io.modelcontextprotocol/tasks\":{}}}}}";
        List<String> ids = new java.util.ArrayList<>();
        for (int i = 0; i < 2; i++) {
            JsonNode created = complete(request("tools/call", call, ALICE, null)).path("result");
            assertEquals("task", created.path("resultType").asString(), created.toString());
            ids.add(created.path("taskId").asString());
        }
        JsonNode third = complete(request("tools/call", call, ALICE, null));
        assertEquals(-32000, third.path("error").path("code").asInt(), third.toString());
        assertTrue(third.path("error").path("message").asString().contains("maxTasksPerSubject"), third.toString());
        JsonNode others = complete(request("tools/call", call, MALLORY, null)).path("result");
        assertEquals("task", others.path("resultType").asString(), "another subject has its own room: " + others);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (started.get() < 3 && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertEquals(3, started.get(), "the refused task never ran");
        Thread.sleep(50);
        assertEquals(3, started.get(), "nor later");

        for (int i = 0; i < 3; i++) {
            assertEquals("task", complete(request("tools/call", call, CallerIdentity.ANONYMOUS, null)).path("result")
                    .path("resultType").asString(), "the unauthenticated local callers are not one subject's bucket");
        }

        String get = "{\"taskId\":\"" + ids.get(0) + "\"," + call.substring(call.indexOf("\"_meta\""));
        complete(request("tasks/cancel", get, ALICE, null));
        JsonNode again = complete(request("tools/call", call, ALICE, null)).path("result");
        assertEquals("task", again.path("resultType").asString(), "a cancelled task frees its room: " + again);
        release.countDown();
    }

    /** A tool {@code job} that runs only as a task and ends with "job done" once released; each run counted. */
    private void jobTool(CountDownLatch release, AtomicInteger started) {
        Map<String, Object> props = new HashMap<>();
        props.put("mcp.tool.name", "job");
        props.put("mcp.tool.description", "a job");
        props.put("mcp.tool.taskSupport", "required");
        props.put("service.id", (long) ++serviceId);
        catalog.bindTool(call -> {
            started.incrementAndGet();
            release.await(10, TimeUnit.SECONDS);
            return Outcome.text("job done");
        }, props);
    }

    @Test
    void resourceReadsMayAskForInputToo() throws Exception {
        Map<String, Object> props = new HashMap<>();
        props.put("mcp.resource.uri", "secret://note");
        props.put("mcp.resource.name", "note");
        props.put("service.id", (long) ++serviceId);
        catalog.bindResource(request -> {
            if (request.answers().get("pin") instanceof InputResponse.Elicited e && e.accepted()) {
                return List.of(new ResourceContents.Text(request.uri(), "text/plain",
                        "opened with " + e.content().get("pin")));
            }
            throw new InputNeeded(new InputRequest.Elicitation("pin", "PIN?",
                    Map.of("type", "object", "properties", Map.of("pin", Map.of("type", "string")))));
        }, props);
        JsonNode first = complete(request("resources/read", "{\"uri\":\"secret://note\"," + META + "}}", ALICE, null))
                .path("result");
        assertEquals("input_required", first.path("resultType").asString());
        String retry = "{\"uri\":\"secret://note\",\"requestState\":\"" + first.path("requestState").asString()
                + "\",\"inputResponses\":{\"pin\":{\"action\":\"accept\",\"content\":{\"pin\":\"1234\"}}}," + META + "}}";
        JsonNode read = complete(request("resources/read", retry, ALICE, null)).path("result");
        assertEquals("opened with 1234", read.path("contents").get(0).path("text").asString(), read.toString());
        assertEquals("complete", read.path("resultType").asString());
    }

    // -------------------------------------------------------------------------------------------

    @Test
    void aToolThatEscalatesAfterItsQuestionsAnswersWithAWorkingTaskWhileItStillRuns() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        Map<String, Object> props = new HashMap<>();
        props.put("mcp.tool.name", "deploy");
        props.put("mcp.tool.description", "asks where, then deploys");
        props.put("mcp.tool.taskSupport", "optional");
        props.put("mcp.tool.inputBeforeTask", true);
        props.put("service.id", (long) ++serviceId);
        catalog.bindTool(call -> {
            Optional<InputResponse> where = call.answer("where");
            if (where.isEmpty()) {
                return Outcome.needsInput(new InputRequest.Elicitation("where", "Where to?",
                        Map.of("type", "object", "properties", Map.of("env", Map.of("type", "string")))));
            }
            if (!call.escalated()) {
                return Outcome.escalate();
            }
            release.await(10, TimeUnit.SECONDS);
            return Outcome.text("deployed to " + ((InputResponse.Elicited) where.get()).content().get("env"));
        }, props);
        String tasksMeta = "\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
                + "\"io.modelcontextprotocol/clientCapabilities\":{\"elicitation\":{},"
                + "\"extensions\":{\"io.modelcontextprotocol/tasks\":{}}}}";
        JsonNode asked = complete(request("tools/call", "{\"name\":\"deploy\"," + tasksMeta + "}", ALICE, null))
                .path("result");
        assertEquals("input_required", asked.path("resultType").asString(), asked.toString());
        JsonNode created = complete(request("tools/call", "{\"name\":\"deploy\",\"requestState\":\""
                + asked.path("requestState").asString() + "\",\"inputResponses\":{\"where\":{\"action\":\"accept\","
                + "\"content\":{\"env\":\"staging\"}}}," + tasksMeta + "}", ALICE, null)).path("result");
        assertEquals("task", created.path("resultType").asString(), created.toString());
        String get = "{\"taskId\":\"" + created.path("taskId").asString() + "\"," + tasksMeta + "}";
        assertEquals("working", complete(request("tasks/get", get, ALICE, null)).path("result").path("status")
                .asString(), "the call answered while the long work still runs");
        release.countDown();
        JsonNode done = null;
        for (int i = 0; i < 200 && (done == null || !"completed".equals(done.path("status").asString())); i++) {
            Thread.sleep(20);
            done = complete(request("tasks/get", get, ALICE, null)).path("result");
        }
        assertEquals("deployed to staging", done.path("result").path("content").get(0).path("text").asString(),
                done.toString());
    }

    /**
     * maxInputRounds bounds a request across its retries (each runs a fresh loop; the sealed state counts the rounds):
     * a tool that asks something new at every round ends with an error after ten (the default) instead of asking
     * forever, its state growing with every answer.
     */
    @Test
    void aRequestAsksForInputAtMostMaxInputRoundsTimesAcrossItsRetries() throws Exception {
        AtomicInteger asked = new AtomicInteger();
        register("curious", call -> Outcome.needsInput(new InputRequest.Elicitation("q" + asked.incrementAndGet(),
                "And?", Map.of("type", "object"))));
        JsonNode result = complete(request("tools/call", "{\"name\":\"curious\"," + META + "}}", ALICE, null));
        int rounds = 1;
        while (result.path("result").path("resultType").asString("").equals("input_required") && rounds < 50) {
            JsonNode parked = result.path("result");
            String key = parked.path("inputRequests").properties().iterator().next().getKey();
            result = complete(request("tools/call", "{\"name\":\"curious\",\"requestState\":\""
                    + parked.path("requestState").asString() + "\",\"inputResponses\":{\"" + key
                    + "\":{\"action\":\"accept\",\"content\":{}}}," + META + "}}", ALICE, null));
            rounds++;
        }
        assertEquals(11, rounds, "ten rounds of input, then the end: " + result);
        assertEquals("Input was requested more than 10 times", result.path("error").path("message").asString(),
                result.toString());
    }

    private void registerGreeter() {
        register("greeter", call -> {
            Optional<InputResponse> answer = call.answer("who");
            if (answer.isPresent() && answer.get() instanceof InputResponse.Elicited e && e.accepted()) {
                greeted.incrementAndGet();
                return Outcome.text("Hello, " + e.content().get("name") + "!");
            }
            return Outcome.needsInput(new InputRequest.Elicitation("who", "Name?",
                    Map.of("type", "object", "properties", Map.of("name", Map.of("type", "string")))));
        });
    }

    private static String retry(String state) {
        return "{\"name\":\"greeter\",\"requestState\":\"" + state + "\",\"inputResponses\":{\"who\":"
                + "{\"action\":\"accept\",\"content\":{\"name\":\"Ada\"}}}," + META + "}}";
    }

    private int serviceId = 1000;

    private void register(String name, Tool tool) {
        Map<String, Object> props = new HashMap<>();
        props.put("mcp.tool.name", name);
        props.put("mcp.tool.description", "test " + name);
        props.put("service.id", (long) ++serviceId);
        catalog.bindTool(tool, props);
    }

    private Receipt.Reason rejected(String method, String params, Map<String, String> headers) {
        Receipt receipt = engine.receive(bytes(message(method, params)), inbound(ALICE, headers));
        return assertInstanceOf(Receipt.Rejected.class, receipt).reason();
    }

    private static String message(String method, String params) {
        return "{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"" + method + "\",\"params\":" + params + "}";
    }

    private Recorder request(String method, String params, CallerIdentity caller, Map<String, String> headers) {
        Receipt receipt = engine.receive(bytes(message(method, params)), inbound(caller, headers));
        Receipt.Pending pending = assertInstanceOf(Receipt.Pending.class, receipt, receipt.toString());
        assertNull(pending.session(), "stateless requests have no session");
        Recorder recorder = new Recorder();
        pending.exchange().start(recorder);
        return recorder;
    }

    private static JsonNode complete(Recorder recorder) throws Exception {
        recorder.done.get(10, TimeUnit.SECONDS);
        return Json.MAPPER.readTree(recorder.body);
    }

    private static Inbound inbound(CallerIdentity caller, Map<String, String> headers) {
        return new Inbound(null, headers == null ? null : headers.get("mcp-protocol-version"), caller, headers);
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static final class Recorder implements MessageSink {
        final List<byte[]> interim = new CopyOnWriteArrayList<>();
        final CompletableFuture<Void> done = new CompletableFuture<>();
        volatile byte[] body;
        volatile Receipt.Reason failure;

        @Override
        public void send(byte[] message) {
            interim.add(message);
        }

        @Override
        public void complete(byte[] response) {
            body = response;
            done.complete(null);
        }

        @Override
        public void fail(Receipt.Reason reason, byte[] response) {
            failure = reason;
            complete(response);
        }
    }
}
