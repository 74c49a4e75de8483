package io.quiver.itests.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Quiver as a stdio MCP server ({@code quiver.jar run --stdio}), launched the way a desktop host
 * launches it: as a child process whose stdin and stdout carry the protocol, one JSON-RPC message per
 * line. The official Java SDK client and the official TypeScript SDK client each launch it with their
 * stdio transports, list and call its tools, and hear a tool bundle dropped into {@code deploy/} as
 * {@code notifications/tools/list_changed}; raw processes check that stdout carries nothing else, that
 * a slow call holds up nothing sent after it, that the client's answers to the server's questions get
 * through, and that the end of stdin stops the server with status 0.
 */
class StdioIT {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    /** JVM and framework start, the handshake, a list and a call (the TypeScript client: Node's start too). */
    private static final Duration READY = Duration.ofSeconds(60);
    /** FileInstall polls deploy/ and takes a new file once it is stable; 20 s leaves a wide margin. */
    private static final Duration EFFECT = Duration.ofSeconds(20);
    /** How long the tests wait for a server to end (then it is a failure, and it is killed). */
    private static final Duration STOP = Duration.ofSeconds(20);
    /**
     * How long a host lets a server run on after closing its stdin: the TypeScript SDK sends SIGTERM after
     * 2 s and SIGKILL after 4 s (a drain with nothing slow in flight and a framework stop take well under 1 s).
     */
    private static final Duration HOST_GRACE = Duration.ofSeconds(4);
    private static final String INITIALIZE = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":"
            + "{\"protocolVersion\":\"2025-11-25\",\"capabilities\":%s,\"clientInfo\":{\"name\":\"stdio-it\",\"version\":\"1\"}}}";
    private static final String INITIALIZED = "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}";

    @Test
    void theJavaSdkClientLaunchesQuiverCallsItsToolsAndHearsABundleArrive() throws Exception {
        Path home = home("java-sdk");
        Path serverLog = home.resolve("server.log");
        ServerParameters parameters = ServerParameters.builder(QuiverServer.javaBinary()).args(arguments(home)).build();
        StdioClientTransport transport = new StdioClientTransport(parameters, McpJsonDefaults.getMapper()) {
            @Override
            protected ProcessBuilder getProcessBuilder() {
                // the server's working directory is its home: what it writes by default (audit/) stays there
                return super.getProcessBuilder().directory(home.toFile());
            }
        };
        transport.setStdErrorHandler(line -> append(serverLog, line));
        CompletableFuture<List<String>> greetListed = new CompletableFuture<>();
        McpSyncClient client = McpClient.sync(transport)
                .requestTimeout(Duration.ofSeconds(20))
                .initializationTimeout(READY)
                .toolsChangeConsumer(tools -> {
                    // called with the tool list the SDK fetched again after notifications/tools/list_changed
                    List<String> names = tools.stream().map(McpSchema.Tool::name).toList();
                    if (names.contains(ToolBundles.TOOL)) {
                        greetListed.complete(names);
                    }
                })
                .build();
        Supplier<String> log = () -> "--- server stderr ---\n" + read(serverLog);
        try {
            McpSchema.InitializeResult init = client.initialize();
            assertEquals("quiver", init.serverInfo().name(), log);
            assertTrue(Boolean.TRUE.equals(init.capabilities().tools().listChanged()), log);

            List<String> before = client.listTools().tools().stream().map(McpSchema.Tool::name).toList();
            assertTrue(before.containsAll(List.of("current_time", "convert_time")), () -> before + "\n" + log.get());
            assertFalse(before.contains(ToolBundles.TOOL), "no greet tool before its bundle is deployed");

            McpSchema.CallToolResult time = client.callTool(new McpSchema.CallToolRequest("current_time",
                    Map.of("timezone", "Europe/Berlin")));
            assertFalse(Boolean.TRUE.equals(time.isError()), time::toString);
            assertTrue(String.valueOf(time.structuredContent()).contains("Europe/Berlin"), time::toString);

            ToolBundles.place(ToolBundles.exampleJar(), home.resolve("deploy").resolve("greeting-tool.jar"));
            List<String> after;
            try {
                after = greetListed.get(EFFECT.toSeconds(), TimeUnit.SECONDS);
            } catch (TimeoutException e) {
                throw new AssertionError("no list_changed listing greet within " + EFFECT + "\n" + log.get(), e);
            }
            assertTrue(after.containsAll(before), () -> "nothing else went away: " + after);

            McpSchema.CallToolResult greet = client.callTool(new McpSchema.CallToolRequest(ToolBundles.TOOL,
                    Map.of("name", "Ada")));
            assertFalse(Boolean.TRUE.equals(greet.isError()), greet::toString);
            Map<?, ?> greeting = assertInstanceOf(Map.class, greet.structuredContent(), greet::toString);
            assertEquals(ToolBundles.GREETING_V1, greeting.get("text"), greet::toString);
        } finally {
            client.closeGracefully();
        }
    }

