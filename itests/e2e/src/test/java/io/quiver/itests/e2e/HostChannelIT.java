package io.quiver.itests.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.spec.McpSchema;
import io.quiver.itests.client.McpClient;
import io.quiver.launcher.Host;
import io.quiver.launcher.HostRequest;
import io.quiver.launcher.HostRequest.Ending;
import io.quiver.launcher.HostRequest.Kind;
import io.quiver.launcher.HostRequest.Status;
import io.quiver.launcher.HostTool;
import io.quiver.launcher.Quiver;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * An application embeds Quiver with a private host channel, and every caller goes through it: the
 * official Java SDK client and the host's own MCP client, on one container. The host admits, edits,
 * denies, releases, answers questions, reviews and records; its replies are correlated by request id
 * (stale, duplicate and misfit replies refused); it stops single calls, a caller's calls, or shuts down;
 * a host that stops answering times the calls out while the engine serves everything else. Every "did
 * not run" is proven by the tool's own counter, every "ran once" by the same counter staying at one.
 */
class HostChannelIT {

    private static final Duration WAIT = Duration.ofSeconds(20);
    private static final String COUNT_SCHEMA = "{\"type\":\"object\",\"properties\":{\"n\":{\"type\":\"integer\"}},"
            + "\"required\":[\"n\"],\"additionalProperties\":false}";
    /** The count tool's own {@code _meta}: a result-size hint, as a host would give its tool. */
    private static final Map<String, Object> COUNT_META = Map.of("anthropic/maxResultSizeChars", 500);
    private static final String PIN_FORM = "{\"type\":\"object\",\"properties\":{\"pin\":{\"type\":\"string\","
            + "\"minLength\":4}},\"required\":[\"pin\"]}";

    @TempDir
    static Path home;

    private static TestHost host;
    private static Quiver quiver;
    private static McpSyncClient sdk;
    private static final List<Map<String, Object>> counted = new CopyOnWriteArrayList<>();
    private static final AtomicInteger pinAttempts = new AtomicInteger();
    private static final AtomicInteger slowRuns = new AtomicInteger();
    private static final AtomicInteger slowFinished = new AtomicInteger();
    private static final AtomicInteger slowInterrupted = new AtomicInteger();
    private static volatile CountDownLatch slowEntered = new CountDownLatch(1);
    private static volatile CountDownLatch slowGo = new CountDownLatch(1);

    /** The test's host: requests the test decides land in a queue, the rest are answered by rules. */
    static final class TestHost implements Host {
        final BlockingQueue<HostRequest> queue = new LinkedBlockingQueue<>();
        final List<HostRequest> all = new CopyOnWriteArrayList<>();
        final Map<Kind, Consumer<HostRequest>> rules = new ConcurrentHashMap<>();

        TestHost() {
            reset();
        }

        /** ADMIT and INPUT wait for the test; RELEASE, REVIEW and RECORD are answered at once; OVER is noted. */
        void reset() {
            queue.clear();
            all.clear();
            rules.clear();
            rules.put(Kind.RELEASE, HostRequest::release);
            rules.put(Kind.REVIEW, HostRequest::deliver);
            rules.put(Kind.RECORD, HostRequest::recorded);
            rules.put(Kind.OVER, r -> { });
        }

        @Override
        public void handle(HostRequest request) {
            all.add(request);
            Consumer<HostRequest> rule = rules.get(request.kind());
            if (rule != null) {
                rule.accept(request);
            } else {
                queue.add(request);
            }
        }

        HostRequest next(Kind kind) throws InterruptedException {
            HostRequest request = queue.poll(WAIT.toSeconds(), TimeUnit.SECONDS);
            assertTrue(request != null, "no " + kind + " request came");
            assertEquals(kind, request.kind(), request.asMap().toString());
            return request;
        }

        List<HostRequest> of(Kind kind, String invocationId) {
            return all.stream().filter(r -> r.kind() == kind && r.invocationId().equals(invocationId)).toList();
        }
    }

    @BeforeAll
    static void start() throws Exception {
        host = new TestHost();
        Files.createDirectories(home.resolve("etc"));
        Files.writeString(home.resolve("etc/io.quiver.audit.cfg"), "file = " + home.resolve("audit.jsonl") + "\n");
        quiver = container(home, host).start();
        sdk = sdk(quiver);
    }

