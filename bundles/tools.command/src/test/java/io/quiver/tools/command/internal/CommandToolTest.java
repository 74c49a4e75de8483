package io.quiver.tools.command.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.quiver.api.CallerIdentity;
import io.quiver.api.Outcome;
import io.quiver.api.ToolResult;
import io.quiver.api.content.TextContent;
import io.quiver.api.input.InputRequest;
import io.quiver.api.input.InputResponse;
import io.quiver.lib.external.ProcessTree;
import io.quiver.testing.FakeToolCall;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/** Real commands through {@code /bin/sh}: what a configured tool runs and answers. */
@EnabledOnOs({OS.LINUX, OS.MAC})
class CommandToolTest {

    @TempDir
    Path dir;

    private final Runs runs = new Runs();

    @AfterEach
    void stopAll() {
        runs.close();
    }

    private CommandTool tool(Object... keyValues) {
        Map<String, Object> p = new HashMap<>();
        p.put("service.pid", "io.quiver.tools.command~test");
        for (int i = 0; i < keyValues.length; i += 2) {
            p.put((String) keyValues[i], keyValues[i + 1]);
        }
        CommandSpec.Read read = CommandSpec.read(p, dir);
        assertEquals(List.of(), read.problems());
        return new CommandTool(read.spec(), runs);
    }

    /** A shell tool running a script file written here. */
    private CommandTool script(String body, Object... more) throws Exception {
        Path file = dir.resolve("script-" + System.nanoTime() + ".sh");
        Files.writeString(file, body);
        Object[] all = new Object[more.length + 2];
        all[0] = "argv";
        all[1] = List.of("/bin/sh", file.toString());
        for (int i = 0; i < more.length; i++) {
            all[i + 2] = more[i] instanceof List<?> l ? l.stream().map(e -> "SCRIPT".equals(e) ? file.toString() : e).toList()
                    : more[i];
        }
        return tool(all);
    }

    /** A first attempt by tenant acme, project site, from a client that can be asked (elicitation). */
    private static FakeToolCall attempt(Map<String, Object> arguments) {
        return FakeToolCall.of(arguments).withCaller(CallerIdentity.ANONYMOUS.in("acme", "site"))
                .withCapabilities(Map.of("elicitation", Map.of()));
    }

    private static String text(Outcome outcome) {
        ToolResult r = assertInstanceOf(Outcome.Done.class, outcome).result();
        StringBuilder b = new StringBuilder();
        r.content().forEach(c -> b.append(((TextContent) c).text()));
        return b.toString();
    }

    private static boolean isError(Outcome outcome) {
        return assertInstanceOf(Outcome.Done.class, outcome).result().isError();
    }

    @Test
    void argumentsAreArgvElementsAndNeverReachAShellAsText() throws Exception {
        Path marker = dir.resolve("marker");
        CommandTool direct = tool("argv", List.of("printf", "[%s]\\n", "{text}"));
        CommandTool shell = tool("shell", "true", "script", "printf '[%s]' \"$1\"; printf '(%s)' \"$QUIVER_ARG_TEXT\"",
                "argv", "{text}", "optionArguments", "text");
        for (String payload : List.of("; touch " + marker, "$(touch " + marker + ")", "`touch " + marker + "`",
                "x\ntouch " + marker, "| touch " + marker, "' ; touch " + marker + " ; '", "\" && touch " + marker + " \"")) {
            assertEquals("[" + payload + "]\n", text(direct.call(attempt(Map.of("text", payload)))));
            assertEquals("[" + payload + "](" + payload + ")", text(shell.call(attempt(Map.of("text", payload)))));
        }
        assertFalse(Files.exists(marker), "no payload ran");
    }

