package io.quiver.itests.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The example host application (examples/console-host) as a user runs it: a child process started with
 * the command docs/embedding.md gives, its endpoint read from its stdout, the official Java SDK client
 * calling its {@code note_add} tool, and the "user" answering the prompts on its stdin. An approved call
 * runs (notes.txt has the line) and is recorded (one JSON line); a denied one never runs, and its line says
 * so; a tool's question is answered at the console, never by the client; {@code quit} ends a call
 * still waiting for an answer and exits 0.
 */
class ExampleHostIT {

    private static final String MAIN = "io.quiver.examples.host.ConsoleHost";
    private static final String ENDPOINT = "Quiver MCP endpoint: ";
    private static final String APPROVE = "-- approve? [y/n]";
    private static final String ANSWER = "an empty line declines";
    /** JVM start, Felix and the features, the endpoint answering. */
    private static final Duration START = Duration.ofSeconds(60);
    /** One step of the console: a prompt after a call, a result after an answer. */
    private static final Duration STEP = Duration.ofSeconds(20);
    /** FileInstall polls deploy/ every second and takes a file once it is stable for two polls. */
    private static final Duration DEPLOYED = Duration.ofSeconds(20);
    private static final Duration EXIT = Duration.ofSeconds(10);
    private static final Pattern NUMBER = Pattern.compile("^\\[#(\\d+)\\] ");
    private static final JsonMapper JSON = JsonMapper.builder().build();
    /** The console's settle time in the tests that answer at once: see the first test. */
    private static final String SETTLE_MS = "3000";

    @TempDir
    Path work;