    @AfterAll
    static void stop() {
        if (sdk != null) {
            sdk.closeGracefully();
        }
        if (quiver != null) {
            quiver.stop();
        }
    }

    @BeforeEach
    void clean() {
        host.reset();
        counted.clear();
    }

    /**
     * A container with the host and four host tools: count (a counter), ask_pin (asks a secret), jam (reports an
     * error), slow (waits).
     */
    static Quiver.Builder container(Path dir, Host channel) {
        return Quiver.builder().features("core", "http").etc(dir.resolve("etc")).deploy(dir.resolve("deploy"))
                .data(dir.resolve("data")).host(channel)
                .tool("count", "Counts a call", COUNT_SCHEMA, COUNT_META, arguments -> {
                    counted.add(arguments);
                    return "ran " + arguments.get("n");
                })
                .tool("ask_pin", "Asks for a PIN", null, new HostTool() {
                    @Override
                    public String call(Map<String, Object> arguments) {
                        throw new IllegalStateException("called with answers");
                    }

                    @Override
                    public String call(Map<String, Object> arguments, Map<String, Map<String, Object>> answers)
                            throws Exception {
                        pinAttempts.incrementAndGet();
                        Map<String, Object> pin = answers.get("pin");
                        if (pin == null) {
                            throw new HostTool.Question("pin", "Your PIN, please", PIN_FORM, true);
                        }
                        @SuppressWarnings("unchecked")
                        Map<String, Object> content = (Map<String, Object>) pin.get("content");
                        return "pin " + pin.get("action") + " " + sha((String) content.get("pin"));
                    }
                })
                .tool("jam", "Reports an error", null, arguments -> {
                    throw new HostTool.Failure("out of paper");
                })
                .tool("slow", "Waits for the test", null, arguments -> {
                    slowRuns.incrementAndGet();
                    slowEntered.countDown();
                    try {
                        if (!slowGo.await(30, TimeUnit.SECONDS)) {
                            throw new HostTool.Failure("never let go");
                        }
                    } catch (InterruptedException e) {
                        slowInterrupted.incrementAndGet();
                        throw e;
                    }
                    slowFinished.incrementAndGet();
                    return "slow done";
                });
    }

