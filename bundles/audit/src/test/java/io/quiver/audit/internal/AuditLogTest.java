package io.quiver.audit.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quiver.api.CallerIdentity;
import io.quiver.api.call.CallEvent;
import io.quiver.api.operator.Problem;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.osgi.service.event.Event;
import org.osgi.service.event.EventAdmin;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

class AuditLogTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final CallerIdentity ALICE = new CallerIdentity("alice", "acme", Set.of("ops"), true, "showcase");

    @TempDir
    Path dir;

    private final TestClock clock = new TestClock("2026-07-28T10:00:00Z");
    private AuditLog log;

    @AfterEach
    void stop() throws InterruptedException {
        if (log != null) {
            log.deactivate();
        }
    }

    @Test
    void everyCallIsOneJsonLineWithItsFields() throws Exception {
        log = start(Map.of());
        String digest = digest("{\"city\":\"Paris\"}");
        log.called(new CallEvent("inv-1", ALICE, "2025-11-25", "current_time",
                Instant.parse("2026-07-28T09:15:02.123Z"), Duration.ofNanos(1_234_567),
                List.of(new CallEvent.Step("authorize", true, "granted by rule ops"),
                        new CallEvent.Step("admit", true, null)),
                CallEvent.Ending.COMPLETED, null, "claude-code", digest));
        log.called(new CallEvent("inv-2", CallerIdentity.ANONYMOUS, "2026-07-28", "bundle_install",
                Instant.parse("2026-07-28T09:15:03Z"), Duration.ofMillis(2),
                List.of(new CallEvent.Step("authorize", true, "allowed"),
                        new CallEvent.Step("admit", false, "rule no-installs: installs are off"),
                        new CallEvent.Step("review", false, "later denial")),
                CallEvent.Ending.DENIED, "rule no-installs: installs are off", null, null));
        log.deactivate();

        List<JsonNode> lines = lines();
        assertEquals(2, lines.size());
        JsonNode first = lines.get(0);
        assertEquals(List.of("time", "invocationId", "subject", "tenant", "project", "authenticated",
                "clientName",
                "protocolVersion", "tool", "decisions", "rule", "durationMs", "ending", "detail", "argumentsDigest"),
                List.copyOf(first.propertyNames()));
        assertEquals("2026-07-28T09:15:02.123Z", first.path("time").asString());
        assertEquals("inv-1", first.path("invocationId").asString());
        assertEquals("alice", first.path("subject").asString());
        assertEquals("acme", first.path("tenant").asString());
        assertEquals("showcase", first.path("project").asString());
        assertTrue(first.path("authenticated").asBoolean());
        assertEquals("claude-code", first.path("clientName").asString());
        assertEquals("2025-11-25", first.path("protocolVersion").asString());
        assertEquals("current_time", first.path("tool").asString());
        assertEquals("{\"stage\":\"authorize\",\"allowed\":true,\"reason\":\"granted by rule ops\"}",
                first.path("decisions").get(0).toString());
        assertTrue(first.path("rule").isNull(), "nothing denied: no deciding rule");
        assertEquals(1.234, first.path("durationMs").asDouble());
        assertEquals("COMPLETED", first.path("ending").asString());
        assertEquals(digest, first.path("argumentsDigest").asString());

        JsonNode second = lines.get(1);
        assertEquals("2026-07-28T09:15:03.000Z", second.path("time").asString());
        assertEquals("anonymous", second.path("subject").asString());
        assertFalse(second.path("authenticated").asBoolean());
        assertEquals("rule no-installs: installs are off", second.path("rule").asString(), "the first denying step");
        assertEquals("DENIED", second.path("ending").asString());
        assertEquals(3, second.path("decisions").size());
        assertTrue(second.path("argumentsDigest").isNull());
        assertTrue(second.path("clientName").isNull());
    }

    @Test
    void aClientNameWithLineSeparatorsAndBidiControlsStaysOneLine() throws Exception {
        log = start(Map.of());
        String name = "evil\u2028{\"forged\":true}\u2029\u0085\u202Egnp.exe\u2066";
        log.called(new CallEvent("inv-1", ALICE, "2025-11-25", "t", Instant.parse("2026-07-28T09:00:00Z"),
                Duration.ofMillis(1), List.of(), CallEvent.Ending.COMPLETED, null, name + "x".repeat(100_000), null));
        log.deactivate();
        String text = Files.readString(dir.resolve("calls.jsonl"));
        assertEquals(1, text.split("\\R").length, text);
        assertTrue(text.length() < 4096, "the name is cut");
        assertTrue(lines().get(0).path("clientName").asString().startsWith(name + "xxx"));
    }

    @Test
    void noArgumentValueReachesTheFileOnlyItsDigest() throws Exception {
        log = start(Map.of());
        String arguments = "{\"apiKey\":\"sk-live-7f3a9\",\"query\":\"salaries 2026\"}";
        log.called(event("inv-secret", digest(arguments)));
        log.deactivate();
        String text = Files.readString(dir.resolve("calls.jsonl"));
        assertFalse(text.contains("sk-live-7f3a9") || text.contains("salaries") || text.contains("apiKey"), text);
        assertTrue(text.contains(digest(arguments)));
    }

    @Test
    void eventAdminHearsEachCallWithTheSameFieldsAsFlatProperties() throws Exception {
        log = start(Map.of());
        RecordingEventAdmin admin = new RecordingEventAdmin(null);
        log.eventAdmin = admin;
        log.addHandler(Map.of("service.id", 1L, "event.topics", "io/quiver/audit/*"));
        log.called(new CallEvent("inv-9", ALICE, "2026-07-28", "t", Instant.parse("2026-07-28T09:00:00Z"),
                Duration.ofMillis(5), List.of(new CallEvent.Step("authorize", false, "rule r1: no"),
                        new CallEvent.Step("admit", true, null)), CallEvent.Ending.DENIED, "rule r1: no", "inspector",
                "sha256:00"));
        awaitTrue(() -> admin.events.size() == 1);

        Event event = admin.events.get(0);
        assertEquals(AuditLog.TOPIC, event.getTopic());
        assertEquals("io/quiver/audit/CALL", event.getTopic());
        assertEquals("2026-07-28T09:00:00.000Z", event.getProperty("time"));
        assertEquals("inv-9", event.getProperty("invocationId"));
        assertEquals("alice", event.getProperty("subject"));
        assertEquals("acme", event.getProperty("tenant"));
        assertEquals("showcase", event.getProperty("project"));
        assertEquals(true, event.getProperty("authenticated"));
        assertEquals("inspector", event.getProperty("clientName"));
        assertEquals("t", event.getProperty("tool"));
        assertEquals("rule r1: no", event.getProperty("rule"));
        assertEquals(5.0, event.getProperty("durationMs"));
        assertEquals("DENIED", event.getProperty("ending"));
        assertEquals("sha256:00", event.getProperty("argumentsDigest"));
        assertArrayEquals(new String[] {"authorize", "admit"}, (String[]) event.getProperty("decisions.stage"));
        assertArrayEquals(new boolean[] {false, true}, (boolean[]) event.getProperty("decisions.allowed"));
        assertArrayEquals(new String[] {"rule r1: no", ""}, (String[]) event.getProperty("decisions.reason"));
        assertFalse(event.containsProperty("decisions"));

        log.eventAdmin = null; // Event Admin gone: the file goes on
        log.called(event("inv-10", null));
        log.deactivate();
        assertEquals(1, admin.events.size());
        assertEquals(2, lines().size());
    }

    @Test
    void whenTheQueueIsFullCallsAreDroppedAndTheFileSaysHowMany() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        RecordingEventAdmin admin = new RecordingEventAdmin(release);
        log = new AuditLog(props(Map.of()), clock, 2);
        log.eventAdmin = admin;
        log.addHandler(Map.of("service.id", 1L, "event.topics", "io/quiver/audit/*"));
        log.called(event("inv-1", null));
        assertTrue(admin.entered.await(5, TimeUnit.SECONDS), "the writer holds the first call");
        for (int i = 2; i <= 6; i++) {
            log.called(event("inv-" + i, null)); // never blocks: 2 and 3 wait, 4 to 6 are dropped
        }
        release.countDown();
        log.deactivate();

        List<JsonNode> lines = lines();
        assertEquals(List.of("inv-1", "dropped 3", "inv-2", "inv-3"), lines.stream()
                .map(l -> l.has("dropped") ? "dropped " + l.path("dropped").asLong()
                        : l.path("invocationId").asString())
                .toList());
        assertEquals("2026-07-28T10:00:00.000Z", lines.get(1).path("time").asString());
        Event dropped = admin.events.stream().filter(e -> e.getTopic().equals(AuditLog.DROPPED_TOPIC)).findFirst()
                .orElseThrow();
        assertEquals(3L, dropped.getProperty("dropped"));
    }

    @Test
    void aFileThatCannotBeWrittenIsAProblemUntilItCanBe() throws Exception {
        Path blocked = Files.createDirectories(dir.resolve("a-directory"));
        log = start(Map.of("file", blocked.toString()));
        awaitTrue(() -> !log.problems().isEmpty());
        Problem problem = log.problems().get(0);
        assertEquals(blocked.toString(), problem.subject());
        assertTrue(problem.reason().startsWith("the audit file cannot be written ("), problem.reason());

        log.called(event("inv-lost", null));
        awaitTrue(() -> log.problems().get(0).reason().endsWith("1 lines lost so far"));

        log.modified(props(Map.of("file", dir.resolve("calls.jsonl").toString())));
        awaitTrue(() -> log.problems().isEmpty());
        log.called(event("inv-written", null));
        log.deactivate();
        assertEquals("inv-written", lines().get(0).path("invocationId").asString());
    }

    @Test
    void aFileThatIsNoPathKeepsTheLastGoodOneAndIsAProblem() throws Exception {
        log = start(Map.of());
        awaitTrue(() -> Files.exists(dir.resolve("calls.jsonl"))); // the writer opened the good one
        log.modified(props(Map.of("file", "bad\0name.jsonl")));
        awaitTrue(() -> !log.problems().isEmpty());
        assertTrue(log.problems().get(0).reason().startsWith("the audit file is not a path on this system"),
                log.problems().toString());
        log.called(event("inv-kept", null));
        log.deactivate();
        assertEquals("inv-kept", lines().get(0).path("invocationId").asString());
    }

    @Test
    void aBadSettingKeepsTheDefaultAndIsAProblem() throws Exception {
        log = start(Map.of("rotateEvery", "hourly", "maxFiles", "0"));
        List<String> reasons = log.problems().stream().map(Problem::reason).toList();
        assertEquals(2, reasons.size(), reasons.toString());
        assertTrue(reasons.stream().anyMatch(r -> r.startsWith("rotateEvery = hourly is not one of daily, none")),
                reasons.toString());
    }

    @Test
    void noEventIsMadeWhileNoHandlerHearsTheTopic() throws Exception {
        log = start(Map.of());
        RecordingEventAdmin admin = new RecordingEventAdmin(null);
        log.eventAdmin = admin;
        log.addHandler(Map.of("service.id", 7L, "event.topics", new String[] {"org/osgi/framework/*"}));
        log.called(event("inv-1", null));
        awaitTrue(() -> lineCount() == 1);
        assertEquals(0, admin.events.size(), "nobody hears io/quiver/audit/CALL");
        log.addHandler(Map.of("service.id", 8L, "event.topics", "*"));
        log.called(event("inv-2", null));
        awaitTrue(() -> admin.events.size() == 1);
        log.removeHandler(Map.of("service.id", 8L));
        log.called(event("inv-3", null));
        awaitTrue(() -> lineCount() == 3);
        assertEquals(1, admin.events.size());
    }

    @Test
    void handlerTopicsFollowEventAdminsWildcards() {
        assertTrue(AuditLog.hears("io/quiver/audit/CALL", AuditLog.TOPIC));
        assertTrue(AuditLog.hears(new String[] {"a/b", "io/quiver/*"}, AuditLog.TOPIC));
        assertTrue(AuditLog.hears(List.of("*"), AuditLog.TOPIC));
        assertFalse(AuditLog.hears("io/quiver/audit", AuditLog.TOPIC));
        assertFalse(AuditLog.hears("io/quiver/aud*", AuditLog.TOPIC));
        assertFalse(AuditLog.hears(null, AuditLog.TOPIC));
    }

    @Test
    void disabledWritesNoFileButStillPostsEvents() throws Exception {
        log = start(Map.of("enabled", "false"));
        RecordingEventAdmin admin = new RecordingEventAdmin(null);
        log.eventAdmin = admin;
        log.addHandler(Map.of("service.id", 1L, "event.topics", "io/quiver/audit/*"));
        log.called(event("inv-1", null));
        log.deactivate();
        assertFalse(Files.exists(dir.resolve("calls.jsonl")));
        assertEquals(1, admin.events.size());
    }

    @Test
    void aNewDayRotatesTheFileOfTheLog() throws Exception {
        log = start(Map.of());
        log.called(event("inv-1", null));
        awaitTrue(() -> Files.exists(dir.resolve("calls.jsonl")) && size(dir.resolve("calls.jsonl")) > 0);
        clock.set("2026-07-29T00:00:05Z");
        log.called(event("inv-2", null));
        log.deactivate();
        assertTrue(Files.exists(dir.resolve("calls-20260728T100000Z.jsonl")));
        assertEquals("inv-2", lines().get(0).path("invocationId").asString());
    }

    @Test
    void aCallStillRunningAfterTheSettingHasALineBeforeItsEnd() throws Exception {
        log = start(Map.of("runningAfterMs", 200L));
        String digest = digest("{\"path\":\"/srv\"}");
        log.running(running("inv-long", digest));
        awaitTrue(() -> lineCount() == 1);
        JsonNode line = lines().get(0);
        assertEquals("inv-long", line.path("invocationId").asString());
        assertEquals("RUNNING", line.path("ending").asString());
        assertEquals("alice", line.path("subject").asString());
        assertEquals("wipe", line.path("tool").asString());
        assertEquals(digest, line.path("argumentsDigest").asString());
        assertEquals("admitted", line.path("decisions").get(0).path("reason").asString());
        assertTrue(line.path("durationMs").asDouble() >= 200, "how long it had run: " + line);

        // its end follows as its own line; the running line is written once
        Thread.sleep(3 * AuditLog.RUNNING_CHECK_MS);
        log.called(ended("inv-long"));
        log.deactivate();
        List<JsonNode> lines = lines();
        assertEquals(List.of("RUNNING", "COMPLETED"), lines.stream().map(l -> l.path("ending").asString()).toList());
        assertEquals("inv-long", lines.get(1).path("invocationId").asString());
    }

    @Test
    void aCallThatEndsBeforeTheSettingHasItsEndOnly() throws Exception {
        log = start(Map.of("runningAfterMs", 60_000L));
        log.running(running("inv-quick", null));
        Thread.sleep(3 * AuditLog.RUNNING_CHECK_MS);
        log.called(ended("inv-quick"));
        log.called(event("inv-next", null));
        log.deactivate();
        assertEquals(List.of("COMPLETED", "COMPLETED"), lines().stream().map(l -> l.path("ending").asString()).toList());
    }

    @Test
    void callsStillRunningWhenTheTrailStopsAreOnRecord() throws Exception {
        log = start(Map.of());
        log.running(running("inv-a", null));
        log.running(running("inv-b", null));
        log.called(ended("inv-b"));
        log.deactivate();
        List<JsonNode> lines = lines();
        assertEquals(List.of("inv-b COMPLETED", "inv-a RUNNING"),
                lines.stream().map(l -> l.path("invocationId").asString() + " " + l.path("ending").asString()).toList());
    }

    @Test
    void noRunningLineWhenTurnedOffAndNoEventForOneEver() throws Exception {
        RecordingEventAdmin admin = new RecordingEventAdmin(null);
        log = start(Map.of("runningAfterMs", 0L));
        log.eventAdmin = admin;
        log.addHandler(Map.of("service.id", 7L, "event.topics", "io/quiver/audit/*"));
        log.running(running("inv-posted", null));
        awaitTrue(() -> lineCount() == 1);
        assertEquals("RUNNING", lines().get(0).path("ending").asString());
        log.modified(props(Map.of("runningAfterMs", -1L)));
        log.running(running("inv-off", null));
        Thread.sleep(3 * AuditLog.RUNNING_CHECK_MS);
        log.called(ended("inv-off"));
        log.called(ended("inv-posted"));
        log.deactivate();
        assertEquals(List.of("inv-posted RUNNING", "inv-off COMPLETED", "inv-posted COMPLETED"),
                lines().stream().map(l -> l.path("invocationId").asString() + " " + l.path("ending").asString()).toList());
        assertEquals(List.of("inv-off", "inv-posted"), admin.events.stream()
                .map(e -> String.valueOf(e.getProperty("invocationId"))).toList(), "events are made of ends only");
    }

    @Test
    void aFileThatCanBeWrittenAgainIsNoLongerAProblemWithoutANewSetting() throws Exception {
        // a file where the audit folder should be: nothing can be written until it is gone
        Path blocker = Files.writeString(dir.resolve("audit"), "not a folder");
        Path calls = dir.resolve("audit/calls.jsonl");
        log = start(Map.of("file", calls.toString()));
        awaitTrue(() -> !log.problems().isEmpty());
        log.called(event("inv-lost-1", null));
        log.called(event("inv-lost-2", null));
        awaitTrue(() -> !log.problems().isEmpty()
                && log.problems().get(0).reason().endsWith(" 2 lines lost so far"));

        Files.delete(blocker); // the operator makes room: the next call is written, and the problem goes
        log.called(event("inv-written", null));
        awaitTrue(() -> log.problems().isEmpty());
        log.deactivate();
        assertEquals(List.of("inv-written"), Files.readAllLines(calls).stream()
                .map(l -> JSON.readTree(l).path("invocationId").asString()).toList());
    }

    @Test
    void aHandlerThatHearsOtherTopicsDoesNotSilenceOneThatHearsTheAuditTrail() throws Exception {
        log = start(Map.of());
        RecordingEventAdmin admin = new RecordingEventAdmin(null);
        log.eventAdmin = admin;
        log.addHandler(Map.of("service.id", 1L, "event.topics", "io/quiver/audit/*"));
        log.addHandler(Map.of("service.id", 2L, "event.topics", "org/osgi/framework/*"));
        log.called(event("inv-1", null));
        awaitTrue(() -> admin.events.size() == 1);
        log.removeHandler(Map.of("service.id", 2L));
        log.called(event("inv-2", null));
        awaitTrue(() -> admin.events.size() == 2);
        log.removeHandler(Map.of("service.id", 1L));
        log.called(event("inv-3", null));
        awaitTrue(() -> lineCount() == 3);
        assertEquals(2, admin.events.size(), "nobody hears it any more");
    }

    @Test
    void rotatedFilesBeyondTheCountKeptAreDeletedAtStartBeforeAnyCall() throws Exception {
        for (String stamp : List.of("20260724T100000Z", "20260725T100000Z", "20260726T100000Z", "20260727T100000Z")) {
            Files.writeString(dir.resolve("calls-" + stamp + ".jsonl"), "{}\n");
        }
        log = start(Map.of("maxFiles", "2"));
        awaitTrue(() -> !Files.exists(dir.resolve("calls-20260725T100000Z.jsonl")));
        assertFalse(Files.exists(dir.resolve("calls-20260724T100000Z.jsonl")));
        assertTrue(Files.exists(dir.resolve("calls-20260726T100000Z.jsonl")));
        assertTrue(Files.exists(dir.resolve("calls-20260727T100000Z.jsonl")));
    }

    @Test
    void theFileIsLetGoWhenTheTrailStopsOrIsDisabled() throws Exception {
        Path fds = Path.of("/proc/self/fd");
        Assumptions.assumeTrue(Files.isDirectory(fds), "needs /proc to see open files");
        Path calls = dir.resolve("calls.jsonl");
        // no daily rotation: the file's time is the machine's, the test clock's day another
        log = start(Map.of("rotateEvery", "none"));
        log.called(event("inv-1", null));
        awaitTrue(() -> lineCount() == 1);
        Path real = calls.toRealPath();
        assertTrue(openFiles(fds).contains(real), "open while the trail writes");
        log.modified(props(Map.of("rotateEvery", "none", "enabled", "false")));
        awaitTrue(() -> !openFiles(fds).contains(real));
        log.modified(props(Map.of("rotateEvery", "none")));
        awaitTrue(() -> openFiles(fds).contains(real)); // enabled again: the file is opened at once
        log.called(event("inv-2", null));
        awaitTrue(() -> lineCount() == 2);
        log.deactivate();
        assertFalse(openFiles(fds).contains(real), "closed when the trail stops");
    }

    @Test
    void aCallRightAfterTheTrailIsTurnedOnAgainIsWritten() throws Exception {
        log = start(Map.of("rotateEvery", "none"));
        for (int i = 0; i < 30; i++) {
            log.modified(props(Map.of("rotateEvery", "none", "enabled", "false")));
            awaitWriterWaiting(); // it has taken the setting up, and waits for the next call
            log.modified(props(Map.of("rotateEvery", "none")));
            log.called(event("inv-" + i, null)); // at once: it must not be judged by the setting before
            int expected = i + 1;
            awaitTrue(() -> lineCount() == expected);
        }
    }

    /** Waits until the audit writer is parked, waiting for a call with the settings it has taken up. */
    private static void awaitWriterWaiting() throws InterruptedException {
        Thread writer = Thread.getAllStackTraces().keySet().stream().filter(t -> t.getName().equals("quiver-audit"))
                .findFirst().orElseThrow();
        Thread.sleep(AuditLog.PACE_MS); // past the pause after the batch that carried the setting
        awaitTrue(() -> writer.getState() == Thread.State.WAITING);
    }

    /** The files this process has open. */
    private static Set<Path> openFiles(Path fds) {
        Set<Path> open = new java.util.HashSet<>();
        try (java.util.stream.Stream<Path> each = Files.list(fds)) {
            each.forEach(fd -> {
                try {
                    open.add(Files.readSymbolicLink(fd));
                } catch (IOException | UnsupportedOperationException e) {
                    // closed meanwhile
                }
            });
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return open;
    }

    // -------------------------------------------------------------------------------------------

    private AuditLog start(Map<String, Object> settings) {
        return new AuditLog(props(settings), clock, 64);
    }

    private Map<String, Object> props(Map<String, Object> settings) {
        Map<String, Object> props = new HashMap<>();
        props.put("file", dir.resolve("calls.jsonl").toString());
        props.putAll(settings);
        return props;
    }

    /** A call of {@code wipe} by alice, its tool about to run. */
    private static CallEvent running(String invocationId, String digest) {
        return new CallEvent(invocationId, ALICE, "2025-11-25", "wipe", Instant.parse("2026-07-28T09:00:00Z"),
                Duration.ofMillis(3), List.of(new CallEvent.Step("admit", true, "admitted")), CallEvent.Ending.RUNNING,
                null, "claude-code", digest);
    }

    private static CallEvent ended(String invocationId) {
        return new CallEvent(invocationId, ALICE, "2025-11-25", "wipe", Instant.parse("2026-07-28T09:00:00Z"),
                Duration.ofSeconds(2), List.of(new CallEvent.Step("admit", true, "admitted")), CallEvent.Ending.COMPLETED,
                null, "claude-code", null);
    }

    private static CallEvent event(String invocationId, String digest) {
        return new CallEvent(invocationId, CallerIdentity.ANONYMOUS, "2025-11-25", "t",
                Instant.parse("2026-07-28T09:00:00Z"), Duration.ofMillis(1), List.of(), CallEvent.Ending.COMPLETED,
                null, "test", digest);
    }

    /** Lines in the file so far; 0 while there is none. */
    private long lineCount() {
        try {
            return Files.exists(dir.resolve("calls.jsonl")) ? Files.readAllLines(dir.resolve("calls.jsonl")).size() : 0;
        } catch (IOException e) {
            return -1;
        }
    }

    private List<JsonNode> lines() throws IOException {
        return Files.readAllLines(dir.resolve("calls.jsonl"), StandardCharsets.UTF_8).stream()
                .map(JSON::readTree).toList();
    }

    private static long size(Path file) {
        try {
            return Files.size(file);
        } catch (IOException e) {
            return 0;
        }
    }

    private static String digest(String canonical) throws Exception {
        return "sha256:" + HexFormat.of().formatHex(
                MessageDigest.getInstance("SHA-256").digest(canonical.getBytes(StandardCharsets.UTF_8)));
    }

    private static void awaitTrue(BooleanSupplier condition) throws InterruptedException {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!condition.getAsBoolean()) {
            assertTrue(System.nanoTime() < end, "not within 10 s");
            Thread.sleep(10);
        }
    }

    /** Event Admin as far as the audit log uses it; holds its first event until released (if given a latch). */
    private static final class RecordingEventAdmin implements EventAdmin {
        final List<Event> events = new CopyOnWriteArrayList<>();
        final CountDownLatch entered = new CountDownLatch(1);
        private final CountDownLatch release;

        RecordingEventAdmin(CountDownLatch release) {
            this.release = release;
        }

        @Override
        public void postEvent(Event event) {
            events.add(event);
            entered.countDown();
            if (release != null) {
                try {
                    release.await(10, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }

        @Override
        public void sendEvent(Event event) {
            postEvent(event);
        }
    }
}