    @Test
    void anOptionThroughAnArgumentIsRefusedAndNothingRuns() throws Exception {
        Path ran = dir.resolve("ran");
        CommandTool t = script("touch " + ran + "; echo \"$@\"\n", "argv", List.of("/bin/sh", "SCRIPT", "{name}"));
        Outcome refused = t.call(attempt(Map.of("name", "--output=/etc/x")));
        assertTrue(isError(refused));
        assertTrue(text(refused).startsWith("The command was not run: the argument 'name'"), text(refused));
        assertFalse(Files.exists(ran));
    }

    @Test
    void theEnvironmentIsTheAllowListTheConfiguredVariablesAndQuiversOwn() throws Exception {
        CommandTool t = tool("argv", "env", "inheritEnv", "PATH", "env", "GREETING=hello");
        String env = text(t.call(attempt(Map.of())));
        List<String> names = env.lines().map(l -> l.substring(0, l.indexOf('='))).toList();
        assertTrue(names.contains("PATH") && names.contains("GREETING"), env);
        assertFalse(names.contains("HOME") || names.contains("JAVA_HOME") || names.contains("USER"), env);
        assertTrue(env.contains("QUIVER_TENANT=acme") && env.contains("QUIVER_PROJECT=site")
                && env.contains("QUIVER_TOOL=test") && env.contains("QUIVER_CLIENT_ELICITATION=true")
                && env.contains("QUIVER_ANSWERS={}") && env.contains("QUIVER_ARGS={}"), env);
        assertTrue(names.stream().allMatch(n -> n.equals("PATH") || n.equals("GREETING") || n.startsWith("QUIVER_")),
                env);
    }

    @Test
    void onlyTheArgumentsTheSchemaDeclaresGetAVariableAndAnAbsentOneItsDefault() throws Exception {
        // the docs' shell example: dir limited by an enum, the schema silent on other properties
        String schema = """
                {"type": "object", "required": ["pattern"], "properties": {
                  "pattern": {"type": "string"},
                  "dir": {"type": "string", "enum": ["docs", "src"], "default": "docs"}}}""";
        CommandTool t = tool("shell", "true", "script", "printf '%s|%s' \"$QUIVER_ARG_DIR\" \"${QUIVER_ARG_OTHER-unset}\"",
                "argv", "{pattern}", "inputSchema", schema);
        for (boolean declaredFirst : new boolean[] {true, false}) {
            Map<String, Object> arguments = new java.util.LinkedHashMap<>();
            arguments.put("pattern", "x");
            if (declaredFirst) {
                arguments.put("dir", "src");
            }
            arguments.put("DIR", "/etc");
            arguments.put("Dir", "/etc");
            arguments.put("other", "/etc");
            if (!declaredFirst) {
                arguments.put("dir", "src");
            }
            assertEquals("src|unset", text(t.call(attempt(arguments))), "declared first: " + declaredFirst);
        }
        Map<String, Object> withoutDir = new java.util.LinkedHashMap<>(Map.of("pattern", "x"));
        withoutDir.put("DIR", "/etc");
        assertEquals("docs|unset", text(t.call(attempt(withoutDir))), "the default, not the undeclared DIR");
    }

    @Test
    void theWorkingDirectory() throws Exception {
        Files.createDirectories(dir.resolve("work"));
        assertEquals(dir.resolve("work").toRealPath().toString(),
                text(tool("argv", "pwd", "workingDirectory", "work").call(attempt(Map.of()))).strip());
        Outcome missing = tool("argv", "pwd", "workingDirectory", "nowhere").call(attempt(Map.of()));
        assertTrue(isError(missing) && text(missing).contains("does not exist"), text(missing));
    }

