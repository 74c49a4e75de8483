package io.quiver.audit.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

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
}