    @Test
    void theTypeScriptSdkClientLaunchesQuiverCallsItsToolsAndHearsABundleArrive() throws Exception {
        Path clientDir = TsClients.dir("@modelcontextprotocol/client");
        Path node = TsClients.node();
        Path home = home("ts-sdk");
        Path serverLog = home.resolve("server.log");
        Path clientLog = home.resolve("ts-client.stderr.log");
        List<String> command = new ArrayList<>(List.of(node.toString(), clientDir.resolve("stdio-client.mjs").toString(),
                home.toString(), serverLog.toString(), String.valueOf(EFFECT.toMillis()), "--",
                QuiverServer.javaBinary()));
        command.addAll(arguments(home));
        Process client = new ProcessBuilder(command).directory(clientDir.toFile()).redirectError(clientLog.toFile()).start();
        Lines out = new Lines(client.getInputStream(), "ts-client-stdout");
        Supplier<String> context = () -> out.describe() + "--- ts-client stderr ---\n" + read(clientLog)
                + "--- server log ---\n" + read(serverLog);
        try {
            out.await(line -> line.equals("LISTENING"), READY, context);
            JsonNode initialized = out.step("initialized", context);
            assertEquals("quiver", initialized.path("serverInfo").path("name").asString(), context);
            assertTrue(initialized.path("capabilities").path("tools").path("listChanged").asBoolean(), context);
            List<String> before = strings(out.step("tools", context).path("names"));
            assertTrue(before.containsAll(List.of("current_time", "convert_time")), context);
            assertFalse(before.contains(ToolBundles.TOOL), context);
            JsonNode call = out.step("call", context);
            assertFalse(call.path("isError").asBoolean(), context);
            assertEquals("UTC", call.path("structured").path("timezone").asString(), context);

            ToolBundles.place(ToolBundles.exampleJar(), home.resolve("deploy").resolve("greeting-tool.jar"));
            out.await(line -> line.equals("LIST_CHANGED"), EFFECT.plusSeconds(10), context);
            assertTrue(client.waitFor(60, TimeUnit.SECONDS), () -> "the client did not finish: " + context.get());
            assertEquals(0, client.exitValue(), context);

            assertEquals("notifications/tools/list_changed", out.step("list_changed", context).path("method").asString());
            List<String> after = strings(out.step("tools_after", context).path("names"));
            assertTrue(after.contains(ToolBundles.TOOL), context);
            assertTrue(after.containsAll(before), context);
            JsonNode greet = out.step("greet", context);
            assertFalse(greet.path("isError").asBoolean(), context);
            assertEquals(ToolBundles.GREETING_V1, greet.path("structured").path("text").asString(), context);

            out.step("closed", context);
            long pid = initialized.path("pid").asLong();
            // the SDK has seen it end; the system may take a moment to take the process away
            ProcessHandle.of(pid).ifPresent(server -> server.onExit().completeOnTimeout(server, STOP.toSeconds(),
                    TimeUnit.SECONDS).join());
            assertFalse(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false),
                    () -> "the server process " + pid + " outlived its client\n" + context.get());
            // it stopped because its stdin ended, not because the SDK signalled it afterwards
            assertTrue(read(serverLog).contains("stdin closed: the client is done; stopping the server"), context);
        } finally {
            if (client.isAlive()) {
                client.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        }
    }