    @Test
    void callsWaitForTheConsoleAndDeliveredOnesAreRecorded() throws Exception {
        Path home = work.resolve("home");
        Path notes = home.resolve("notes.txt");
        Path record = home.resolve("calls.jsonl");
        // a settle time no pause of a loaded machine reaches between a prompt and the answer typed at once
        try (ConsoleHost host = ConsoleHost.start(home, work.resolve("console-host.err"), "--settle-ms", SETTLE_MS)) {
            URI url = host.endpoint();
            host.await(line -> line.equals("Connect Claude Code: claude mcp add --transport http quiver " + url),
                    "the command that connects Claude Code", STEP);
            McpSyncClient client = connect(url, McpClient.sync(transport(url)));
            ExecutorService caller = Executors.newSingleThreadExecutor();
            try {
                // approved: the tool runs, its result is recorded before the caller gets it
                Future<McpSchema.CallToolResult> approved = caller.submit(() -> addNote(client, "buy milk"));
                String prompt = host.await(line -> line.endsWith(APPROVE), "the prompt for the first call", STEP);
                assertTrue(prompt.contains("example-host-it 1.0 calls note_add {\"text\":\"buy milk\"}"), prompt);
                String n = number(prompt);
                host.send(answer(n, "maybe"));
                assertEquals(prompt, host.await(line -> line.endsWith(APPROVE), "the prompt again after 'maybe'", STEP),
                        "neither y nor n: asked again");
                // a plain y typed at once may have been meant for another question: not taken
                host.send("y");
                host.await(line -> line.startsWith(n + " not taken: typed within " + SETTLE_MS + " ms of this question"),
                        "the word that a y typed at once is not taken", STEP);
                assertEquals(prompt, host.await(line -> line.endsWith(APPROVE), "the prompt again after a hasty y", STEP));
                assertFalse(approved.isDone(), "the call waits for the console");
                assertFalse(Files.exists(notes), "the tool has not run");
                host.send(answer(n, "y")); // naming the call: taken at once
                McpSchema.CallToolResult noted = approved.get(STEP.toSeconds(), TimeUnit.SECONDS);
                assertFalse(Boolean.TRUE.equals(noted.isError()), noted.toString());
                assertEquals("noted", text(noted));
                assertEquals(List.of("buy milk"), Files.readAllLines(notes), "the tool ran once");
                List<String> records = Files.readAllLines(record);
                assertEquals(1, records.size(), records.toString());
                JsonNode entry = JSON.readTree(records.get(0));
                assertFalse(entry.path("invocationId").asString().isBlank(), entry.toString());
                assertEquals("note_add", entry.path("tool").asString(), entry.toString());
                assertEquals("example-host-it", entry.path("client").asString(), entry.toString());
                assertEquals(Map.of("text", "buy milk"), JSON.convertValue(entry.path("arguments"), Map.class));
                assertEquals(Map.of("text", "buy milk"), JSON.convertValue(entry.path("requestedArguments"), Map.class));
                assertFalse(entry.path("edited").asBoolean(), entry.toString());
                assertEquals("noted", entry.path("deliveredResult").path("content").path(0).path("text").asString(),
                        entry.toString());
                assertEquals("noted", entry.path("rawResult").path("content").path(0).path("text").asString(),
                        entry.toString());
                Instant.parse(entry.path("time").asString());
                host.await(l -> l.equals(n + " note_add answered: noted (recorded)"),
                        "the console's word that the first call was recorded", STEP);

                // denied with a plain n once the question has been there for the settle time: the tool never
                // runs, nothing is recorded
                Future<McpSchema.CallToolResult> denied = caller.submit(() -> addNote(client, "sell the cow"));
                String second = host.await(line -> line.endsWith(APPROVE), "the prompt for the second call", STEP);
                assertTrue(second.contains("calls note_add {\"text\":\"sell the cow\"}"), second);
                assertNotEquals(n, number(second), "each call has its own number");
                Thread.sleep(Long.parseLong(SETTLE_MS) + 200);
                host.send("n");
                McpSchema.CallToolResult refused = denied.get(STEP.toSeconds(), TimeUnit.SECONDS);
                assertTrue(Boolean.TRUE.equals(refused.isError()), refused.toString());
                assertTrue(text(refused).contains("denied at the console"), text(refused));
                assertEquals(List.of("buy milk"), Files.readAllLines(notes), "the denied call never ran");
                // its line, written when the call is over, says how it ended and why (no result: none was delivered)
                host.await(l -> l.equals(number(second) + " note_add ended denied: denied at the console (recorded)"),
                        "the console's word that the denied call was recorded", STEP);
                List<String> withDenial = Files.readAllLines(record);
                assertEquals(2, withDenial.size(), withDenial.toString());
                assertEquals(records.get(0), withDenial.get(0));
                JsonNode ended = JSON.readTree(withDenial.get(1));
                assertEquals("note_add", ended.path("tool").asString(), ended.toString());
                assertEquals(Map.of("text", "sell the cow"), JSON.convertValue(ended.path("arguments"), Map.class));
                assertEquals("denied", ended.path("ending").asString(), ended.toString());
                assertEquals("denied at the console", ended.path("detail").asString(), ended.toString());
                assertTrue(ended.path("deliveredResult").isMissingNode(), "nothing was delivered: " + ended);
                assertNotEquals(entry.path("invocationId").asString(), ended.path("invocationId").asString());
                records = withDenial;

                // quit while a call waits for its answer: the stop ends it, the host exits 0
                Future<McpSchema.CallToolResult> pending = caller.submit(() -> addNote(client, "never"));
                host.await(line -> line.endsWith(APPROVE) && line.contains("never"), "the prompt for the third call", STEP);
                host.send("quit");
                host.awaitExit();
                assertCallEnded(pending);
                assertEquals(List.of("buy milk"), Files.readAllLines(notes), "the call pending at the stop never ran");
                assertEquals(records, Files.readAllLines(record));
            } finally {
                caller.shutdownNow();
                client.close(); // the server is gone: nothing to say goodbye to
            }
        }
    }