    @Test
    void bothCallersGoThroughTheSameHostWhichApprovesDeniesAndEdits() throws Exception {
        try (McpClient own = McpClient.connect(quiver.url().toString(), "host-agent", WAIT)) {
            // the SDK client's call and the host's own client's call, both admitted by the host
            CompletableFuture<McpSchema.CallToolResult> external = sdkCall("count", Map.of("n", 1));
            HostRequest first = host.next(Kind.ADMIT);
            assertEquals("count", first.tool());
            assertEquals(Map.of("n", 1), first.arguments());
            assertEquals(COUNT_META, first.toolMeta(), "the tool's result-size hint reaches the host");
            McpSchema.Tool listed = sdk.listTools().tools().stream().filter(t -> t.name().equals("count")).findFirst()
                    .orElseThrow();
            assertEquals(COUNT_META, listed.meta(), "and is listed with the tool");
            assertEquals(Status.ACCEPTED, first.approve().status());
            assertEquals("ran 1", text(external.get(20, TimeUnit.SECONDS)));

            ObjectNode params = own.toolCall("count", Map.of("n", 2), null);
            params.putObject("_meta").put("claudecode/toolUseId", "toolu_02");
            CompletableFuture<JsonNode> mine = CompletableFuture.supplyAsync(() -> request(own, params));
            HostRequest second = host.next(Kind.ADMIT);
            assertEquals("host-agent", second.client().get("name"));
            assertNotEquals(first.client().get("name"), second.client().get("name"), "two different clients");
            assertEquals(Map.of("claudecode/toolUseId", "toolu_02"), second.correlation(), "carried for the host");
            assertNotEquals(first.invocationId(), second.invocationId());
            second.approve();
            assertEquals("ran 2", text(mine.get(20, TimeUnit.SECONDS)));
            assertEquals(List.of(Map.of("n", 1), Map.of("n", 2)), counted);
            assertEquals(1, host.of(Kind.RECORD, first.invocationId()).size(), "recorded once");
            assertEquals("ran 1", host.of(Kind.RECORD, first.invocationId()).get(0).resultText());
            assertEnded(first.invocationId(), Ending.COMPLETED, null);

            // denied: the caller reads the host's reason, the tool never ran; the host hears how the call ended
            CompletableFuture<McpSchema.CallToolResult> denied = sdkCall("count", Map.of("n", 3));
            HostRequest denying = host.next(Kind.ADMIT);
            denying.deny("not today");
            McpSchema.CallToolResult refusal = denied.get(20, TimeUnit.SECONDS);
            assertTrue(Boolean.TRUE.equals(refusal.isError()));
            assertTrue(text(refusal).contains("not today"), text(refusal));
            assertEquals(2, counted.size(), "a denied call never runs");
            assertEnded(denying.invocationId(), Ending.DENIED, "not today");
            assertEquals(List.of(), host.of(Kind.RECORD, denying.invocationId()), "nothing delivered, nothing recorded");

            // edited: the tool runs with the edit, the host's record shows requested and edited
            CompletableFuture<McpSchema.CallToolResult> edited = sdkCall("count", Map.of("n", 4));
            HostRequest editing = host.next(Kind.ADMIT);
            editing.approve(Map.of("n", 40));
            assertEquals("ran 40", text(edited.get(20, TimeUnit.SECONDS)));
            HostRequest record = host.of(Kind.RECORD, editing.invocationId()).get(0);
            assertEquals(Map.of("n", 4), record.requestedArguments());
            assertEquals(Map.of("n", 40), record.arguments());
            assertTrue(record.edited());

            // an invalid edit is refused and nothing runs
            CompletableFuture<McpSchema.CallToolResult> badEdit = sdkCall("count", Map.of("n", 5));
            HostRequest badEditing = host.next(Kind.ADMIT);
            badEditing.approve(Map.of("n", "forty"));
            McpSchema.CallToolResult invalid = badEdit.get(20, TimeUnit.SECONDS);
            assertTrue(Boolean.TRUE.equals(invalid.isError()));
            assertTrue(text(invalid).contains("edited arguments"), text(invalid));
            assertEquals(Ending.INVALID, awaitOver(badEditing.invocationId()).ending());

            // malformed arguments from the caller never reach the host, nor the tool
            McpSchema.CallToolResult malformed = sdkCall("count", Map.of("n", "x")).get(20, TimeUnit.SECONDS);
            assertTrue(Boolean.TRUE.equals(malformed.isError()));
            assertNull(host.queue.poll(), "the host was not asked about invalid arguments");
            assertEquals(List.of(Map.of("n", 1), Map.of("n", 2), Map.of("n", 40)), counted);
        }
    }

    @Test
    void theHostReplacesAResultAndItsRecordKeepsWhatTheToolGaveBesideWhatWasDelivered() throws Exception {
        host.rules.put(Kind.ADMIT, HostRequest::approve);
        host.rules.put(Kind.REVIEW, r -> r.replaceText("redacted by the host"));
        McpSchema.CallToolResult delivered = sdkCall("count", Map.of("n", 6)).get(20, TimeUnit.SECONDS);
        assertFalse(Boolean.TRUE.equals(delivered.isError()));
        assertEquals("redacted by the host", text(delivered));
        assertEquals(List.of(Map.of("n", 6)), counted, "the tool ran once");
        HostRequest review = host.all.stream().filter(r -> r.kind() == Kind.REVIEW).findFirst().orElseThrow();
        assertEquals("ran 6", review.resultText(), "the host reviews what the tool gave");
        HostRequest record = host.of(Kind.RECORD, review.invocationId()).get(0);
        assertEquals("redacted by the host", record.resultText(), "recorded as delivered");
        List<?> raw = (List<?>) record.rawResult().get("content");
        assertEquals("ran 6", ((Map<?, ?>) raw.get(0)).get("text"), "beside what the tool gave");

        // a whole result of the host's own, an error
        host.rules.put(Kind.REVIEW, r -> r.replace(Map.of("content", List.of(Map.of("type", "text",
                "text", "withheld: it names a customer")), "isError", true)));
        McpSchema.CallToolResult withheld = sdkCall("count", Map.of("n", 7)).get(20, TimeUnit.SECONDS);
        assertTrue(Boolean.TRUE.equals(withheld.isError()), withheld.toString());
        assertEquals("withheld: it names a customer", text(withheld));
        assertEquals(List.of(Map.of("n", 6), Map.of("n", 7)), counted);
    }

