package io.quiver.itests.e2e;

import static io.quiver.itests.e2e.ToolBundles.GREETING_V1;
import static io.quiver.itests.e2e.ToolBundles.GREETING_V2;
import static io.quiver.itests.e2e.ToolBundles.TOOL;
import static io.quiver.itests.e2e.ToolBundles.TOOL_CLASS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quiver.itests.client.McpClient;
import io.quiver.itests.client.MessageStream;
import java.net.http.HttpTimeoutException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * A tool bundle installed, updated and uninstalled a hundred times while clients keep calling it.
 * Every call either succeeds with the greeting of the version installed at that moment or, when
 * it reached the server while the tool was not registered, is refused with invalid params; no call
 * hangs, and the server ends with the threads and memory it started with and no class loader of
 * any of the tool bundle's revisions.
 *
 * <p>The bundles go into a folder of their own that FileInstall polls every {@value #POLL_MS} ms
 * (configured through {@code etc/}, as an operator would), not {@code deploy/}, whose 1 s interval
 * would make a hundred cycles take minutes; {@link DeployIT} covers {@code deploy/} itself. Each
 * step waits for its visible effect before the next, so no change is lost between two polls.
 */
class HotSwapCyclesIT {

    private static final int CYCLES = Integer.getInteger("hotswap.cycles", 100);
    private static final int WARM_UP = 10;
    private static final String LIST_CHANGED = "notifications/tools/list_changed";
    private static final int CALLERS = 3;
    private static final long POLL_MS = 25;
    private static final Duration STEP_LIMIT = Duration.ofSeconds(15);
    private static final Duration CALL_TIMEOUT = Duration.ofSeconds(15);

    /** How a call ended. */
    enum Result { V1, V2, ABSENT, TOOL_ERROR, FAILED }

    private record Call(long start, long end, Result result, String detail) {
    }

    /** A time span in which one version of the tool was, as far as the test knows, steadily installed. */
    private record Window(long from, long to, Result version) {
        boolean contains(Call call) {
            return call.start() >= from && call.end() <= to;
        }
    }

    private final List<Call> calls = Collections.synchronizedList(new ArrayList<>());
    private final List<Window> steady = new ArrayList<>();

    @Test
    void installUpdateUninstallAHundredTimesWithCallsInFlight() throws Exception {
        Assumptions.assumeTrue(ProcessStats.available(), "needs /proc and jcmd");
        AtomicBoolean running = new AtomicBoolean(true);
        ExecutorService pool = Executors.newFixedThreadPool(CALLERS);
        List<McpClient> sessions = new ArrayList<>();
        try (QuiverServer server = QuiverServer.start("hotswap", "core,http",
                home -> ToolBundles.watchFolder(home.resolve("etc"), "hotswap", home.resolve("hot"), POLL_MS));
             McpClient control = McpClient.connect(server.url(), "hotswap-control", CALL_TIMEOUT)) {
            Path v1 = ToolBundles.exampleJar();
            Path v2 = ToolBundles.version2(v1, server.home().resolve("greeting-tool-v2.jar"));
            Cycler cycler = new Cycler(control, v1, v2, server.home().resolve("hot").resolve("greeting-tool.jar"));
            MessageStream announcements = control.openEventStream();

            // The callers run from the start, so the engine's thread pools reach their size in the warm-up.
            List<Future<?>> callers = new ArrayList<>();
            for (int i = 0; i < CALLERS; i++) {
                McpClient session = McpClient.connect(server.url(), "hotswap-caller-" + i, CALL_TIMEOUT);
                sessions.add(session);
                callers.add(pool.submit(() -> callInALoop(session, running)));
            }
            for (int i = 0; i < WARM_UP; i++) {
                cycler.cycle();
            }
            // the count at the end would see a revision left behind as it sees one installed
            cycler.install();
            int installedLoaders = ProcessStats.loadersDefining(server.pid(), TOOL_CLASS);
            cycler.uninstall();
            assertTrue(installedLoaders >= 1, "an installed tool bundle has a class loader: " + installedLoaders);
            ProcessStats before = ProcessStats.of(server.pid());
            int announcedBefore = announcements.count(LIST_CHANGED);
            long t0 = System.nanoTime();
            for (int i = 0; i < CYCLES; i++) {
                cycler.cycle();
            }
            long cyclesMs = (System.nanoTime() - t0) / 1_000_000L;
            ProcessStats after = ProcessStats.of(server.pid());
            int toolLoaders = toolLoadersOnceRefreshed(server.pid());
            int announced = announcements.count(LIST_CHANGED) - announcedBefore;
            running.set(false);
            for (Future<?> caller : callers) {
                caller.get(CALL_TIMEOUT.toSeconds() + 5, TimeUnit.SECONDS);
            }

            Map<Result, Integer> counts = new EnumMap<>(Result.class);
            for (Result r : Result.values()) {
                counts.put(r, 0);
            }
            List<String> problems = new ArrayList<>();
            synchronized (calls) {
                for (Call call : calls) {
                    counts.merge(call.result(), 1, Integer::sum);
                    Window window = steady.stream().filter(w -> w.contains(call)).findFirst().orElse(null);
                    if (call.result() == Result.FAILED || call.result() == Result.TOOL_ERROR) {
                        problems.add(call.result() + ": " + call.detail());
                    } else if (window != null && call.result() != window.version()) {
                        problems.add(call.result() + " while " + window.version() + " was installed: " + call.detail());
                    }
                }
            }
            System.err.printf("HotSwapCyclesIT: %d cycles in %d ms (%d ms each; median install %d, update %d,"
                    + " uninstall %d ms); %d tools/list_changed; calls %s%n  before: %s%n  after:  %s;"
                    + " %d class loaders of the tool bundle%n",
                    CYCLES, cyclesMs, cyclesMs / CYCLES, cycler.median(0), cycler.median(1), cycler.median(2),
                    announced, counts, before, after, toolLoaders);

            assertTrue(problems.isEmpty(), problems.size() + " of " + calls.size() + " calls went wrong, e.g. "
                    + problems.subList(0, Math.min(10, problems.size())));
            assertTrue(counts.get(Result.V1) > CYCLES && counts.get(Result.V2) > CYCLES,
                    "both versions answered many calls: " + counts);
            assertTrue(after.threads() <= before.threads() + 10, "threads grew: before " + before + "; after " + after);
            assertTrue(after.heapUsedKiB() <= before.heapUsedKiB() + 50 * 1024,
                    "heap in use after GC grew: before " + before + "; after " + after);
            assertTrue(after.rssKiB() <= before.rssKiB() + 100 * 1024, "RSS grew: before " + before + "; after " + after);
            assertEquals(0, toolLoaders, "the class loaders of all the tool bundle's uninstalled revisions"
                    + " must be collected");
        } finally {
            running.set(false);
            pool.shutdownNow();
            sessions.forEach(McpClient::close);
        }
    }

    /**
     * The tool bundle's class loaders still alive once it is gone. The last uninstall is visible in
     * {@code tools/list} before FileInstall's refresh has let go of the revision, so a loader still
     * there is looked for again until the refresh has had {@link #STEP_LIMIT}.
     */
    private static int toolLoadersOnceRefreshed(long pid) throws Exception {
        long deadline = System.nanoTime() + STEP_LIMIT.toNanos();
        int loaders = ProcessStats.loadersDefining(pid, TOOL_CLASS);
        while (loaders > 0 && System.nanoTime() < deadline) {
            Thread.sleep(250);
            loaders = ProcessStats.loadersDefining(pid, TOOL_CLASS);
        }
        return loaders;
    }

    /** One client calling the tool until told to stop; every outcome is recorded. */
    private Void callInALoop(McpClient session, AtomicBoolean running) throws InterruptedException {
        while (running.get()) {
            long start = System.nanoTime();
            Result result;
            String detail;
            try {
                JsonNode response = session.callTool(TOOL, Map.of("name", "Ada"));
                detail = response.toString();
                int code = McpClient.errorCode(response);
                String text = response.path("result").path("structuredContent").path("text").asString("");
                if (code == McpClient.INVALID_PARAMS) {
                    result = Result.ABSENT;
                } else if (code != 0) {
                    result = Result.FAILED;
                } else if (response.path("result").path("isError").asBoolean(false)) {
                    result = Result.TOOL_ERROR;
                } else if (text.equals(GREETING_V1)) {
                    result = Result.V1;
                } else if (text.equals(GREETING_V2)) {
                    result = Result.V2;
                } else {
                    result = Result.FAILED;
                }
            } catch (HttpTimeoutException e) {
                result = Result.FAILED;
                detail = "no answer within " + CALL_TIMEOUT.toMillis() + " ms";
            } catch (Exception e) {
                result = Result.FAILED;
                detail = e.toString();
            }
            calls.add(new Call(start, System.nanoTime(), result, detail));
            Thread.sleep(2);
        }
        return null;
    }

    /** Drives the bundle through its cycle and times each step. */
    private final class Cycler {
        private final McpClient control;
        private final Path v1;
        private final Path v2;
        private final Path jar;
        private final List<List<Long>> stepMs = List.of(new ArrayList<>(), new ArrayList<>(), new ArrayList<>());
        /** The version installed, as of {@code since}. */
        private Result version;
        private long since;

        Cycler(McpClient control, Path v1, Path v2, Path jar) {
            this.control = control;
            this.v1 = v1;
            this.v2 = v2;
            this.jar = jar;
        }

        void cycle() throws Exception {
            install();
            update();
            uninstall();
        }

        void install() throws Exception {
            long t = System.nanoTime();
            ToolBundles.place(v1, jar);
            await("installed", () -> control.tool(TOOL) != null);
            installed(Result.V1, 0, t);
        }

        void update() throws Exception {
            long t = System.nanoTime();
            steady.add(new Window(since, t, version));
            ToolBundles.place(v2, jar);
            await("updated", () -> GREETING_V2.equals(control.callTool(TOOL, Map.of("name", "Ada"))
                    .path("result").path("structuredContent").path("text").asString("")));
            installed(Result.V2, 1, t);
        }

        void uninstall() throws Exception {
            long t = System.nanoTime();
            steady.add(new Window(since, t, version));
            Files.delete(jar);
            await("uninstalled", () -> !control.toolNames().contains(TOOL));
            stepMs.get(2).add((System.nanoTime() - t) / 1_000_000L);
        }

        /** Notes that {@code now} answers from the step begun at {@code t}. */
        private void installed(Result now, int step, long t) {
            since = System.nanoTime();
            version = now;
            stepMs.get(step).add((since - t) / 1_000_000L);
        }

        long median(int step) {
            List<Long> sorted = stepMs.get(step).stream().sorted().toList();
            return sorted.isEmpty() ? 0 : sorted.get(sorted.size() / 2);
        }

        private void await(String what, Check check) throws Exception {
            long deadline = System.nanoTime() + STEP_LIMIT.toNanos();
            while (!check.holds()) {
                if (System.nanoTime() > deadline) {
                    throw new AssertionError("not " + what + " within " + STEP_LIMIT.toMillis() + " ms");
                }
                Thread.sleep(5);
            }
        }
    }

    @FunctionalInterface
    private interface Check {
        boolean holds() throws Exception;
    }
}
