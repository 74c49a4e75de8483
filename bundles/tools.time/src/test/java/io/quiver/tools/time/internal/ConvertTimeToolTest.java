package io.quiver.tools.time.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quiver.api.Outcome;
import io.quiver.api.ToolResult;
import io.quiver.api.content.TextContent;
import io.quiver.testing.FakeToolCall;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class ConvertTimeToolTest {

    private static ToolResult convert(String instant, String source, String time, String target) {
        ConvertTimeTool tool = new ConvertTimeTool(Clock.fixed(Instant.parse(instant), ZoneOffset.UTC));
        return assertInstanceOf(Outcome.Done.class, tool.call(FakeToolCall.of("convert_time",
                Map.of("source_timezone", source, "time", time, "target_timezone", target)))).result();
    }

    private static ConvertTimeTool.ConvertedTime structured(ToolResult result) {
        assertFalse(result.isError(), () -> text(result));
        return assertInstanceOf(ConvertTimeTool.ConvertedTime.class, result.structuredContent());
    }

    private static String text(ToolResult result) {
        return assertInstanceOf(TextContent.class, result.content().get(0)).text();
    }

    private static void assertError(ToolResult result, String expectedPart) {
        assertTrue(result.isError());
        assertNull(result.structuredContent());
        assertTrue(text(result).contains(expectedPart), text(result));
    }

    @Test
    void newYorkAfternoonIsNextMorningInTokyo() {
        ToolResult result = convert("2026-07-01T12:00:00Z", "America/New_York", "14:30", "Asia/Tokyo");
        assertEquals(new ConvertTimeTool.ConvertedTime(
                new ZonedTime("America/New_York", "2026-07-01T14:30:00-04:00", "Wednesday", true),
                new ZonedTime("Asia/Tokyo", "2026-07-02T03:30:00+09:00", "Thursday", false),
                "+13.0h"), structured(result));
        assertEquals("2026-07-01T14:30:00-04:00 (Wednesday) in America/New_York is "
                + "2026-07-02T03:30:00+09:00 (Thursday) in Asia/Tokyo; time difference +13.0h.", text(result));
    }

    @ParameterizedTest
    @CsvSource({
        "2026-07-01T12:00:00Z, Europe/London, Asia/Kolkata, +4.5h",
        "2026-07-01T12:00:00Z, UTC, Asia/Kathmandu, +5.75h",
        "2026-01-15T12:00:00Z, Europe/Berlin, America/New_York, -6.0h",
        "2026-07-01T12:00:00Z, Europe/Berlin, America/New_York, -6.0h",
        "2026-03-20T12:00:00Z, Europe/Berlin, America/New_York, -5.0h",
        "2026-07-01T12:00:00Z, Europe/Paris, Europe/Paris, +0.0h",
    })
    void timeDifferenceIsTargetMinusSourceInHours(String now, String source, String target, String difference) {
        assertEquals(difference, structured(convert(now, source, "12:00", target)).timeDifference());
    }

    @Test
    void todayMeansTodayInTheSourceZone() {
        // 23:30 UTC on 1 July is already 2 July in Tokyo
        ConvertTimeTool.ConvertedTime converted = structured(convert("2026-07-01T23:30:00Z", "Asia/Tokyo", "09:00", "UTC"));
        assertEquals("2026-07-02T09:00:00+09:00", converted.source().datetime());
        assertEquals("2026-07-02T00:00:00Z", converted.target().datetime());
    }

    @Test
    void aTimeSkippedByTheSpringForwardIsMovedAndExplained() {
        ToolResult result = convert("2026-03-29T00:30:00Z", "Europe/Berlin", "02:30", "UTC");
        assertEquals("2026-03-29T03:30:00+02:00", structured(result).source().datetime());
        assertTrue(text(result).contains("02:30 does not exist on 2026-03-29 in Europe/Berlin"), text(result));
    }

    @Test
    void singleDigitHoursAndLowerCaseZonesAreAccepted() {
        ConvertTimeTool.ConvertedTime converted = structured(convert("2026-07-01T12:00:00Z", "utc", "7:05", "europe/berlin"));
        assertEquals("2026-07-01T07:05:00Z", converted.source().datetime());
        assertEquals("Europe/Berlin", converted.target().timezone());
    }

    @Test
    void unknownSourceZoneIsNamed() {
        assertError(convert("2026-07-01T12:00:00Z", "Atlantis/Capital", "10:00", "UTC"),
                "Unknown time zone 'Atlantis/Capital' in source_timezone");
    }

    @Test
    void unknownTargetZoneIsNamed() {
        assertError(convert("2026-07-01T12:00:00Z", "UTC", "10:00", "PST"),
                "Unknown time zone 'PST' in target_timezone");
    }

    @ParameterizedTest
    @ValueSource(strings = {"25:00", "12:60", "2pm", "12:5", "", "12:30:00", "-1:00"})
    void invalidTimesAreErrorsTheModelCanRead(String time) {
        assertError(convert("2026-07-01T12:00:00Z", "UTC", time, "Asia/Tokyo"), "Give the time of day as HH:MM");
    }
}