    @Test
    void theOutcomeEnvelopeAsksAndTheNextRunHasTheAnswers() throws Exception {
        CommandTool t = script("""
                case "$QUIVER_ANSWERS" in
                  *'"branch"'*) printf 'deploying %s to %s' "$(printf '%s' "$QUIVER_ANSWERS" | sed 's/.*"name":"\\([^"]*\\)".*/\\1/')" "$1" ;;
                  *) printf '{"io.quiver/outcome": "needs_input", "requests": [{"key": "branch", "message": "Which branch?",'
                     printf ' "schema": {"type": "object", "properties": {"name": {"type": "string"}}}}]}' ;;
                esac
                """, "argv", List.of("/bin/sh", "SCRIPT", "{site}"));
        Outcome asks = t.call(attempt(Map.of("site", "prod")));
        InputRequest.Elicitation q = (InputRequest.Elicitation) assertInstanceOf(Outcome.NeedsInput.class, asks).requests().get(0);
        assertEquals("branch", q.key());
        assertEquals("Which branch?", q.message());
        Outcome done = t.call(attempt(Map.of("site", "prod"))
                .answered("branch", new InputResponse.Elicited("accept", Map.of("name", "main"))));
        assertEquals("deploying main to prod", text(done));
        assertEquals("{\"branch\":{\"action\":\"accept\",\"content\":{\"name\":\"main\"}}}",
                CommandTool.answers(Map.of("branch", new InputResponse.Elicited("accept", Map.of("name", "main")))));
    }

    /** A script that asks for a secret, {@code token}, unless its answers (read by {@code answers}) hold it. */
    private static String asksForASecret(String answers) {
        return "answers=" + answers + "\n" + """
                case "$answers" in
                  *'"token"'*)
                    if grep -a -q s3cret /proc/$$/environ 2>/dev/null; then echo 'in the environment'; fi
                    printf 'answers %s, QUIVER_ANSWERS %s' "$answers" "${QUIVER_ANSWERS-unset}" ;;
                  *) printf '{"io.quiver/outcome": "needs_input", "requests": [{"key": "token",'
                     printf ' "message": "Your token?", "sensitive": true}]}' ;;
                esac
                """;
    }

    @Test
    void withAnswersInTheEnvironmentACommandThatAsksForASecretIsRefused() throws Exception {
        CommandTool t = script(asksForASecret("\"$QUIVER_ANSWERS\""), "troubleshootingHint", "Ask the operator.");
        Outcome refused = t.call(attempt(Map.of()));
        assertTrue(isError(refused), "the user is not asked for a secret the environment would carry: " + refused);
        assertEquals("The command asked for a secret (request 'token'), but this tool passes answers in its"
                + " environment, which other processes of the same user can read; the user was not asked. The tool's"
                + " configuration needs answersVia = stdin.\nAsk the operator.", text(refused));
    }

    @Test
    void withAnswersOnStdinASecretReachesTheCommandAndNotItsEnvironment() throws Exception {
        CommandTool t = script(asksForASecret("$(cat)"), "answersVia", "stdin");
        Outcome asks = t.call(attempt(Map.of()));
        InputRequest.Elicitation q = (InputRequest.Elicitation) assertInstanceOf(Outcome.NeedsInput.class, asks)
                .requests().get(0);
        assertTrue(q.sensitive());
        Outcome done = t.call(attempt(Map.of())
                .answered("token", new InputResponse.Elicited("accept", Map.of("answer", "s3cret"))));
        assertEquals("answers {\"token\":{\"action\":\"accept\",\"content\":{\"answer\":\"s3cret\"}}},"
                + " QUIVER_ANSWERS unset", text(done), "stdin has the answers (and its end); the environment has not");
        assertEquals("answers {}, QUIVER_ANSWERS unset",
                text(script("printf 'answers %s, QUIVER_ANSWERS %s' \"$(cat)\" \"${QUIVER_ANSWERS-unset}\"",
                        "answersVia", "stdin").call(attempt(Map.of()))), "no answers yet: {}");
        assertEquals("no input\n", text(script("if read -r line; then echo \"$line\"; else echo 'no input'; fi")
                .call(attempt(Map.of()))), "with answersVia = env stdin is closed at once");
    }

