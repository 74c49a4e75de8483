package io.quiver.audit.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

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
}
