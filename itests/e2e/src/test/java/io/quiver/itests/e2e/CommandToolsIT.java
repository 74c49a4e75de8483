package io.quiver.itests.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.spec.McpSchema;
import io.quiver.itests.client.McpClient;
import tools.jackson.databind.JsonNode;

/**
 * Local command tools ({@code bundles/tools.command}) as an operator declares them: one
 * {@code etc/io.quiver.tools.command-NAME.cfg} per tool, running sh scripts written into the server's
 * folder. Arguments never run anything (side-effect markers prove it), a timeout or a cancellation
 * stops the command's whole process tree, a double-forked process included (also when a 2026-07-28
 * client closes its connection, which is how it cancels), and a normal exit what
 * the command left running (checked by pid), a command asks the caller through the Outcome envelope
 * and runs again with the answer, and 50 MB of output are cut at the limit without being held in the
 * server's memory.
 */
class CommandToolsIT {

    private static final Duration T = Duration.ofSeconds(30);
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private static QuiverServer server;
    private static Path scripts;
    private static Path markers;

    @BeforeAll
    static void start() throws Exception {
        server = QuiverServer.start("commands", "core,http,tools-default", home -> {
            scripts = Files.createDirectories(home.resolve("scripts"));
            markers = Files.createDirectories(home.resolve("markers"));
            Path etc = home.resolve("etc");
            script("args.sh", "for a in \"$@\"; do printf '[%s]\\n' \"$a\"; done\n");
            // a program with a dangerous option: --output=FILE creates FILE; a literal -- ends its options
            script("opts.sh", """
                    opts=1
                    for a in "$@"; do
                      if [ "$opts" = 1 ]; then
                        case "$a" in
                          --) opts=0; continue ;;
                          --output=*) touch "${a#--output=}"; continue ;;
                        esac
                      fi
                      printf 'name=%s\\n' "$a"
                    done
                    """);
            // a parent, a child shell and a grandchild sleep, each writing its pid, then waiting; and an orphan sleep
            // (double-forked: its subshell exits at once, so it is nobody's descendant)
            script("tree.sh", """
                    (sleep 300 & echo $! > "$PIDS/orphan")
                    sh -c 'sleep 300 & echo $! > "$PIDS/grandchild"; wait' &
                    echo $! > "$PIDS/child"
                    echo $$ > "$PIDS/parent"
                    echo started
                    wait
                    """);
            // exits at once, leaving a double-forked sleep that holds its stdout and stderr
            script("leave.sh", """
                    (sleep 300 & echo $! > "$PIDS/left")
                    echo done
                    """);
            script("ask.sh", """
                    printf '%s\n' "$QUIVER_ANSWERS" >> "$RUNS"
                    case "$QUIVER_ANSWERS" in
                      *'"branch"'*)
                        name=$(printf '%s' "$QUIVER_ANSWERS" | sed 's/.*"name":"\\([^"]*\\)".*/\\1/')
                        printf 'deploying %s to %s' "$name" "$1" ;;
                      *)
                        printf '{"io.quiver/outcome": "needs_input", "requests": [{"key": "branch",'
                        printf ' "message": "Which branch?", "schema": {"type": "object",'
                        printf ' "properties": {"name": {"type": "string"}}, "required": ["name"]}}]}' ;;
                    esac
                    """);
            // asks for a secret; once answered, says whether the secret is in its environment
            script("secret.sh", """
                    if [ "$VIA" = stdin ]; then answers=$(cat); else answers=$QUIVER_ANSWERS; fi
                    case "$answers" in
                      *'"token"'*)
                        if grep -a -q s3cret /proc/$$/environ; then where=yes; else where=no; fi
                        printf 'answers %s, in the environment: %s' "$answers" "$where" ;;
                      *)
                        printf '{"io.quiver/outcome": "needs_input", "requests": [{"key": "token",'
                        printf ' "message": "Your token?", "sensitive": true}]}' ;;
                    esac
                    """);
            script("flood.sh", """
                    head -c 52428800 /dev/zero | tr '\\0' 'x'
                    echo written > "$MARKS/flood.written"
                    while [ ! -f "$MARKS/flood.release" ]; do sleep 0.05; done
                    """);
            script("progress.sh", "for i in 1 2 3; do echo \"step $i\" >&2; done; echo ok\n");

            cfg(etc, "echo", "description = Prints each argument in brackets",
                    "argv = /bin/sh, " + scripts.resolve("args.sh") + ", {text}",
                    "title = Echo", "readOnlyHint = true", "destructiveHint = false");
            cfg(etc, "shell_echo", "shell = true",
                    "script = printf '[%s]' \"$1\"; printf '(%s)' \"$QUIVER_ARG_TEXT\"",
                    "argv = {text}");
            cfg(etc, "opts", "argv = /bin/sh, " + scripts.resolve("opts.sh") + ", {name}");
            cfg(etc, "opts_after", "argv = /bin/sh, " + scripts.resolve("opts.sh") + ", --, {name}");
            cfg(etc, "tree", "argv = /bin/sh, " + scripts.resolve("tree.sh"), "timeoutMs = 1500",
                    "env = PIDS=" + Files.createDirectories(home.resolve("pids-timeout")));
            cfg(etc, "tree_cancel", "argv = /bin/sh, " + scripts.resolve("tree.sh"), "timeoutMs = 60000",
                    "env = PIDS=" + Files.createDirectories(home.resolve("pids-cancel")));
            cfg(etc, "tree_disconnect", "argv = /bin/sh, " + scripts.resolve("tree.sh"), "timeoutMs = 60000",
                    "env = PIDS=" + Files.createDirectories(home.resolve("pids-disconnect")));
            cfg(etc, "nap", "argv = /bin/sh, -c, sleep 1; echo napped");
            cfg(etc, "leave", "argv = /bin/sh, " + scripts.resolve("leave.sh"),
                    "env = PIDS=" + Files.createDirectories(home.resolve("pids-leave")));
            cfg(etc, "ask", "argv = /bin/sh, " + scripts.resolve("ask.sh") + ", {site}",
                    "env = RUNS=" + markers.resolve("ask.runs"));
            cfg(etc, "secret", "argv = /bin/sh, " + scripts.resolve("secret.sh"), "answersVia = stdin", "env = VIA=stdin");
            cfg(etc, "secret_env", "argv = /bin/sh, " + scripts.resolve("secret.sh"), "env = VIA=env");
            cfg(etc, "flood", "argv = /bin/sh, " + scripts.resolve("flood.sh"), "timeoutMs = 120000",
                    "env = MARKS=" + markers);
            cfg(etc, "progress", "argv = /bin/sh, " + scripts.resolve("progress.sh"));
            cfg(etc, "env", "argv = env", "inheritEnv = PATH", "env = GREETING=hello");
            cfg(etc, "broken", "argv = {prog}, x");
        });
        try (McpClient client = McpClient.connect(server.url(), "commands-it", T)) {
            List<String> wanted = List.of("echo", "shell_echo", "opts", "opts_after", "tree", "tree_cancel",
                    "tree_disconnect", "nap", "leave",
                    "ask", "secret", "secret_env", "flood", "progress", "env");
            await(() -> names(client).containsAll(wanted), "the command tools are listed");
        }
    }