    @Test
    void doneAndErrorEnvelopesAndExitStatuses() throws Exception {
        ToolResult done = assertInstanceOf(Outcome.Done.class, script("printf '{\"io.quiver/outcome\": \"done\","
                + " \"content\": \"ok\", \"structuredContent\": {\"n\": 1}}'").call(attempt(Map.of()))).result();
        assertEquals(Map.of("n", 1), done.structuredContent());
        Outcome error = script("echo '{\"io.quiver/outcome\": \"error\", \"message\": \"no disk\"}'")
                .call(attempt(Map.of()));
        assertTrue(isError(error));
        assertEquals("no disk", text(error));
        Outcome failed = script("echo partial; echo 'it broke' >&2; exit 3", "troubleshootingHint", "Check the disk.")
                .call(attempt(Map.of()));
        assertTrue(isError(failed));
        assertEquals("The command exited with status 3. Its output:\npartial\n\nThe last lines of its stderr:\nit broke\n"
                + "Check the disk.", text(failed));
        Outcome asksButFails = script("printf '{\"io.quiver/outcome\": \"needs_input\", \"requests\": [{\"key\": \"k\","
                + " \"message\": \"m\"}]}'; exit 1").call(attempt(Map.of()));
        assertTrue(isError(asksButFails), "a failed command is not asked for input");
        Outcome off = tool("argv", List.of("printf", "{{\"io.quiver/outcome\": \"error\", \"message\": \"x\"}}"),
                "outcomeEnvelope", "false").call(attempt(Map.of()));
        assertEquals("{\"io.quiver/outcome\": \"error\", \"message\": \"x\"}", text(off), "{{ and }} are braces");
        assertFalse(isError(off), "an envelope is plain text when the tool does not read envelopes");
        assertEquals("The command finished and printed nothing.", text(tool("argv", "true").call(attempt(Map.of()))));
    }

    @Test
    void fiftyMegabytesAreReadAndDiscardedPastTheLimit() throws Exception {
        long start = System.nanoTime();
        Outcome o = script("head -c 52428800 /dev/zero | tr '\\0' 'x'; echo finished >&2", "maxOutputBytes", "65536")
                .call(attempt(Map.of()));
        String text = text(o);
        assertFalse(isError(o), text.substring(Math.max(0, text.length() - 300)));
        assertTrue(text.startsWith("xxxx"));
        assertTrue(text.endsWith("[output cut: the command wrote 52428800 bytes; the first 65536 are shown (maxOutputBytes)]"),
                text.substring(text.length() - 200));
        assertTrue(text.length() < 65536 + 200);
        assertTrue(Duration.ofNanos(System.nanoTime() - start).toSeconds() < 30);
    }

    @Test
    void aCharacterCutInTwoIsLeftOut() {
        byte[] euro = "ab€".getBytes(java.nio.charset.StandardCharsets.UTF_8);
        assertEquals("ab", CommandRun.text(java.util.Arrays.copyOf(euro, 4), true));
        assertEquals("ab€", CommandRun.text(euro, true));
    }

    @Test
    void aTimeoutStopsTheWholeTree() throws Exception {
        Path pids = dir.resolve("pids");
        CommandTool t = script("sh -c 'sleep 300 & echo $! >> " + pids + "; wait' & echo $! >> " + pids + "; echo $$ >> "
                + pids + "; echo started; wait\n", "timeoutMs", "1000");
        long start = System.nanoTime();
        Outcome o = t.call(attempt(Map.of()));
        long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        assertTrue(isError(o));
        assertTrue(text(o).startsWith("The command timed out after 1000 ms and was stopped, with the processes it started."
                + " Its output until then:\nstarted"), text(o));
        assertTrue(ms >= 1000 && ms < 1000 + CommandRun.KILL_GRACE_MS + CommandRun.DRAIN_MS, ms + " ms");
        List<String> lines = Files.readAllLines(pids);
        assertEquals(3, lines.size(), lines.toString());
        for (String pid : lines) {
            assertGone(Long.parseLong(pid.strip()));
        }
    }