    @Test
    void staleDuplicateAndMisfitRepliesAreRefused() throws Exception {
        CompletableFuture<McpSchema.CallToolResult> call = sdkCall("count", Map.of("n", 6));
        HostRequest admit = host.next(Kind.ADMIT);
        HostRequest.Reply wrongKind = admit.deliver();
        assertEquals(Status.INVALID, wrongKind.status());
        assertTrue(wrongKind.problem().contains("approve"), wrongKind.problem());
        assertEquals(Status.ACCEPTED, admit.approve().status(), "a misfit reply leaves the request open");
        assertEquals(Status.DUPLICATE, admit.approve().status());
        assertEquals(Status.DUPLICATE, admit.deny("changed my mind").status());
        assertEquals("ran 6", text(call.get(20, TimeUnit.SECONDS)));
        awaitOver(admit.invocationId());
        HostRequest release = host.of(Kind.RELEASE, admit.invocationId()).get(0);
        assertEquals(Status.DUPLICATE, release.release().status(), "answered by the rule already");
        assertEquals(1, counted.size(), "one call, one run, whatever was replied after");
    }

    @Test
    void theHostStopsACallWhosePromptIsOpenAndItNeverRuns() throws Exception {
        CompletableFuture<McpSchema.CallToolResult> call = sdkCall("count", Map.of("n", 7));
        HostRequest admit = host.next(Kind.ADMIT);
        assertEquals(Status.ACCEPTED, quiver.stopCall(admit.invocationId(), "the prompt was closed").status());
        McpSchema.CallToolResult stopped = call.get(20, TimeUnit.SECONDS);
        assertTrue(Boolean.TRUE.equals(stopped.isError()));
        assertTrue(text(stopped).contains("the prompt was closed"), text(stopped));
        assertEnded(admit.invocationId(), Ending.CANCELLED, "the prompt was closed");
        assertEquals(Status.STALE, admit.approve().status(), "the call is over: a late approval is stale");
        assertEquals(Status.STALE, quiver.stopCall(admit.invocationId(), "again").status());
        assertEquals(Status.UNKNOWN, quiver.stopCall("no-such-call", "x").status());

        // every call of one caller
        CompletableFuture<McpSchema.CallToolResult> a = sdkCall("count", Map.of("n", 8));
        CompletableFuture<McpSchema.CallToolResult> b = sdkCall("count", Map.of("n", 9));
        host.next(Kind.ADMIT);
        host.next(Kind.ADMIT);
        assertEquals(2, quiver.stopCalls("anonymous", "the user left"));
        assertTrue(text(a.get(20, TimeUnit.SECONDS)).contains("the user left"));
        assertTrue(text(b.get(20, TimeUnit.SECONDS)).contains("the user left"));
        assertEquals(List.of(), counted, "no stopped call ran");
    }