    @Test
    void stdoutCarriesJsonRpcOnlyAndTheEndOfStdinStopsTheServerWithStatusZero() throws Exception {
        Path home = home("raw");
        Files.writeString(home.resolve("etc").resolve("io.quiver.transport.stdio.cfg"), "maxMessageBytes = 4096\n");
        // HTTP runs too: its endpoint line, which a plain run prints on stdout, must go to stderr
        try (RawServer server = RawServer.start(home, "--features", "http,tools-default", "--port", "0")) {
            server.send(INITIALIZE.formatted("{}"));
            server.send(INITIALIZED);
            server.send("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}");
            server.send("{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":{this is not json");
            server.send("{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"ping\",\"params\":{\"_meta\":{\"pad\":\""
                    + "x".repeat(5000) + "\"}}}");
            server.send("{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"tools/call\",\"params\":{\"name\":\"current_time\","
                    + "\"arguments\":{\"timezone\":\"UTC\"}}}");
            server.awaitResponse(4, READY);
            List<ProcessHandle> descendants = server.process.descendants().toList();

            long eof = System.nanoTime();
            server.closeStdin();
            assertTrue(server.process.waitFor(STOP.toSeconds(), TimeUnit.SECONDS),
                    () -> "the server did not stop within " + STOP + " after the end of stdin\n" + server.describe());
            long stopMs = (System.nanoTime() - eof) / 1_000_000L;
            assertEquals(0, server.process.exitValue(), server::describe);
            assertTrue(stopMs < HOST_GRACE.toMillis(), () -> "the server stopped " + stopMs + " ms after the end of its"
                    + " stdin: a host kills a server still running " + HOST_GRACE.toSeconds() + " s after closing it\n"
                    + server.describe());
            for (ProcessHandle child : descendants) {
                assertFalse(child.isAlive(), () -> "a child of the server outlived it: " + child.info());
            }
            assertTrue(server.process.descendants().findAny().isEmpty());

            List<JsonNode> lines = server.allLines();
            for (JsonNode line : lines) {
                assertEquals("2.0", line.path("jsonrpc").asString(), () -> line + "\n" + server.describe());
                assertTrue(line.has("method") || line.has("id") && (line.has("result") ^ line.has("error")),
                        () -> "not a JSON-RPC message: " + line);
            }
            assertEquals(1, count(lines, l -> l.path("id").asInt(0) == 1), server::describe);
            JsonNode init = find(lines, l -> l.path("id").asInt(0) == 1);
            assertEquals("quiver", init.path("result").path("serverInfo").path("name").asString(), server::describe);
            JsonNode tools = find(lines, l -> l.path("id").asInt(0) == 2);
            assertTrue(tools.path("result").path("tools").toString().contains("\"current_time\""), server::describe);
            JsonNode malformed = find(lines, l -> l.has("error") && l.path("error").path("code").asInt() == -32700);
            assertTrue(malformed.get("id").isNull(), () -> "the parse error has id null: " + malformed);
            // etc/io.quiver.transport.stdio.cfg set the limit: the long line was answered and skipped, not served
            JsonNode tooLong = find(lines, l -> l.has("error") && l.path("error").path("code").asInt() == -32600);
            assertTrue(tooLong.get("id").isNull(), tooLong::toString);
            assertTrue(tooLong.path("error").path("message").asString().contains("4096"), tooLong::toString);
            assertEquals(0, count(lines, l -> l.path("id").asInt(0) == 5), server::describe);
            assertEquals(2, count(lines, l -> l.has("error")), () -> "two errors, no more\n" + server.describe());
            JsonNode time = find(lines, l -> l.path("id").asInt(0) == 4);
            assertFalse(time.path("result").path("isError").asBoolean(true), server::describe);
            assertEquals("UTC", time.path("result").path("structuredContent").path("timezone").asString(), server::describe);

            String log = server.log();
            assertTrue(log.contains("Quiver MCP endpoint: http://127.0.0.1:"), () -> "the endpoint line is on stderr\n" + log);
            assertTrue(log.contains("stdin closed: the client is done; stopping the server"), log);
            System.out.println("StdioIT: the server stopped " + stopMs + " ms after the end of its stdin");
        }
    }

    /**
     * A host launches the server and lists its tools at once: the list holds a tool bundle of deploy/ too (the request
     * after {@code initialize} waits for the start, deploy/'s first pass included, to be over).
     */
    @Test
    void theFirstListAHostAsksForHoldsTheToolsOfDeploy() throws Exception {
        Path home = home("deploy-first");
        Files.copy(ToolBundles.exampleJar(), home.resolve("deploy").resolve("greeting-tool.jar"));
        try (RawServer server = RawServer.start(home)) {
            server.send(INITIALIZE.formatted("{}"));
            server.send(INITIALIZED);
            server.send("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}");
            JsonNode tools = server.awaitResponse(2, READY);
            String names = tools.path("result").path("tools").toString();
            assertTrue(names.contains("\"" + ToolBundles.TOOL + "\""), () -> names + "\n" + server.describe());
            assertTrue(names.contains("\"current_time\""), names);
            server.closeStdin();
            assertTrue(server.process.waitFor(STOP.toSeconds(), TimeUnit.SECONDS), server::describe);
            assertEquals(0, server.process.exitValue(), server::describe);
        }
    }

    @Test
    void aSlowCallHoldsUpNothingSentAfterIt() throws Exception {
        try (RawServer server = RawServer.start(home("slow"), "--features", "conformance")) {
            server.send(INITIALIZE.formatted("{}"));
            server.send(INITIALIZED);
            server.awaitResponse(1, READY);
            server.send("{\"jsonrpc\":\"2.0\",\"id\":10,\"method\":\"tools/call\",\"params\":{\"name\":\"slow_compute\","
                    + "\"arguments\":{\"seconds\":4,\"label\":\"slow\"}}}");
            server.send("{\"jsonrpc\":\"2.0\",\"id\":11,\"method\":\"ping\"}");
            server.send("{\"jsonrpc\":\"2.0\",\"id\":12,\"method\":\"tools/call\",\"params\":{\"name\":\"test_simple_text\","
                    + "\"arguments\":{}}}");
            server.awaitResponse(10, READY);
            List<JsonNode> lines = server.linesSoFar();
            int slow = indexOf(lines, 10);
            int ping = indexOf(lines, 11);
            int quick = indexOf(lines, 12);
            assertTrue(ping >= 0 && ping < slow, () -> "the ping sent after the slow call is answered first\n" + server.describe());
            assertTrue(quick >= 0 && quick < slow, () -> "so is a quick call\n" + server.describe());
            assertEquals("Computed 'slow' in 4.0 s", lines.get(slow).path("result").path("content").path(0).path("text")
                    .asString(), server::describe);

            server.closeStdin();
            assertTrue(server.process.waitFor(STOP.toSeconds(), TimeUnit.SECONDS), server::describe);
            assertEquals(0, server.process.exitValue(), server::describe);
        }
    }

    @Test
    void aBatchIn20250326IsAnsweredWithOneArrayLineAndElsewhereRefused() throws Exception {
        try (RawServer server = RawServer.start(home("batch"), "--features", "conformance")) {
            server.send(INITIALIZE.formatted("{}").replace("2025-11-25", "2025-03-26"));
            server.send(INITIALIZED);
            assertEquals("2025-03-26", server.awaitResponse(1, READY).path("result").path("protocolVersion").asString());
            // a slow call first: the array keeps the batch's order, its line comes once the slow call is done
            server.send("[{\"jsonrpc\":\"2.0\",\"id\":30,\"method\":\"tools/call\",\"params\":{\"name\":"
                    + "\"slow_compute\",\"arguments\":{\"seconds\":1,\"label\":\"batched\"}}},"
                    + "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/roots/list_changed\"},"
                    + "{\"jsonrpc\":\"2.0\",\"id\":31,\"method\":\"ping\"},"
                    + "{\"jsonrpc\":\"2.0\",\"id\":32,\"method\":\"tools/call\",\"params\":{\"name\":"
                    + "\"test_simple_text\",\"arguments\":{}}}]");
            server.send("{\"jsonrpc\":\"2.0\",\"id\":33,\"method\":\"ping\"}");
            JsonNode batch = server.await(JsonNode::isArray, READY);
            assertEquals(List.of(30, 31, 32), batch.valueStream().map(r -> r.path("id").asInt()).toList(), server::describe);
            assertEquals("Computed 'batched' in 1.0 s", batch.get(0).path("result").path("content").path(0).path("text")
                    .asString(), server::describe);
            assertTrue(batch.get(2).path("result").path("content").path(0).path("text").asString().contains("simple"),
                    server::describe);
            List<JsonNode> lines = server.linesSoFar();
            int ping = indexOf(lines, 33);
            assertTrue(ping >= 0 && ping < lines.indexOf(batch), () -> "a ping sent after the batch is not held up by it\n"
                    + server.describe());

            server.closeStdin();
            assertTrue(server.process.waitFor(STOP.toSeconds(), TimeUnit.SECONDS), server::describe);
            assertEquals(0, server.process.exitValue(), server::describe);
        }
        try (RawServer server = RawServer.start(home("no-batch"), "--features", "conformance")) {
            server.send(INITIALIZE.formatted("{}"));
            server.send(INITIALIZED);
            server.awaitResponse(1, READY);
            server.send("[{\"jsonrpc\":\"2.0\",\"id\":40,\"method\":\"ping\"}]");
            JsonNode refused = server.await(l -> l.has("error"), READY);
            assertEquals(-32600, refused.path("error").path("code").asInt(), server::describe);
            assertTrue(refused.path("error").path("message").asString().contains("2025-11-25"), server::describe);
            server.closeStdin();
            assertTrue(server.process.waitFor(STOP.toSeconds(), TimeUnit.SECONDS), server::describe);
            assertEquals(0, count(server.allLines(), l -> l.path("id").asInt(0) == 40), "the refused ping was not answered");
        }
    }

    @Test
    void theClientsAnswerToTheServersQuestionReachesTheTool() throws Exception {
        try (RawServer server = RawServer.start(home("elicit"), "--features", "conformance")) {
            server.send(INITIALIZE.formatted("{\"elicitation\":{}}"));
            server.send(INITIALIZED);
            server.send("{\"jsonrpc\":\"2.0\",\"id\":20,\"method\":\"tools/call\",\"params\":{\"name\":\"test_elicitation\","
                    + "\"arguments\":{\"message\":\"Who are you?\"}}}");
            JsonNode question = server.await(l -> "elicitation/create".equals(l.path("method").asString(null)), READY);
            assertEquals("Who are you?", question.path("params").path("message").asString(), server::describe);
            server.send("{\"jsonrpc\":\"2.0\",\"id\":" + question.get("id") + ",\"result\":{\"action\":\"accept\","
                    + "\"content\":{\"username\":\"stdio-user\",\"email\":\"stdio@example.com\"}}}");
            JsonNode result = server.awaitResponse(20, READY);
            assertFalse(result.path("result").path("isError").asBoolean(true), server::describe);
            assertTrue(result.path("result").toString().contains("stdio-user"), server::describe);

            server.closeStdin();
            assertTrue(server.process.waitFor(STOP.toSeconds(), TimeUnit.SECONDS), server::describe);
            assertEquals(0, server.process.exitValue(), server::describe);
        }
    }

    // -------------------------------------------------------------------------------------------

    /** A fresh server home with etc/ and deploy/, under target/servers. */
    private static Path home(String name) throws IOException {
        Path home = Files.createDirectories(Path.of("target", "servers", "stdio-" + name + "-" + System.nanoTime()))
                .toAbsolutePath();
        Files.createDirectories(home.resolve("etc"));
        Files.createDirectories(home.resolve("deploy"));
        return home;
    }

    /** The arguments after {@code java}, as a host's configuration gives them: absolute folders. */
    private static List<String> arguments(Path home, String... options) {
        List<String> args = new ArrayList<>(List.of("-jar", System.getProperty("quiver.jar"), "run", "--stdio",
                "--etc", home.resolve("etc").toString(),
                "--deploy", home.resolve("deploy").toString(),
                "--data", home.resolve("data").toString()));
        args.addAll(List.of(options));
        return args;
    }

    private static List<String> strings(JsonNode array) {
        List<String> values = new ArrayList<>();
        array.forEach(value -> values.add(value.asString()));
        return values;
    }

    private static long count(List<JsonNode> lines, Predicate<JsonNode> which) {
        return lines.stream().filter(which).count();
    }

    private static JsonNode find(List<JsonNode> lines, Predicate<JsonNode> which) {
        return lines.stream().filter(which).findFirst().orElseThrow(() -> new AssertionError("no such line in " + lines));
    }

    private static int indexOf(List<JsonNode> lines, int id) {
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).path("id").asInt(-1) == id && !lines.get(i).has("method")) {
                return i;
            }
        }
        return -1;
    }

    private static void append(Path file, String line) {
        try {
            Files.writeString(file, line + "\n", StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String read(Path file) {
        try {
            return Files.isRegularFile(file) ? Files.readString(file) : "(none)\n";
        } catch (IOException e) {
            return "(unreadable: " + e + ")\n";
        }
    }

    /**
     * The lines a process writes to a stream, collected on a thread of their own, each checked as it
     * arrives: UTF-8, no carriage return.
     */
    private static final class Lines {
        private static final String EOF = "\u0000EOF";

        private final BlockingQueue<String> queue = new LinkedBlockingQueue<>();
        private final List<String> seen = new ArrayList<>();
        private final List<String> problems = new CopyOnWriteArrayList<>();
        private final Thread reader;

        Lines(InputStream stream, String name) {
            reader = new Thread(() -> {
                try (InputStream in = stream) {
                    ByteArrayOutputStream line = new ByteArrayOutputStream();
                    int b;
                    while ((b = in.read()) >= 0) {
                        if (b == '\n') {
                            queue.add(decode(line.toByteArray()));
                            line.reset();
                        } else {
                            line.write(b);
                        }
                    }
                    if (line.size() > 0) {
                        problems.add("the output ends without a line end: " + decode(line.toByteArray()));
                    }
                } catch (IOException e) {
                    problems.add("reading failed: " + e);
                } finally {
                    queue.add(EOF);
                }
            }, name);
            reader.setDaemon(true);
            reader.start();
        }

        private String decode(byte[] bytes) {
            try {
                String text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                        .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).toString();
                if (text.indexOf('\r') >= 0) {
                    problems.add("a carriage return in: " + text);
                }
                return text;
            } catch (CharacterCodingException e) {
                String text = new String(bytes, StandardCharsets.UTF_8);
                problems.add("not UTF-8: " + text);
                return text;
            }
        }

        /** Reads lines until one matches; fails at the end of the output or after {@code limit}. */
        synchronized String await(Predicate<String> match, Duration limit, Supplier<String> context)
                throws InterruptedException {
            long deadline = System.nanoTime() + limit.toNanos();
            while (true) {
                long left = deadline - System.nanoTime();
                String line = left > 0 ? queue.poll(left, TimeUnit.NANOSECONDS) : null;
                if (line == null) {
                    throw new AssertionError("the expected line did not come within " + limit + "\n" + context.get());
                }
                if (line.equals(EOF)) {
                    queue.add(EOF);
                    throw new AssertionError("the output ended before the expected line\n" + context.get());
                }
                seen.add(line);
                if (match.test(line)) {
                    return line;
                }
            }
        }

        /** Every line to the end of the output (the process has ended or is ending). */
        synchronized List<String> rest(Duration limit) throws InterruptedException {
            long deadline = System.nanoTime() + limit.toNanos();
            while (true) {
                long left = deadline - System.nanoTime();
                String line = left > 0 ? queue.poll(left, TimeUnit.NANOSECONDS) : null;
                if (line == null) {
                    throw new AssertionError("the output did not end within " + limit);
                }
                if (line.equals(EOF)) {
                    queue.add(EOF);
                    return List.copyOf(seen);
                }
                seen.add(line);
            }
        }

        /** The JSON line of a step ({"step": name, ...}), reading on to the end of the output if need be. */
        synchronized JsonNode step(String name, Supplier<String> context) throws InterruptedException {
            for (String line : seen) {
                JsonNode step = stepOf(line);
                if (step != null && name.equals(step.path("step").asString())) {
                    return step;
                }
            }
            try {
                String line = await(l -> {
                    JsonNode step = stepOf(l);
                    return step != null && name.equals(step.path("step").asString());
                }, Duration.ofSeconds(30), context);
                return JSON.readTree(line);
            } catch (AssertionError e) {
                throw new AssertionError("no " + name + " step\n" + context.get(), e);
            }
        }

        private static JsonNode stepOf(String line) {
            return line.startsWith("{") ? JSON.readTree(line) : null;
        }

        synchronized List<String> seen() {
            return List.copyOf(seen);
        }

        List<String> problems() {
            return problems;
        }

        synchronized String describe() {
            StringBuilder b = new StringBuilder("--- output so far ---\n");
            seen.forEach(line -> b.append(line).append('\n'));
            problems.forEach(p -> b.append("PROBLEM: ").append(p).append('\n'));
            return b.toString();
        }
    }

    /** {@code quiver.jar run --stdio} as a raw child process: the test writes its stdin and reads its stdout. */
    private static final class RawServer implements AutoCloseable {
        private final Process process;
        private final Path home;
        private final OutputStream stdin;
        private final Lines stdout;

        private RawServer(Process process, Path home) {
            this.process = process;
            this.home = home;
            this.stdin = process.getOutputStream();
            this.stdout = new Lines(process.getInputStream(), "stdio-server-stdout");
        }

        static RawServer start(Path home, String... options) throws IOException {
            List<String> command = new ArrayList<>(List.of(QuiverServer.javaBinary()));
            command.addAll(arguments(home, options));
            Process process = new ProcessBuilder(command).directory(home.toFile())
                    .redirectError(home.resolve("server.log").toFile()).start();
            return new RawServer(process, home);
        }

        void send(String line) throws IOException {
            stdin.write((line + "\n").getBytes(StandardCharsets.UTF_8));
            stdin.flush();
        }

        void closeStdin() throws IOException {
            stdin.close();
        }

        /** The next line that matches, every line on the way checked to be JSON. */
        JsonNode await(Predicate<JsonNode> match, Duration limit) throws InterruptedException {
            return JSON.readTree(stdout.await(line -> match.test(json(line)), limit, this::describe));
        }

        /** The response to the request with this id. */
        JsonNode awaitResponse(int id, Duration limit) throws InterruptedException {
            return await(l -> l.path("id").asInt(-1) == id && !l.has("method"), limit);
        }

        List<JsonNode> linesSoFar() {
            return stdout.seen().stream().map(this::json).toList();
        }

        /** Every line of stdout; the process has ended. */
        List<JsonNode> allLines() throws InterruptedException {
            List<JsonNode> lines = stdout.rest(Duration.ofSeconds(10)).stream().map(this::json).toList();
            assertEquals(List.of(), stdout.problems(), this::describe);
            return lines;
        }

        private JsonNode json(String line) {
            try {
                JsonNode node = JSON.readTree(line);
                assertNotNull(node);
                // a JSON-RPC message, or the array that answers a batch
                assertTrue(node.isObject() || node.isArray() && node.valueStream().allMatch(JsonNode::isObject),
                        () -> "not a JSON-RPC message on stdout: " + line + "\n" + describe());
                return node;
            } catch (RuntimeException e) {
                return fail("not JSON on stdout: " + line + "\n" + describe(), e);
            }
        }

        String log() {
            return read(home.resolve("server.log"));
        }

        String describe() {
            return stdout.describe() + "--- server log (" + (process.isAlive() ? "running" : "exit " + process.exitValue())
                    + ") ---\n" + log();
        }

        @Override
        public void close() throws Exception {
            if (process.isAlive()) {
                process.destroy();
                if (!process.waitFor(30, TimeUnit.SECONDS)) {
                    process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                }
            }
        }
    }
}