    @Test
    void whatACommandLeftRunningEndsWithItsCall() throws Exception {
        assumeTrue(ProcessTree.sessions(), "commands run in sessions of their own (Linux, util-linux setsid)");
        Path pid = dir.resolve("pid");
        String marker = marker();
        // a double-forked sleep that keeps the command's stdout and stderr open
        CommandTool t = script("(sleep " + marker + " & echo $! > " + pid + "); echo done\n", "name", "leaves");
        try {
            Outcome o = t.call(attempt(Map.of()));
            assertEquals("done\n", text(o), "the output is the command's, and nothing held it open");
            assertFalse(running(Long.parseLong(Files.readString(pid).strip())), "the sleep ended with the call");
            assertEquals(List.of(), withMarker(marker));
            assertReadersEnded("leaves");
        } finally {
            kill(marker);
        }
    }

    @Test
    void aTimeoutStopsADoubleForkedProcessToo() throws Exception {
        assumeTrue(ProcessTree.sessions(), "commands run in sessions of their own (Linux, util-linux setsid)");
        Path pid = dir.resolve("pid");
        String marker = marker();
        // the subshell exits at once: its sleep is nobody's descendant any more
        CommandTool t = script("(sleep " + marker + " & echo $! > " + pid + "); echo started; sleep 300\n",
                "timeoutMs", "1000", "name", "forks");
        try {
            Outcome o = t.call(attempt(Map.of()));
            assertTrue(text(o).startsWith("The command timed out after 1000 ms"), text(o));
            assertGone(Long.parseLong(Files.readString(pid).strip()));
            assertEquals(List.of(), withMarker(marker));
            assertReadersEnded("forks");
        } finally {
            kill(marker);
        }
    }