    /**
     * A caller that cancels its call while the user answers its question cannot move another call under that
     * answer: the next question appears, and a y typed at that moment (meant for the question withdrawn) is
     * not taken; the second call runs only once the user approves it by its number.
     */
    @Test
    void anAnswerMeantForAWithdrawnQuestionIsNotTakenForTheNext() throws Exception {
        Path home = work.resolve("home");
        Path notes = home.resolve("notes.txt");
        try (ConsoleHost host = ConsoleHost.start(home, work.resolve("console-host.err"), "--settle-ms", SETTLE_MS)) {
            URI url = host.endpoint();
            McpSyncClient client = connect(url, McpClient.sync(transport(url)));
            ExecutorService caller = Executors.newSingleThreadExecutor();
            try (io.quiver.itests.client.McpClient decoy = io.quiver.itests.client.McpClient.connect(url.toString(),
                    "decoy", Duration.ofSeconds(60))) {
                io.quiver.itests.client.McpClient.Call bait = decoy.send("tools/call",
                        decoy.toolCall(ConsoleHost.NOTE_TOOL, Map.of("text", "harmless"), null));
                String first = host.await(line -> line.endsWith(APPROVE) && line.contains("harmless"),
                        "the prompt for the decoy's call", STEP);
                Future<McpSchema.CallToolResult> queued = caller.submit(() -> addNote(client, "slipped in"));
                String waits = host.await(line -> line.endsWith("note_add waits for its turn"), "the second call queued", STEP);
                String n = number(waits);
                assertNotEquals(number(first), n);

                // the decoy withdraws its call just as the user types y for it
                assertEquals(202, decoy.notify("notifications/cancelled", Map.of("requestId", bait.id(), "reason", "timing")));
                host.await(line -> line.equals(number(first) + " the call ended before your answer"), "the decoy's prompt withdrawn",
                        STEP);
                String second = host.await(line -> line.endsWith(APPROVE), "the prompt for the queued call", STEP);
                assertTrue(second.startsWith(n) && second.contains("slipped in"), second);
                host.send("y");
                host.await(line -> line.startsWith(n + " not taken: typed within"), "the word that the y is not taken", STEP);
                host.send(answer(number(first), "y"));
                host.await(line -> line.equals(n + " not taken: that answer names " + number(first).substring(1, number(first).length() - 1)
                        + ", and the question shown is " + n.substring(1, n.length() - 1) + "'s"),
                        "the word that an answer naming another call is not taken", STEP);
                assertFalse(queued.isDone(), "the queued call still waits for its own answer");
                assertFalse(Files.exists(notes), "no call ran: " + (Files.exists(notes) ? Files.readAllLines(notes) : ""));

                host.send(answer(n, "y"));
                McpSchema.CallToolResult noted = queued.get(STEP.toSeconds(), TimeUnit.SECONDS);
                assertEquals("noted", text(noted));
                assertEquals(List.of("slipped in"), Files.readAllLines(notes), "only the call approved by its number ran");
            } finally {
                caller.shutdownNow();
                client.closeGracefully();
            }
            host.send("quit");
            host.awaitExit();
        }
    }

    @Test
    void aToolsQuestionIsAnsweredAtTheConsole() throws Exception {
        Path home = work.resolve("home");
        // the example tool bundle: greet asks for the name when the caller gives none
        Files.createDirectories(home.resolve("deploy"));
        Files.copy(ToolBundles.exampleJar(), home.resolve("deploy").resolve("greeting-tool.jar"));
        AtomicInteger clientAsked = new AtomicInteger();
        BlockingQueue<List<McpSchema.Tool>> toolLists = new LinkedBlockingQueue<>();
        try (ConsoleHost host = ConsoleHost.start(home, work.resolve("console-host.err"))) {
            URI url = host.endpoint();
            McpSyncClient client = connect(url, McpClient.sync(transport(url))
                    // the client could answer, but the host does
                    .capabilities(McpSchema.ClientCapabilities.builder().elicitation().build())
                    .elicitation(request -> {
                        clientAsked.incrementAndGet();
                        return new McpSchema.ElicitResult(McpSchema.ElicitResult.Action.DECLINE, null);
                    })
                    .toolsChangeConsumer(toolLists::add));
            ExecutorService caller = Executors.newSingleThreadExecutor();
            try {
                awaitTool(client, toolLists, "greet");

                Future<McpSchema.CallToolResult> greeting = caller.submit(() ->
                        client.callTool(new McpSchema.CallToolRequest("greet", Map.of())));
                String admit = host.await(line -> line.endsWith(APPROVE), "the prompt for greet", STEP);
                assertTrue(admit.contains("calls greet {}"), admit);
                String n = number(admit);
                host.send(answer(n, "y"));
                host.await(line -> line.equals(n + " greet asks: Who should I greet?"), "greet's question", STEP);
                host.await(line -> line.equals(n + "   name (string, required): Name - Who to greet"), "the form's field", STEP);
                host.await(line -> line.startsWith(n + " answer with field=value pairs") && line.contains(ANSWER),
                        "how to answer", STEP);
                host.send(answer(n, "nom=Ada"));
                host.await(line -> line.equals(n + " the form has no field nom; its fields: name"),
                        "why the answer was not taken", STEP);
                host.await(line -> line.contains(ANSWER), "the question again", STEP);
                host.send(answer(n, "name=Ada Lovelace"));
                McpSchema.CallToolResult greeted = greeting.get(STEP.toSeconds(), TimeUnit.SECONDS);
                assertFalse(Boolean.TRUE.equals(greeted.isError()), greeted.toString());
                assertTrue(text(greeted).contains("Ada Lovelace"), greeted.toString());
                host.await(line -> line.equals(n + " answered"), "the answer taken", STEP);
                assertFalse(host.transcript().stream().anyMatch(line -> line.contains("Lovelace") && !line.contains("recorded")),
                        "the answer is not echoed: " + host.transcript());

                // an empty line declines
                Future<McpSchema.CallToolResult> nobody = caller.submit(() ->
                        client.callTool(new McpSchema.CallToolRequest("greet", Map.of())));
                String again = host.await(line -> line.endsWith(APPROVE) && !line.startsWith(n), "the prompt for the second greet",
                        STEP);
                host.send(answer(number(again), "y"));
                host.await(line -> line.contains(ANSWER), "greet's question again", STEP);
                host.send(answer(number(again), "")); // the call's number alone: an empty answer
                McpSchema.CallToolResult declined = nobody.get(STEP.toSeconds(), TimeUnit.SECONDS);
                assertTrue(text(declined).startsWith("Nobody to greet"), declined.toString());

                assertEquals(0, clientAsked.get(), "the host answered; the client was never asked");
                assertEquals(2, Files.readAllLines(home.resolve("calls.jsonl")).size(), "both calls recorded");
            } finally {
                caller.shutdownNow();
                client.closeGracefully();
            }
            host.send("quit");
            host.awaitExit();
        }
    }

