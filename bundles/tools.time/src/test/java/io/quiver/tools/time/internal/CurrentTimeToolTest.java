package io.quiver.tools.time.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quiver.api.Outcome;
import io.quiver.api.ToolResult;
import io.quiver.api.content.TextContent;
import io.quiver.testing.FakeToolCall;
import java.lang.annotation.Annotation;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CurrentTimeToolTest {

    private static final Instant SUMMER = Instant.parse("2026-07-01T12:00:00Z");
    private static final Instant WINTER = Instant.parse("2026-11-30T04:20:00Z");

    private static ToolResult call(CurrentTimeTool tool, Map<String, Object> arguments) {
        return assertInstanceOf(Outcome.Done.class, tool.call(FakeToolCall.of("current_time", arguments))).result();
    }

    private static CurrentTimeTool.CurrentTime structured(ToolResult result) {
        assertFalse(result.isError());
        return assertInstanceOf(CurrentTimeTool.CurrentTime.class, result.structuredContent());
    }

    private static String text(ToolResult result) {
        return assertInstanceOf(TextContent.class, result.content().get(0)).text();
    }

    private static CurrentTimeTool at(Instant instant, String defaultTimezone) {
        return new CurrentTimeTool(defaultTimezone, Clock.fixed(instant, ZoneOffset.UTC));
    }

    @Test
    void summerInBerlinIsDaylightSavingTime() {
        ToolResult result = call(at(SUMMER, ""), Map.of("timezone", "Europe/Berlin"));
        assertEquals(new CurrentTimeTool.CurrentTime("Europe/Berlin", "2026-07-01T14:00:00+02:00", "Wednesday", true,
                SUMMER.toEpochMilli()), structured(result));
        assertEquals("2026-07-01T14:00:00+02:00 (Wednesday) in Europe/Berlin, daylight saving time", text(result));
    }

    @Test
    void winterInBerlinIsStandardTime() {
        ToolResult result = call(at(WINTER, ""), Map.of("timezone", "Europe/Berlin"));
        CurrentTimeTool.CurrentTime now = structured(result);
        assertEquals("2026-11-30T05:20:00+01:00", now.datetime());
        assertEquals("Monday", now.dayOfWeek());
        assertFalse(now.isDst());
        assertEquals("2026-11-30T05:20:00+01:00 (Monday) in Europe/Berlin, standard time", text(result));
    }

    @Test
    void withoutArgumentTheConfiguredZoneIsUsed() {
        CurrentTimeTool.CurrentTime now = structured(call(at(SUMMER, "Asia/Tokyo"), Map.of()));
        assertEquals("Asia/Tokyo", now.timezone());
        assertEquals("2026-07-01T21:00:00+09:00", now.datetime());
    }

    @Test
    void withoutConfigurationTheSystemZoneIsUsed() {
        CurrentTimeTool.CurrentTime now = structured(call(at(SUMMER, ""), Map.of("timezone", " ")));
        assertEquals(ZoneId.systemDefault().getId(), now.timezone());
    }

    @Test
    void activatesFromItsConfiguration() {
        CurrentTimeTool.Config config = new CurrentTimeTool.Config() {
            @Override
            public String defaultTimezone() {
                return "America/New_York";
            }

            @Override
            public Class<? extends Annotation> annotationType() {
                return CurrentTimeTool.Config.class;
            }
        };
        assertEquals("America/New_York", structured(call(new CurrentTimeTool(config), Map.of())).timezone());
    }

    @Test
    void zoneNamesAreMatchedIgnoringCase() {
        assertEquals("America/Los_Angeles",
                structured(call(at(SUMMER, ""), Map.of("timezone", "america/los_angeles"))).timezone());
    }

    @Test
    void utcUsesTheZuluOffset() {
        CurrentTimeTool.CurrentTime now = structured(call(at(SUMMER, ""), Map.of("timezone", "UTC")));
        assertEquals("2026-07-01T12:00:00Z", now.datetime());
        assertEquals(1_782_907_200_000L, now.epochMillis());
    }

    @Test
    void unknownZoneIsAnErrorTheModelCanRead() {
        ToolResult result = call(at(SUMMER, ""), Map.of("timezone", "Mars/Olympus_Mons"));
        assertTrue(result.isError());
        assertNull(result.structuredContent());
        assertTrue(text(result).contains("Unknown time zone 'Mars/Olympus_Mons'"), text(result));
        assertTrue(text(result).contains("Europe/Berlin"), "suggests a valid name");
    }

    @Test
    void unknownConfiguredZoneStopsActivation() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> at(SUMMER, "Nowhere/Town"));
        assertTrue(e.getMessage().contains("Nowhere/Town"));
    }
}