    @Test
    void aCancelledCallStopsTheWholeTree() throws Exception {
        Path pids = dir.resolve("pids");
        CommandTool t = script("sleep 300 & echo $! >> " + pids + "; echo $$ >> " + pids + "; wait\n");
        FakeToolCall call = attempt(Map.of());
        CompletableFuture<Outcome> running = CompletableFuture.supplyAsync(() -> t.call(call));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!Files.exists(pids) || Files.readAllLines(pids).size() < 2) {
            assertTrue(System.nanoTime() < deadline, "the script did not start");
            Thread.sleep(10);
        }
        List<String> lines = Files.readAllLines(pids);
        call.context().cancel();
        Outcome o = running.get(10, TimeUnit.SECONDS);
        assertTrue(text(o).startsWith("The command was cancelled"), text(o));
        for (String pid : lines) {
            assertGone(Long.parseLong(pid.strip()));
        }
    }

    @Test
    void stoppingTheToolStopsItsRuns() throws Exception {
        Path pids = dir.resolve("pids");
        CommandTool t = script("sleep 300 & echo $! >> " + pids + "; wait\n");
        CompletableFuture<Outcome> running = CompletableFuture.supplyAsync(() -> t.call(attempt(Map.of())));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!Files.exists(pids) || Files.readAllLines(pids).isEmpty()) {
            assertTrue(System.nanoTime() < deadline, "the script did not start");
            Thread.sleep(10);
        }
        runs.close();
        assertTrue(text(running.get(10, TimeUnit.SECONDS)).startsWith("The command was cancelled"));
        assertGone(Long.parseLong(Files.readAllLines(pids).get(0).strip()));
        assertTrue(text(t.call(attempt(Map.of()))).contains("could not be started"), "no new run starts");
    }

    @Test
    void stderrGoesToProgressAndASlowClientNeverHoldsTheCommandUp() throws Exception {
        CommandTool t = script("i=0; while [ $i -lt 5000 ]; do echo \"line $i\" >&2; i=$((i+1)); done; echo done\n",
                "timeoutMs", "20000");
        FakeToolCall call = attempt(Map.of());
        call.context().onProgress(() -> {
            try {
                Thread.sleep(200); // a client that takes its time with every notification
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        long start = System.nanoTime();
        Outcome o = t.call(call);
        assertEquals("done\n", text(o));
        assertTrue(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start) < 15_000);
        List<String> progress = call.context().progressMessages();
        assertTrue(progress.size() < 5000, "lines that did not fit the queue were dropped");
        // each message is a line of stderr, in order, saying how many lines just before it were dropped
        java.util.regex.Pattern message = java.util.regex.Pattern.compile("(?:\\[(\\d+) lines skipped] )?line (\\d+)");
        int next = 0;
        for (String m : progress) {
            java.util.regex.Matcher matcher = message.matcher(m);
            assertTrue(matcher.matches(), m);
            int skipped = matcher.group(1) == null ? 0 : Integer.parseInt(matcher.group(1));
            assertEquals(next + skipped, Integer.parseInt(matcher.group(2)), "in order, the skipped ones counted: " + progress);
            next = Integer.parseInt(matcher.group(2)) + 1;
        }
        assertTrue(progress.stream().anyMatch(m -> m.startsWith("[")), progress.toString());

        FakeToolCall quick = attempt(Map.of());
        script("echo one >&2; echo two >&2; echo ok").call(quick);
        assertEquals(List.of("one", "two"), quick.context().progressMessages(),
                "a fast client gets every line, before the result");
    }

    @Test
    void aBackgroundProcessLeftRunningDoesNotHoldTheCallUp() throws Exception {
        Path pid = dir.resolve("pid");
        long start = System.nanoTime();
        Outcome o = script("sleep 30 & echo $! > " + pid + "; echo hi\n").call(attempt(Map.of()));
        try {
            // the JDK closes the pipes when the process exits, unless a read is in progress then: that one is given
            // DRAIN_MS more, and the result says so
            assertTrue(text(o).equals("hi\n") || text(o).equals("hi\n\n[a process the command left running still held its"
                    + " output open; Quiver stopped reading it " + CommandRun.DRAIN_MS + " ms after the command ended]"), text(o));
            assertTrue(TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start) < 10, "the call ends with the command");
        } finally {
            ProcessHandle.of(Long.parseLong(Files.readString(pid).strip())).ifPresent(ProcessHandle::destroyForcibly);
        }
    }

    /** The threads that read the tool's stdout and stderr have ended (they may still be finishing). */
    private static void assertReadersEnded(String tool) throws Exception {
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (t.getName().equals("quiver-command-" + tool + "-out") || t.getName().equals("quiver-command-" + tool + "-err")) {
                t.join(5_000);
                assertFalse(t.isAlive(), t.getName() + " still runs");
            }
        }
    }

    /** A {@code sleep} duration no other process has: 299.NNNNNNNNN seconds. */
    private static String marker() {
        return String.format("299.%09d", System.nanoTime() % 1_000_000_000L);
    }

    /** The running processes with an argument {@code marker}. */
    private static List<Long> withMarker(String marker) {
        return ProcessHandle.allProcesses()
                .filter(p -> p.info().arguments().map(a -> List.of(a).contains(marker)).orElse(false))
                .map(ProcessHandle::pid).filter(CommandToolTest::running).toList();
    }

    /** Kills what a failed test left. */
    private static void kill(String marker) {
        withMarker(marker).forEach(pid -> ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly));
    }

    /** The process has ended (a zombie not reaped yet counts as ended), within a deadline. */
    static void assertGone(long pid) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (running(pid)) {
            assertTrue(System.nanoTime() < deadline, "process " + pid + " is still running");
            Thread.sleep(10);
        }
    }

    private static boolean running(long pid) {
        if (ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)) {
            try {
                String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
                return stat.charAt(stat.lastIndexOf(')') + 2) != 'Z';
            } catch (java.io.IOException e) {
                return !Files.isDirectory(Path.of("/proc")); // not Linux: trust isAlive
            }
        }
        return false;
    }
}