    /** Waits until the tool is listed: at once, or after a tools/list_changed the client hears. */
    private static void awaitTool(McpSyncClient client, BlockingQueue<List<McpSchema.Tool>> changes, String tool)
            throws InterruptedException {
        if (client.listTools().tools().stream().anyMatch(t -> t.name().equals(tool))) {
            return;
        }
        long deadline = System.nanoTime() + DEPLOYED.toNanos();
        while (true) {
            List<McpSchema.Tool> tools = changes.poll(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            if (tools == null) {
                fail(tool + " is not listed " + DEPLOYED.toSeconds() + " s after its bundle was put in deploy/");
            }
            if (tools.stream().anyMatch(t -> t.name().equals(tool))) {
                return;
            }
        }
    }

    /** The call pending at the stop ended with an error result that says why (the stop is graceful: it is delivered). */
    private static void assertCallEnded(Future<McpSchema.CallToolResult> pending) throws Exception {
        McpSchema.CallToolResult result;
        try {
            result = pending.get(STEP.toSeconds(), TimeUnit.SECONDS);
        } catch (TimeoutException e) {
            throw new AssertionError("the call pending when the host quit did not end", e);
        }
        assertTrue(Boolean.TRUE.equals(result.isError()), result.toString());
        assertTrue(text(result).contains("the host application is stopping"), text(result));
    }

    private static McpSchema.CallToolResult addNote(McpSyncClient client, String text) {
        return client.callTool(new McpSchema.CallToolRequest("note_add", Map.of("text", text)));
    }

    /** An answer that names its call ({@code [#2]} and {@code y} give {@code #2 y}): taken at once. */
    private static String answer(String number, String text) {
        return number.substring(1, number.length() - 1) + (text.isEmpty() ? "" : " " + text);
    }

    private static String number(String line) {
        Matcher m = NUMBER.matcher(line);
        assertTrue(m.find(), "a line about a call starts with its number: " + line);
        return "[#" + m.group(1) + "]";
    }

    private static String text(McpSchema.CallToolResult result) {
        return assertInstanceOf(McpSchema.TextContent.class, result.content().get(0)).text();
    }

    private static HttpClientStreamableHttpTransport transport(URI url) {
        return HttpClientStreamableHttpTransport.builder(url.getScheme() + "://" + url.getAuthority())
                .endpoint(url.getPath())
                .build();
    }

    private static McpSyncClient connect(URI url, McpClient.SyncSpec spec) {
        McpSyncClient client = spec.clientInfo(new McpSchema.Implementation("example-host-it", "1.0"))
                .requestTimeout(Duration.ofSeconds(60))
                .build();
        client.initialize();
        return client;
    }

    /**
     * The example host as a child process, started with the documented command (the same java as this
     * test). Its stdout is read on a thread of its own into a queue (the child never blocks on a full
     * pipe); its stderr goes to a file, shown when a step fails.
     */
    private static final class ConsoleHost implements AutoCloseable {

        private static final String EOF = "\u0000end of stdout";

        private final Process process;
        private final Writer stdin;
        private final Path stderr;
        private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
        private final List<String> transcript = new CopyOnWriteArrayList<>();
        private boolean ended;

        private ConsoleHost(Process process, Path stderr) {
            this.process = process;
            this.stderr = stderr;
            this.stdin = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
            Thread reader = new Thread(this::read, "console-host-stdout");
            reader.setDaemon(true);
            reader.start();
        }

        static final String NOTE_TOOL = "note_add";

        static ConsoleHost start(Path home, Path stderr, String... options) throws IOException {
            String java = ProcessHandle.current().info().command()
                    .orElseThrow(() -> new IllegalStateException("the java command of this JVM is unknown"));
            String classPath = jar("quiver.jar") + File.pathSeparator + jar("console.host.jar");
            List<String> command = new java.util.ArrayList<>(List.of(java, "-cp", classPath, MAIN, "--home", home.toString()));
            command.addAll(List.of(options));
            Process process = new ProcessBuilder(command)
                    .redirectError(stderr.toFile())
                    .start();
            return new ConsoleHost(process, stderr);
        }

        private static String jar(String property) {
            String path = System.getProperty(property);
            if (path == null || !Files.isRegularFile(Path.of(path))) {
                throw new IllegalStateException(property + " is missing (" + path + "): build the project first (mvn install)");
            }
            return path;
        }

        private void read() {
            try (BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line = out.readLine(); line != null; line = out.readLine()) {
                    transcript.add(line);
                    lines.add(line);
                }
            } catch (IOException e) {
                transcript.add("(reading stdout failed: " + e + ")");
            }
            lines.add(EOF);
        }

        URI endpoint() throws InterruptedException {
            return URI.create(await(line -> line.startsWith(ENDPOINT), "the endpoint line", START)
                    .substring(ENDPOINT.length()).trim());
        }

        /** The next line of stdout that matches, within the time; the lines before it are passed over. */
        String await(Predicate<String> match, String what, Duration within) throws InterruptedException {
            long deadline = System.nanoTime() + within.toNanos();
            while (!ended) {
                String line = lines.poll(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
                if (line == null) {
                    fail("no " + what + " on the console within " + within.toSeconds() + " s" + diagnostics());
                }
                if (line.equals(EOF)) {
                    ended = true;
                    break;
                }
                if (match.test(line)) {
                    return line;
                }
            }
            fail("the console host ended its output before " + what + diagnostics());
            return null;
        }

        /** Types a line at the console. */
        void send(String line) throws IOException {
            stdin.write(line + "\n");
            stdin.flush();
        }

        void awaitExit() throws InterruptedException {
            if (!process.waitFor(EXIT.toSeconds(), TimeUnit.SECONDS)) {
                fail("the console host did not exit within " + EXIT.toSeconds() + " s of quit" + diagnostics());
            }
            assertEquals(0, process.exitValue(), () -> "exit status" + diagnostics());
        }

        List<String> transcript() {
            return transcript;
        }

        private String diagnostics() {
            String err;
            try {
                List<String> all = Files.readAllLines(stderr);
                err = String.join("\n", all.subList(Math.max(0, all.size() - 40), all.size()));
            } catch (IOException e) {
                err = "(no stderr: " + e + ")";
            }
            return "\n--- stdout:\n" + String.join("\n", transcript) + "\n--- stderr (the end):\n" + err;
        }

        @Override
        public void close() throws InterruptedException {
            if (process.isAlive()) {
                process.destroyForcibly();
                process.waitFor(EXIT.toSeconds(), TimeUnit.SECONDS);
            }
            try {
                stdin.close();
            } catch (IOException e) {
                // the child is gone
            }
        }
    }
}
