package io.quiver.audit.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quiver.api.CallerIdentity;
import io.quiver.api.call.CallEvent;
import io.quiver.api.call.CallEvent.Ending;
import io.quiver.api.call.CallEvent.Step;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import tools.jackson.core.JsonGenerator;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

class AuditEntryTest {

    /** The audit line's documented time format, as the formatter writes it. */
    private static final DateTimeFormatter FORMAT =
            DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);

    @Test
    void theTimeIsWhatTheFormatterWritesForEveryInstant() {
        String[] edges = {"0001-01-01T00:00:00Z", "1969-12-31T23:59:59.999999999Z", "1970-01-01T00:00:00Z",
            "2000-02-29T12:00:00.000999Z", "2026-07-28T09:15:02.123456789Z", "2026-12-31T23:59:59.999Z",
            "9999-12-31T23:59:59.999999999Z", "+10000-01-01T00:00:00Z", "-0001-06-30T10:00:00.5Z",
            "0000-01-01T00:00:00Z"};
        for (String edge : edges) {
            Instant instant = Instant.parse(edge);
            assertEquals(FORMAT.format(instant), AuditEntry.time(instant), edge);
        }
        SplittableRandom random = new SplittableRandom(7);
        for (int i = 0; i < 200_000; i++) {
            Instant instant = Instant.ofEpochSecond(random.nextLong(-70_000_000_000L, 260_000_000_000L),
                    random.nextInt(1_000_000_000));
            assertEquals(FORMAT.format(instant), AuditEntry.time(instant), instant.toString());
        }
        assertEquals("2026-07-28T09:15:02.123Z", AuditEntry.time(Instant.parse("2026-07-28T09:15:02.123456789Z")));
        assertNull(AuditEntry.time(null));
    }

    @Test
    void theStreamedLineIsTheFieldsAsJackson() {
        JsonMapper json = JsonMapper.builder().build();
        CallerIdentity alice = new CallerIdentity("alice", "acme", Set.of("ops"), true, "web");
        Instant at = Instant.parse("2026-07-28T09:15:02.123456789Z");
        List<CallEvent> events = List.of(
                new CallEvent("i-1", CallerIdentity.ANONYMOUS, "2025-11-25", "echo", at, Duration.ofNanos(48_123),
                        List.of(), Ending.COMPLETED, null, "wrk", "sha256:00ff"),
                new CallEvent("i-2", alice, "2026-07-28", "fs.write", at, Duration.ofMillis(3),
                        List.of(new Step("permissions", true, "rule \"ops may\" \u00e9\n"),
                                new Step("host", false, "refused \u2603"), new Step("limits", false, "second")),
                        Ending.DENIED, "no \\ way\t", null, null),
                new CallEvent("i-3", null, null, "t", null, null, List.of(new Step("s", false, null)), null, null),
                new CallEvent("i-4", alice, "2025-06-18", "slow", at, Duration.ofSeconds(90, 1),
                        List.of(new Step("schema", true, "")), Ending.FAILED, "timed out", "claude-code",
                        "sha256:" + "ab".repeat(32)));
        for (CallEvent event : events) {
            ByteArrayOutputStream streamed = new ByteArrayOutputStream();
            try (JsonGenerator g = json.createGenerator(streamed)) {
                AuditEntry.write(g, event);
            }
            assertEquals(json.writeValueAsString(AuditEntry.of(event)), streamed.toString(StandardCharsets.UTF_8),
                    event.invocationId());
        }
        // the line itself, field by field: the map above is read back from it
        assertEquals("{\"time\":\"2026-07-28T09:15:02.123Z\",\"invocationId\":\"i-2\",\"subject\":\"alice\","
                + "\"tenant\":\"acme\",\"project\":\"web\",\"authenticated\":true,\"clientName\":null,"
                + "\"protocolVersion\":\"2026-07-28\",\"tool\":\"fs.write\",\"decisions\":["
                + "{\"stage\":\"permissions\",\"allowed\":true,\"reason\":\"rule \\\"ops may\\\" \u00e9\\n\"},"
                + "{\"stage\":\"host\",\"allowed\":false,\"reason\":\"refused \u2603\"},"
                + "{\"stage\":\"limits\",\"allowed\":false,\"reason\":\"second\"}],\"rule\":\"refused \u2603\","
                + "\"durationMs\":3.0,\"ending\":\"DENIED\",\"detail\":\"no \\\\ way\\t\",\"argumentsDigest\":null}",
                json.writeValueAsString(AuditEntry.of(events.get(1))));
        assertEquals(0.048, AuditEntry.of(events.get(0)).get("durationMs"), "microseconds kept (48,123 ns), a number");
    }

    @Test
    void callerChosenTextsAreCappedAndSayByHowMuch() {
        String huge = "n".repeat(3 << 20);
        CallerIdentity who = new CallerIdentity("s".repeat(1000), "acme", Set.of(), true, "p".repeat(300));
        CallEvent event = new CallEvent("i".repeat(257), who, "v".repeat(5000), "t".repeat(10_000),
                Instant.parse("2026-07-28T09:15:02Z"), Duration.ofMillis(1),
                List.of(new Step("policy", false, "unknown tool " + "t".repeat(10_000))), Ending.INVALID,
                "d".repeat(2000), huge, "sha256:00");
        String line = line(event);
        assertTrue(line.length() < 8 * 1024, "a 3 MiB client name made a line of " + line.length() + " characters");
        JsonNode fields = new JsonMapper().readTree(line);
        assertEquals("n".repeat(256) + "...[cut " + ((3 << 20) - 256) + " chars]",
                fields.path("clientName").asString());
        assertEquals("t".repeat(256) + "...[cut 9744 chars]", fields.path("tool").asString());
        assertEquals("s".repeat(256) + "...[cut 744 chars]", fields.path("subject").asString());
        assertEquals("p".repeat(256) + "...[cut 44 chars]", fields.path("project").asString());
        assertEquals("v".repeat(256) + "...[cut 4744 chars]", fields.path("protocolVersion").asString());
        assertEquals("i".repeat(256) + "...[cut 1 chars]", fields.path("invocationId").asString());
        assertEquals("d".repeat(1024) + "...[cut 976 chars]", fields.path("detail").asString());
        String reason = ("unknown tool " + "t".repeat(10_000)).substring(0, 1024) + "...[cut 8989 chars]";
        assertEquals(reason, fields.path("decisions").get(0).path("reason").asString());
        assertEquals(reason, fields.path("rule").asString());
        assertEquals(reason, AuditEntry.of(event).get("rule"), "the event is capped alike");
        assertEquals("acme", fields.path("tenant").asString(), "what fits stays whole");

        assertEquals("a".repeat(256), AuditEntry.cap("a".repeat(256), 256));
        assertEquals("a".repeat(255) + "...[cut 2 chars]", AuditEntry.cap("a".repeat(255) + "\uD83D\uDE00", 256),
                "never half a surrogate pair");
        assertNull(AuditEntry.cap(null, 256));
    }

    @Test
    void lineBreakersAndBidiControlsAreEscaped() {
        String tricky = "a\u2028b\u2029c\u0085d\u202Ee\u2066f\u200Fg\u061Ch\u200Ei\u202Aj\u2069k";
        // long enough that Jackson writes it in segments, with a separator and an override near its end
        String longOne = "x".repeat(1000) + "\u2028" + "y".repeat(10) + "\u202E" + "z";
        CallEvent event = new CallEvent("i-1", CallerIdentity.ANONYMOUS, "2026-07-28", tricky,
                Instant.parse("2026-07-28T09:15:02Z"), Duration.ofMillis(1),
                List.of(new Step("policy", false, tricky)), Ending.DENIED, longOne, tricky, null);
        String line = line(event);
        for (char c : "\u2028\u2029\u0085\u202A\u202E\u2066\u2069\u200E\u200F\u061C".toCharArray()) {
            assertFalse(line.indexOf(c) >= 0, String.format("U+%04X written raw", (int) c));
        }
        assertEquals(1, line.split("\\R", -1).length, "no line break for any reader");
        assertTrue(line.contains("a\\u2028b\\u2029c\\u0085d\\u202Ee\\u2066f\\u200Fg\\u061Ch\\u200Ei\\u202Aj\\u2069k"),
                line);
        JsonNode fields = new JsonMapper().readTree(line);
        assertEquals(tricky, fields.path("clientName").asString(), "the same text, read back");
        assertEquals(longOne, fields.path("detail").asString());
        assertTrue(line(new CallEvent("i-2", CallerIdentity.ANONYMOUS, "2026-07-28", "\u00e9\u2603\uD83D\uDE00",
                null, null, List.of(), Ending.COMPLETED, "tab\tquote\"", null, null))
                .contains("\"tool\":\"\u00e9\u2603\uD83D\uDE00\","), "other characters stay as they are");
    }

    @Test
    void everyC1ControlIsEscapedFromTheFirstToTheLast() {
        String c1 = "a\u0080b\u009Bc\u009Fd";
        String line = line(new CallEvent("i-1", CallerIdentity.ANONYMOUS, "2026-07-28", "t", null, null, List.of(),
                Ending.COMPLETED, null, c1, null));
        for (char c : "\u0080\u009B\u009F".toCharArray()) {
            assertFalse(line.indexOf(c) >= 0, String.format("U+%04X written raw", (int) c));
        }
        assertTrue(line.contains("a\\u0080b\\u009Bc\\u009Fd"), line);
        String neighbours = "\u007F\u00A0";
        assertTrue(line(new CallEvent("i-2", CallerIdentity.ANONYMOUS, "2026-07-28", "t", null, null, List.of(),
                Ending.COMPLETED, null, neighbours, null)).contains(neighbours), "DEL and NBSP stay as they are");
    }

    /** The event as the audit file's writer writes it. */
    private static String line(CallEvent event) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (JsonGenerator g = JsonMapper.builder(AuditEntry.lineFactory()).build().createGenerator(out)) {
            AuditEntry.write(g, event);
        }
        return out.toString(StandardCharsets.UTF_8);
    }
}