    private static void script(String name, String text) throws IOException {
        Files.writeString(scripts.resolve(name), text);
    }

    private static void cfg(Path etc, String name, String... lines) throws IOException {
        Files.writeString(etc.resolve("io.quiver.tools.command-" + name + ".cfg"), String.join("\n", lines) + "\n");
    }

    @AfterAll
    static void stop() throws Exception {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void theToolsAreListedAsConfiguredAndABrokenOneIsNot() throws Exception {
        try (McpClient client = McpClient.connect(server.url(), "commands-it", T)) {
            JsonNode echo = client.tool("echo");
            assertEquals("Prints each argument in brackets", echo.path("description").asString());
            assertEquals("Echo", echo.path("title").asString(), echo.toString());
            assertTrue(echo.path("annotations").path("readOnlyHint").asBoolean(), echo.toString());
            assertEquals("string", echo.path("inputSchema").path("properties").path("text").path("type").asString(),
                    echo.toString());
            assertEquals("text", echo.path("inputSchema").path("required").get(0).asString(), echo.toString());
            assertFalse(client.toolNames().contains("broken"));
        }
        assertTrue(server.logLines("io.quiver.tools.command-broken.cfg: argv's first element (the program) must be"
                + " written out") > 0, server.log());
    }

    @Test
    void injectedShellSyntaxAndOptionsRunNothing() throws Exception {
        List<Path> wouldExist = new ArrayList<>();
        try (McpClient client = McpClient.connect(server.url(), "commands-it", T)) {
            int i = 0;
            for (String form : List.of("; touch %s", "$(touch %s)", "`touch %s`", "x\ntouch %s", "| touch %s",
                    "&& touch %s", "' ; touch %s ; '", "\" ; touch %s ; \"", "${IFS}touch${IFS}%s")) {
                Path marker = markers.resolve("injected-" + i++);
                wouldExist.add(marker);
                String payload = form.formatted(marker);
                assertEquals("[" + payload + "]\n", text(ok(client.callTool("echo", Map.of("text", payload)))), payload);
                assertEquals("[" + payload + "](" + payload + ")",
                        text(ok(client.callTool("shell_echo", Map.of("text", payload)))), payload);
            }
            // option injection: the program would create the file named by --output=
            for (String form : List.of("--output=%s", "-o%s", "--output=%s --", "-")) {
                Path marker = markers.resolve("option-" + i++);
                wouldExist.add(marker);
                String payload = form.formatted(marker);
                JsonNode refused = client.callTool("opts", Map.of("name", payload)).path("result");
                assertTrue(refused.path("isError").asBoolean(), refused.toString());
                assertTrue(text(refused).startsWith("The command was not run: the argument 'name'"), refused.toString());
                JsonNode refusedInShell = client.callTool("shell_echo", Map.of("text", payload)).path("result");
                assertTrue(refusedInShell.path("isError").asBoolean(), refusedInShell.toString());
            }
            // after a literal -- it is a name like any other, and the program reads it as one
            Path marker = markers.resolve("after-dashes");
            wouldExist.add(marker);
            assertEquals("name=--output=" + marker + "\n",
                    text(ok(client.callTool("opts_after", Map.of("name", "--output=" + marker)))));
            assertEquals("name=plain\n", text(ok(client.callTool("opts", Map.of("name", "plain")))));
        }
        // the markers would show an injection: the program run by hand with the option does create its file
        Path probe = markers.resolve("probe");
        Process direct = new ProcessBuilder("/bin/sh", scripts.resolve("opts.sh").toString(), "--output=" + probe).start();
        assertEquals(0, direct.waitFor());
        assertTrue(Files.exists(probe), "opts.sh --output=FILE creates FILE");
        for (Path p : wouldExist) {
            assertFalse(Files.exists(p), "nothing ran: " + p);
        }
        try (var left = Files.list(markers)) {
            assertEquals(List.of(), left.filter(p -> p.getFileName().toString().matches("injected-.*|option-.*|after-.*"))
                    .toList());
        }
    }

    @Test
    void theEnvironmentIsTheAllowListAndTheConfiguredVariables() throws Exception {
        try (McpClient client = McpClient.connect(server.url(), "commands-it", T)) {
            String env = text(ok(client.callTool("env", Map.of())));
            List<String> names = env.lines().map(l -> l.substring(0, Math.max(0, l.indexOf('=')))).toList();
            assertTrue(names.contains("PATH") && env.contains("GREETING=hello\n"), env);
            assertTrue(names.stream().allMatch(n -> n.equals("PATH") || n.equals("GREETING") || n.startsWith("QUIVER_")),
                    "nothing else of Quiver's environment (HOME, JAVA_HOME, ...): " + env);
        }
    }

    @Test
    void aTimeoutStopsTheWholeProcessTree() throws Exception {
        Path pids = server.home().resolve("pids-timeout");
        try (McpClient client = McpClient.connect(server.url(), "commands-it", T)) {
            long start = System.nanoTime();
            McpClient.Call call = client.send("tools/call", client.toolCall("tree", Map.of(), null));
            List<ProcessHandle> tree = tree(pids);
            JsonNode result = call.response(T).path("result");
            assertTrue(result.path("isError").asBoolean(), result.toString());
            assertTrue(text(result).startsWith("The command timed out after 1500 ms and was stopped, with the processes"
                    + " it started. Its output until then:\nstarted"), result.toString());
            assertTrue(Duration.ofNanos(System.nanoTime() - start).compareTo(Duration.ofMillis(1500)) >= 0);
            for (ProcessHandle p : tree) {
                awaitGone(p);
            }
        }
    }

    @Test
    void aCancelledCallStopsTheWholeProcessTree() throws Exception {
        Path pids = server.home().resolve("pids-cancel");
        try (McpClient client = McpClient.connect(server.url(), "commands-it", T)) {
            McpClient.Call call = client.send("tools/call", client.toolCall("tree_cancel", Map.of(), null));
            List<ProcessHandle> tree = tree(pids);
            assertEquals(202, client.notify("notifications/cancelled", Map.of("requestId", call.id(), "reason", "test")));
            for (ProcessHandle p : tree) {
                awaitGone(p);
            }
            assertTrue(client.ping(), "the server serves on");
        }
    }

    /**
     * For a 2026-07-28 client, closing the connection is how it cancels (nothing else is sent): the
     * command's processes end at once, long before the tool's 60 s timeout, though nothing was written
     * to the connection meanwhile.
     */
    @Test
    void closingTheConnectionCancelsAStatelessCall() throws Exception {
        Path pids = server.home().resolve("pids-disconnect");
        List<ProcessHandle> tree;
        try (Probe.Raw raw = new Probe.Raw(server.url())) {
            raw.send(statelessPost("tree_disconnect", Map.of()));
            tree = tree(pids);
            Thread.sleep(300); // the request has been pending a while: watched, not just arrived
        }
        long closed = System.nanoTime();
        for (ProcessHandle p : tree) {
            awaitGone(p);
        }
        long ms = (System.nanoTime() - closed) / 1_000_000;
        assertTrue(ms < 10_000, "the processes ended " + ms + " ms after the client closed (the tool's timeout is 60 s)");
        JsonNode audit = KeyedCalls.awaitAudit(server.home(), e -> "tree_disconnect".equals(e.path("tool").asString()), T);
        assertEquals("CANCELLED", audit.path("ending").asString(), audit.toString());
    }

    /**
     * A client that sends its next request on the same connection while the last is still pending (so
     * the server is watching that connection for a close) gets both answers, in order.
     */
    @Test
    void aRequestSentWhileTheLastIsPendingIsAnsweredAfterIt() throws Exception {
        try (Probe.Raw raw = new Probe.Raw(server.url())) {
            raw.send(statelessPost("nap", Map.of()));
            Thread.sleep(300);
            raw.send(statelessPost("echo", Map.of("text", "after")));
            assertEquals("napped\n", resultText(raw));
            assertEquals("[after]\n", resultText(raw));
        }
    }

    private static String statelessPost(String tool, Map<String, Object> arguments) throws Exception {
        return Probe.statelessPost(server.url(), "tools/call", tool, Map.of("name", tool, "arguments", arguments));
    }

    /** The first text block of the next JSON answer on the connection. */
    private static String resultText(Probe.Raw raw) throws IOException {
        return text(ok(raw.json()));
    }

    @Test
    void whatACommandLeftRunningEndsWithItsCall() throws Exception {
        Path pid = server.home().resolve("pids-leave").resolve("left");
        try (McpClient client = McpClient.connect(server.url(), "commands-it", T)) {
            JsonNode result = ok(client.callTool("leave", Map.of()));
            assertEquals("done\n", text(result), "the command's output, not held open by the sleep: " + result);
            ProcessHandle left = ProcessHandle.of(pid(pid)).orElse(null);
            assertFalse(left != null && running(left), "the sleep the command left ended with the call");
        } finally {
            ProcessHandle.of(pid(pid)).ifPresent(ProcessHandle::destroyForcibly);
        }
    }

    @Test
    void aCommandAsksThroughTheEnvelopeAndRunsAgainWithTheAnswer() throws Exception {
        Path runs = markers.resolve("ask.runs");
        Files.deleteIfExists(runs);
        JsonNode first = stateless("ask", Map.of("site", "prod"), null, null);
        assertEquals("input_required", first.path("resultType").asString(), first.toString());
        JsonNode question = first.path("inputRequests").path("branch");
        assertEquals("elicitation/create", question.path("method").asString(), first.toString());
        assertEquals("Which branch?", question.path("params").path("message").asString(), first.toString());
        assertEquals(List.of("{}"), Files.readAllLines(runs), "one run, without answers");

        JsonNode done = stateless("ask", Map.of("site", "prod"), first.path("requestState").asString(),
                Map.of("branch", Map.of("action", "accept", "content", Map.of("name", "main"))));
        assertFalse(done.path("isError").asBoolean(), done.toString());
        assertEquals("deploying main to prod", text(done), done.toString());
        // a 2026-07-28 retry runs with the answers its requestState holds (none yet), asks the same again, and
        // takes the retry's answer: then the command runs with it
        List<String> seen = Files.readAllLines(runs);
        assertEquals("{\"branch\":{\"action\":\"accept\",\"content\":{\"name\":\"main\"}}}", seen.get(seen.size() - 1),
                seen.toString());
        assertTrue(seen.subList(0, seen.size() - 1).stream().allMatch("{}"::equals), seen.toString());
    }

    @Test
    void aSecretReachesTheCommandOnStdinAndNeverThroughItsEnvironment() throws Exception {
        JsonNode first = stateless("secret", Map.of(), null, null);
        assertEquals("input_required", first.path("resultType").asString(), first.toString());
        JsonNode done = stateless("secret", Map.of(), first.path("requestState").asString(),
                Map.of("token", Map.of("action", "accept", "content", Map.of("answer", "s3cret"))));
        assertFalse(done.path("isError").asBoolean(), done.toString());
        assertEquals("answers {\"token\":{\"action\":\"accept\",\"content\":{\"answer\":\"s3cret\"}}}, in the"
                + " environment: no", text(done), done.toString());

        JsonNode refused = stateless("secret_env", Map.of(), null, null);
        assertTrue(refused.path("isError").asBoolean(), "answersVia = env: the user is not asked: " + refused);
        assertTrue(text(refused).contains("The tool's configuration needs answersVia = stdin."), refused.toString());
        assertTrue(server.logLines("Command tool secret_env (") > 0, server.log());
    }

    @Test
    void aSessionClientIsAskedOnItsCallsStream() throws Exception {
        URI uri = URI.create(server.url());
        McpSyncClient sdk = io.modelcontextprotocol.client.McpClient.sync(HttpClientStreamableHttpTransport
                .builder(server.base()).endpoint(uri.getPath()).build())
                .requestTimeout(T)
                .capabilities(McpSchema.ClientCapabilities.builder().elicitation().build())
                .elicitation(request -> new McpSchema.ElicitResult(McpSchema.ElicitResult.Action.ACCEPT,
                        Map.of("name", "release-" + request.message().length())))
                .build();
        try {
            sdk.initialize();
            McpSchema.CallToolResult result = sdk.callTool(new McpSchema.CallToolRequest("ask", Map.of("site", "staging")));
            assertEquals("deploying release-" + "Which branch?".length() + " to staging",
                    ((McpSchema.TextContent) result.content().get(0)).text());
        } finally {
            sdk.closeGracefully();
        }
    }

    @Test
    void fiftyMegabytesOfOutputAreCutAtTheLimitAndNeverHeld() throws Exception {
        boolean measurable = ProcessStats.available();
        ProcessStats before = measurable ? ProcessStats.of(server.pid()) : null;
        try (McpClient client = McpClient.connect(server.url(), "commands-it", Duration.ofSeconds(120))) {
            McpClient.Call call = client.send("tools/call", client.toolCall("flood", Map.of(), null));
            // the command has written all 50 MB (a pipe holds 64 KB): Quiver has read them while it waits
            await(() -> Files.exists(markers.resolve("flood.written")), "the command wrote its 50 MB");
            if (measurable) {
                ProcessStats during = ProcessStats.of(server.pid());
                long grownKiB = during.heapUsedKiB() - before.heapUsedKiB();
                assertTrue(grownKiB < 20 * 1024, "the server holds the kept output, not all of it: the heap in use grew"
                        + " by " + grownKiB + " KiB while the command waited");
            }
            Files.writeString(markers.resolve("flood.release"), "go");
            JsonNode result = call.response(Duration.ofSeconds(120)).path("result");
            assertFalse(result.path("isError").asBoolean(), result.toString().substring(0, 300));
            String text = text(result);
            assertTrue(text.startsWith("xxxx"));
            String note = "\n[output cut: the command wrote 52428800 bytes; the first 262144 are shown (maxOutputBytes)]";
            assertTrue(text.endsWith(note), text.substring(text.length() - 200));
            assertEquals(262144 + note.length(), text.length());
            assertTrue(client.ping(), "the server serves on");
        }
    }

    @Test
    void stderrLinesArriveAsProgress() throws Exception {
        try (McpClient client = McpClient.connect(server.url(), "commands-it", T)) {
            McpClient.Call call = client.send("tools/call", client.toolCall("progress", Map.of(), "tok-1"));
            JsonNode result = call.response(T).path("result");
            assertEquals("ok\n", text(result), result.toString());
            List<String> messages = call.stream().history().stream()
                    .filter(m -> "notifications/progress".equals(m.path("method").asString("")))
                    .map(m -> m.path("params").path("message").asString("")).toList();
            assertEquals(List.of("step 1", "step 2", "step 3"), messages, call.stream().history().toString());
        }
    }

    // -------------------------------------------------------------------------------------------

    /** The parent, child, grandchild and orphan of tree.sh, once all have written their pids (all alive then). */
    private static List<ProcessHandle> tree(Path pids) throws Exception {
        List<String> names = List.of("parent", "child", "grandchild", "orphan");
        await(() -> names.stream().allMatch(n -> pid(pids.resolve(n)) > 0), "tree.sh started its processes");
        List<ProcessHandle> tree = new ArrayList<>();
        for (String n : names) {
            ProcessHandle p = ProcessHandle.of(pid(pids.resolve(n))).orElse(null);
            assertNotNull(p, n + " is running");
            tree.add(p);
            Files.delete(pids.resolve(n));
        }
        return tree;
    }

    private static long pid(Path file) {
        try {
            String text = Files.readString(file).strip();
            return text.isEmpty() ? -1 : Long.parseLong(text);
        } catch (IOException | NumberFormatException e) {
            return -1;
        }
    }

    /** The process ended (a zombie its new parent has not reaped yet counts as ended). */
    private static void awaitGone(ProcessHandle p) throws Exception {
        await(() -> !running(p), "process " + p.pid() + " ended");
    }

    private static boolean running(ProcessHandle p) {
        if (!p.isAlive()) {
            return false;
        }
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(p.pid()), "stat"));
            return stat.charAt(stat.lastIndexOf(')') + 2) != 'Z';
        } catch (IOException e) {
            return Files.isDirectory(Path.of("/proc/self")) ? false : p.isAlive();
        }
    }

    private static JsonNode ok(JsonNode response) {
        JsonNode result = response.path("result");
        assertFalse(result.path("isError").asBoolean(true), response.toString());
        return result;
    }

    private static String text(JsonNode result) {
        StringBuilder out = new StringBuilder();
        result.path("content").forEach(c -> out.append(c.path("text").asString("")));
        return out.toString();
    }

    private static List<String> names(McpClient client) {
        try {
            return client.toolNames();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static void await(BooleanSupplier condition, String what) throws Exception {
        Await.until(condition::getAsBoolean, T, () -> what + "\n" + server.log());
    }

    /** A 2026-07-28 {@code tools/call} that can be asked, and its retry with the answers when {@code requestState} is given. */
    private static JsonNode stateless(String tool, Map<String, Object> arguments, String requestState,
            Map<String, Object> answers) throws Exception {
        Map<String, Object> meta = new LinkedHashMap<>();
        meta.put("io.modelcontextprotocol/protocolVersion", "2026-07-28");
        meta.put("io.modelcontextprotocol/clientCapabilities", Map.of("elicitation", Map.of()));
        meta.put("io.modelcontextprotocol/clientInfo", Map.of("name", "commands-it", "version", "1"));
        Map<String, Object> params = new LinkedHashMap<>();
        params.put("name", tool);
        params.put("arguments", arguments);
        params.put("_meta", meta);
        if (requestState != null) {
            params.put("requestState", requestState);
            params.put("inputResponses", answers);
        }
        HttpRequest request = HttpRequest.newBuilder(URI.create(server.url())).timeout(T)
                .header("Content-Type", "application/json").header("Accept", "application/json, text/event-stream")
                .header("MCP-Protocol-Version", "2026-07-28").header("Mcp-Method", "tools/call").header("Mcp-Name", tool)
                .POST(HttpRequest.BodyPublishers.ofString(McpClient.JSON.writeValueAsString(Map.of("jsonrpc", "2.0",
                        "id", 7, "method", "tools/call", "params", params)))).build();
        HttpResponse<String> response = HTTP.send(request, HttpResponse.BodyHandlers.ofString());
        assertEquals(200, response.statusCode(), response.body());
        JsonNode body = McpClient.JSON.readTree(response.body());
        assertTrue(body.has("result"), body.toString());
        return body.get("result");
    }
}