    @Test
    void anInquiryRunsTheToolAgainWithTheAnswerAndTheSecretGoesNowhereElse() throws Exception {
        String secret = "pin-" + HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                .digest(String.valueOf(System.nanoTime()).getBytes(StandardCharsets.UTF_8))).substring(0, 12);
        PrintStream original = System.err;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setErr(new PrintStream(new TeeStream(original, captured), true, StandardCharsets.UTF_8));
        int before = pinAttempts.get();
        try (McpClient own = McpClient.connect(quiver.url().toString(), "host-agent", WAIT)) {
            McpClient.Call call = own.send("tools/call", own.toolCall("ask_pin", Map.of(), "progress-1"));
            host.next(Kind.ADMIT).approve();
            HostRequest question = host.next(Kind.INPUT);
            assertEquals("pin", question.key());
            assertTrue(question.sensitive(), "the tool marked the answer secret");
            assertFalse(question.again());
            assertEquals(Status.ACCEPTED, question.answer(Map.of("pin", "12")).status(), "taken, then checked");
            HostRequest again = host.next(Kind.INPUT);
            assertTrue(again.again(), "a misfit answer is asked for again");
            assertEquals(Status.ACCEPTED, again.answer(Map.of("pin", secret)).status());
            JsonNode response = call.response(WAIT);
            assertEquals("pin accept " + sha(secret), response.path("result").path("content").get(0).path("text").asString());
            assertEquals(before + 2, pinAttempts.get(), "two executions: one asked, one answered; no resumption");

            String invocation = again.invocationId();
            awaitOver(invocation);
            for (JsonNode message : call.stream().history()) {
                assertFalse(message.toString().contains(secret), "in a message to the client: " + message);
            }
            Path audit = home.resolve("audit.jsonl");
            long deadline = System.nanoTime() + WAIT.toNanos();
            while (!(Files.exists(audit) && Files.readString(audit).contains(invocation))) {
                assertTrue(System.nanoTime() < deadline, "the call's audit line never came");
                Thread.sleep(20);
            }
            assertFalse(Files.readString(audit).contains(secret), "the secret is in the audit trail");
        } finally {
            System.setErr(original);
        }
        assertFalse(captured.toString(StandardCharsets.UTF_8).contains(secret), "the secret is in the log");
    }

    @Test
    void simultaneousIdenticalCallsAreKeptApart() throws Exception {
        CompletableFuture<McpSchema.CallToolResult> one = sdkCall("ask_pin", Map.of());
        CompletableFuture<McpSchema.CallToolResult> two = sdkCall("ask_pin", Map.of());
        HostRequest a = host.next(Kind.ADMIT);
        HostRequest b = host.next(Kind.ADMIT);
        assertNotEquals(a.invocationId(), b.invocationId(), "identical calls, two invocations");
        assertEquals(a.arguments(), b.arguments());
        a.approve();
        b.approve();
        HostRequest qa = host.next(Kind.INPUT);
        HostRequest qb = host.next(Kind.INPUT);
        qa.answer(Map.of("pin", "answer-for-" + qa.invocationId()));
        qb.answer(Map.of("pin", "answer-for-" + qb.invocationId()));
        String ra = text(one.get(20, TimeUnit.SECONDS));
        String rb = text(two.get(20, TimeUnit.SECONDS));
        List<String> expected = List.of("pin accept " + sha("answer-for-" + qa.invocationId()),
                "pin accept " + sha("answer-for-" + qb.invocationId()));
        assertTrue(expected.contains(ra) && expected.contains(rb) && !ra.equals(rb), ra + " / " + rb);
        assertEquals(sha("answer-for-" + qa.invocationId()),
                host.of(Kind.RECORD, qa.invocationId()).get(0).resultText().substring("pin accept ".length()),
                "each call's own answer reached its own execution");
    }

    @Test
    void aBundlePosingAsTheBridgeNeverGetsTheHostsReplies() throws Exception {
        // before, the host's replies went to whichever service carried the bridge's property: a bundle in deploy/
        // read what the host's user typed and could turn a denial into an approval
        Path intercepted = home.resolve("intercepted.log");
        System.setProperty(InterceptingActivator.LOG, intercepted.toString());
        Path jar = home.resolve("deploy/interceptor.jar");
        Files.createDirectories(jar.getParent());
        Path built = ToolBundles.activatorJar(home.resolve("interceptor.jar"), "io.quiver.itests.interceptor",
                InterceptingActivator.class);
        Files.move(built, jar);
        try {
            Await.until(() -> Files.exists(intercepted), Duration.ofSeconds(30), () -> "the interceptor did not start");
            for (int n = 20; n < 25; n++) {
                CompletableFuture<McpSchema.CallToolResult> denied = sdkCall("count", Map.of("n", n));
                assertEquals(Status.ACCEPTED, host.next(Kind.ADMIT).deny("not this one").status());
                McpSchema.CallToolResult result = denied.get(20, TimeUnit.SECONDS);
                assertTrue(Boolean.TRUE.equals(result.isError()) && text(result).contains("not this one"), text(result));
            }
            assertEquals(List.of(), counted, "no denied call ran");
            assertEquals("", Files.readString(intercepted), "the posing bundle got none of the host's replies");
        } finally {
            Files.delete(jar);
            System.clearProperty(InterceptingActivator.LOG);
        }
    }

    @Test
    void aFailedRecordingFailsTheDeliveryAndNothingRunsTwice() throws Exception {
        host.rules.put(Kind.RECORD, r -> r.recordingFailed("the disk is full"));
        CompletableFuture<McpSchema.CallToolResult> call = sdkCall("count", Map.of("n", 10));
        host.next(Kind.ADMIT).approve();
        McpSchema.CallToolResult failed = call.get(20, TimeUnit.SECONDS);
        assertTrue(Boolean.TRUE.equals(failed.isError()));
        assertTrue(text(failed).contains("not delivered") && text(failed).contains("the disk is full"), text(failed));
        assertFalse(text(failed).contains("ran 10"), "the unrecorded result is not delivered");
        assertEquals(List.of(Map.of("n", 10)), counted, "it ran once and was not run again");
        HostRequest record = host.all.stream().filter(r -> r.kind() == Kind.RECORD).findFirst().orElseThrow();
        assertEnded(record.invocationId(), Ending.FAILED, "the disk is full");
    }

    /** An error the tool reports is a result like any other: reviewed, recorded as delivered; the call completed. */
    @Test
    void anErrorTheToolReportsIsRecordedAsDelivered() throws Exception {
        host.rules.put(Kind.ADMIT, HostRequest::approve);
        McpSchema.CallToolResult failed = sdkCall("jam", Map.of()).get(20, TimeUnit.SECONDS);
        assertTrue(Boolean.TRUE.equals(failed.isError()), failed.toString());
        assertEquals("out of paper", text(failed));
        HostRequest record = host.all.stream().filter(r -> r.kind() == Kind.RECORD).findFirst().orElseThrow();
        assertEquals(Boolean.TRUE, record.result().get("isError"), record.asMap().toString());
        assertEquals("out of paper", record.resultText());
        assertEnded(record.invocationId(), Ending.COMPLETED, null);
    }

    @Test
    void anHttpDisconnectIsNeitherACancellationNorARerun() throws Exception {
        slowEntered = new CountDownLatch(1);
        slowGo = new CountDownLatch(1);
        int runs = slowRuns.get();
        int finished = slowFinished.get();
        try (McpClient own = McpClient.connect(quiver.url().toString(), "host-agent", WAIT)) {
            McpClient.Call call = own.send("tools/call", own.toolCall("slow", Map.of(), null));
            HostRequest admit = host.next(Kind.ADMIT);
            admit.approve();
            assertTrue(slowEntered.await(20, TimeUnit.SECONDS), "the tool started");
            call.stream().close(); // the client's connection drops mid-call
            slowGo.countDown();
            awaitOver(admit.invocationId());
            assertEquals(runs + 1, slowRuns.get(), "run once");
            assertEquals(finished + 1, slowFinished.get(), "not cancelled by the disconnect: the tool finished");
            List<HostRequest> recorded = host.of(Kind.RECORD, admit.invocationId());
            assertEquals(1, recorded.size(), "recorded once");
            assertEquals("slow done", recorded.get(0).resultText());
            assertTrue(own.ping(), "the session goes on");
        } finally {
            slowGo.countDown();
        }
    }

    /**
     * A 2026-07-28 call whose client closes its connection is cancelled, as that revision has it (no stream to
     * come back to, no session): the tool is interrupted and never finishes, nothing is recorded or run again,
     * and the host hears that the call ended cancelled.
     */
    @Test
    void aStatelessClientThatLeavesCancelsItsCallAndTheHostHearsSo() throws Exception {
        slowEntered = new CountDownLatch(1);
        slowGo = new CountDownLatch(1);
        int runs = slowRuns.get();
        int finished = slowFinished.get();
        int interrupted = slowInterrupted.get();
        HostRequest admit;
        try (Probe.Raw raw = new Probe.Raw(quiver.url().toString())) {
            raw.send(Probe.statelessPost(quiver.url().toString(), "tools/call", "slow",
                    Map.of("name", "slow", "arguments", Map.of())));
            admit = host.next(Kind.ADMIT);
            assertEquals("2026-07-28", admit.protocolVersion());
            admit.approve();
            assertTrue(slowEntered.await(20, TimeUnit.SECONDS), "the tool started");
        } // the client leaves mid-call
        try {
            assertEnded(admit.invocationId(), Ending.CANCELLED, "cancelled");
            long deadline = System.nanoTime() + WAIT.toNanos();
            while (slowInterrupted.get() == interrupted) {
                assertTrue(System.nanoTime() < deadline, "the tool was never interrupted");
                Thread.sleep(10);
            }
        } finally {
            slowGo.countDown();
        }
        assertEquals(runs + 1, slowRuns.get(), "run once");
        assertEquals(finished, slowFinished.get(), "interrupted: the tool never finished");
        assertEquals(List.of(), host.of(Kind.RECORD, admit.invocationId()), "no result, no record");
    }

    @Test
    void aHostThatStopsAnsweringTimesCallsOutWhileTheEngineServes(@TempDir Path dir) throws Exception {
        Files.createDirectories(dir.resolve("etc"));
        Files.writeString(dir.resolve("etc/io.quiver.core.cfg"), "hostTimeoutMs = 1500\n");
        TestHost silent = new TestHost();
        try (Quiver lost = container(dir, silent).start()) {
            McpSyncClient client = sdk(lost);
            try {
                CompletableFuture<McpSchema.CallToolResult> call = CompletableFuture.supplyAsync(() -> client.callTool(
                        new McpSchema.CallToolRequest("count", Map.of("n", 11))));
                HostRequest unanswered = silent.next(Kind.ADMIT);
                try (McpClient other = McpClient.connect(lost.url().toString(), "other", WAIT)) {
                    assertTrue(other.ping(), "control messages are served while the call waits");
                    assertTrue(other.listTools().containsKey("count"), "and lists");
                }
                McpSchema.CallToolResult timedOut = call.get(20, TimeUnit.SECONDS);
                assertTrue(Boolean.TRUE.equals(timedOut.isError()));
                assertTrue(text(timedOut).contains("did not admit the call within 1500 ms"), text(timedOut));
                assertEquals(Status.STALE, unanswered.approve().status(), "a reply after the host's time is stale");
                assertEquals(List.of(), counted, "the tool never ran");
            } finally {
                client.closeGracefully();
            }
        }
    }

    @Test
    void aShutdownStopsPendingCallsAndAdmitsNoMore(@TempDir Path dir) throws Exception {
        TestHost closing = new TestHost();
        try (Quiver container = container(dir, closing).start()) {
            McpSyncClient client = sdk(container);
            try {
                CompletableFuture<McpSchema.CallToolResult> waiting = CompletableFuture.supplyAsync(() -> client.callTool(
                        new McpSchema.CallToolRequest("count", Map.of("n", 12))));
                HostRequest pending = closing.next(Kind.ADMIT);
                assertEquals(1, container.shutdownHost("the host is closing"));
                McpSchema.CallToolResult stopped = waiting.get(20, TimeUnit.SECONDS);
                assertTrue(text(stopped).contains("the host is closing"), text(stopped));
                assertEquals(Status.STALE, pending.approve().status());

                McpSchema.CallToolResult after = client.callTool(new McpSchema.CallToolRequest("count", Map.of("n", 13)));
                assertTrue(Boolean.TRUE.equals(after.isError()));
                assertTrue(text(after).contains("the host is closing"), text(after));
                assertEquals(1, closing.all.stream().filter(q -> q.kind() == Kind.ADMIT).count(),
                        "the call after the shutdown never reached the host");
                assertEquals(List.of(), counted, "no tool ran");
                assertTrue(client.ping() != null, "the container itself still serves");
            } finally {
                client.closeGracefully();
            }
        }
    }

    @Test
    void twoContainersWithTheirOwnHostsAndRootsDoNotCrossTalk(@TempDir Path dir) throws Exception {
        TestHost left = new TestHost();
        TestHost right = new TestHost();
        left.rules.put(Kind.ADMIT, HostRequest::approve);
        right.rules.put(Kind.ADMIT, r -> r.deny("right says no"));
        try (Quiver l = container(dir.resolve("left"), left).start();
             Quiver r = container(dir.resolve("right"), right).start()) {
            McpSyncClient toLeft = sdk(l);
            McpSyncClient toRight = sdk(r);
            try {
                assertEquals("ran 14", text(toLeft.callTool(new McpSchema.CallToolRequest("count", Map.of("n", 14)))));
                McpSchema.CallToolResult denied = toRight.callTool(new McpSchema.CallToolRequest("count", Map.of("n", 15)));
                assertTrue(text(denied).contains("right says no"), text(denied));
                assertTrue(left.all.stream().allMatch(q -> !q.arguments().equals(Map.of("n", 15))), "left never heard of right's call");
                assertTrue(right.all.stream().allMatch(q -> !q.arguments().equals(Map.of("n", 14))), "right never heard of left's call");
                String leftCall = left.all.get(0).invocationId();
                assertEquals(Status.UNKNOWN, r.stopCall(leftCall, "not yours").status(), "right cannot reach left's calls");
                assertEquals(List.of(Map.of("n", 14)), counted);
            } finally {
                toLeft.closeGracefully();
                toRight.closeGracefully();
            }
        }
    }

    @Test
    void withoutAHostWhatNeedsApprovalIsRefusedWithAClearMessageAndNeverRuns(@TempDir Path dir) throws Exception {
        Files.createDirectories(dir.resolve("etc"));
        Files.writeString(dir.resolve("etc/io.quiver.permissions.cfg"), "hostApproval = tool:count\n");
        try (Quiver unattended = Quiver.builder().features("core", "http").etc(dir.resolve("etc"))
                .deploy(dir.resolve("deploy")).data(dir.resolve("data"))
                .tool("count", "Counts a call", COUNT_SCHEMA, COUNT_META, arguments -> {
                    counted.add(arguments);
                    return "ran";
                }).start()) {
            McpSyncClient client = sdk(unattended);
            try {
                long deadline = System.nanoTime() + WAIT.toNanos();
                McpSchema.CallToolResult refused;
                do { // the permissions file arrives through etc/ shortly after the start
                    refused = client.callTool(new McpSchema.CallToolRequest("count", Map.of("n", 16)));
                    if (!Boolean.TRUE.equals(refused.isError())) {
                        counted.clear();
                        assertTrue(System.nanoTime() < deadline, "the hostApproval setting never took effect");
                        Thread.sleep(50);
                    }
                } while (!Boolean.TRUE.equals(refused.isError()));
                assertTrue(text(refused).contains("needs the approval of a host application"), text(refused));
                assertTrue(client.listTools().tools().stream().anyMatch(t -> t.name().equals("count")),
                        "listed: the caller can see it and is told why it did not run");
                assertEquals(List.of(), counted, "never ran unattended");
            } finally {
                client.closeGracefully();
            }
        }
    }

    private static CompletableFuture<McpSchema.CallToolResult> sdkCall(String tool, Map<String, Object> arguments) {
        return CompletableFuture.supplyAsync(() -> sdk.callTool(new McpSchema.CallToolRequest(tool, arguments)));
    }

    private static JsonNode request(McpClient client, ObjectNode params) {
        try {
            return client.request("tools/call", params);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** The OVER request of the call, once the host has it. */
    private static HostRequest awaitOver(String invocationId) throws InterruptedException {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (host.of(Kind.OVER, invocationId).isEmpty()) {
            assertTrue(System.nanoTime() < deadline, "the host never heard that " + invocationId + " was over");
            Thread.sleep(10);
        }
        List<HostRequest> over = host.of(Kind.OVER, invocationId);
        assertEquals(1, over.size(), "told once");
        return over.get(0);
    }

    /** Asserts how the call ended, as the host heard it; {@code detail}: null, or a part of the detail. */
    private static void assertEnded(String invocationId, Ending ending, String detail) throws InterruptedException {
        HostRequest over = awaitOver(invocationId);
        assertEquals(ending, over.ending(), over.asMap().toString());
        if (detail == null) {
            assertNull(over.detail(), over.asMap().toString());
        } else {
            assertTrue(over.detail() != null && over.detail().contains(detail), over.asMap().toString());
        }
    }

    private static McpSyncClient sdk(Quiver container) {
        String url = container.url().toString();
        HttpClientStreamableHttpTransport transport = HttpClientStreamableHttpTransport
                .builder(container.url().getScheme() + "://" + container.url().getAuthority())
                .endpoint(container.url().getPath()).build();
        McpSyncClient client = io.modelcontextprotocol.client.McpClient.sync(transport)
                .requestTimeout(Duration.ofSeconds(30)).build();
        client.initialize();
        assertTrue(url.startsWith("http://127.0.0.1:"), url);
        return client;
    }

    private static String text(McpSchema.CallToolResult result) {
        return assertInstanceOf(McpSchema.TextContent.class, result.content().get(0)).text();
    }

    private static String text(JsonNode response) {
        return response.path("result").path("content").get(0).path("text").asString();
    }

    static String sha(String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                    .digest(text.getBytes(StandardCharsets.UTF_8))).substring(0, 16);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** Writes to two streams: the log still shows, and the test reads what was written. */
    private static final class TeeStream extends OutputStream {
        private final OutputStream first;
        private final OutputStream second;

        TeeStream(OutputStream first, OutputStream second) {
            this.first = first;
            this.second = second;
        }

        @Override
        public synchronized void write(int b) throws IOException {
            first.write(b);
            second.write(b);
        }

        @Override
        public synchronized void write(byte[] b, int off, int len) throws IOException {
            first.write(b, off, len);
            second.write(b, off, len);
        }

        @Override
        public void flush() throws IOException {
            first.flush();
            second.flush();
        }
    }
}
