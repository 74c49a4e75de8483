package io.quiver.tools.time.internal;

import io.quiver.api.McpTool;
import io.quiver.api.Outcome;
import io.quiver.api.Tool;
import io.quiver.api.ToolCall;
import io.quiver.api.ToolResult;
import io.quiver.api.content.TextContent;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Clock;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.osgi.service.component.annotations.Component;

/** {@code convert_time}: a time of day today in one time zone, expressed in another. */
@Component(service = Tool.class)
@McpTool(name = "convert_time",
        blocking = false,
        title = "Convert time between time zones",
        description = "Converts a time of day (HH:MM, 24-hour clock, taken as today in the source time zone) "
                + "to another time zone. Returns both date-times with UTC offsets, their days of the week, "
                + "whether daylight saving time is in effect, and the difference in hours (e.g. +5.5h).",
        inputSchema = """
                {"type": "object",
                 "properties": {
                   "source_timezone": {"type": "string", "description": "IANA time zone the time is given in, e.g. America/New_York"},
                   "time": {"type": "string", "description": "Time of day in 24-hour HH:MM format, e.g. 14:30"},
                   "target_timezone": {"type": "string", "description": "IANA time zone to convert to, e.g. Asia/Tokyo"}},
                 "required": ["source_timezone", "time", "target_timezone"],
                 "additionalProperties": false}""",
        outputSchema = """
                {"type": "object",
                 "$defs": {"zonedTime": {"type": "object",
                   "properties": {
                     "timezone": {"type": "string"},
                     "datetime": {"type": "string", "format": "date-time"},
                     "dayOfWeek": {"type": "string"},
                     "isDst": {"type": "boolean"}},
                   "required": ["timezone", "datetime", "dayOfWeek", "isDst"],
                   "additionalProperties": false}},
                 "properties": {
                   "source": {"$ref": "#/$defs/zonedTime"},
                   "target": {"$ref": "#/$defs/zonedTime"},
                   "timeDifference": {"type": "string", "description": "Target offset minus source offset in hours, e.g. +1.0h or -5.5h"}},
                 "required": ["source", "target", "timeDifference"],
                 "additionalProperties": false}""",
        readOnlyHint = true, destructiveHint = false, idempotentHint = true, openWorldHint = false)
public final class ConvertTimeTool implements Tool {

    /**
     * What {@code convert_time} returns as structured content.
     *
     * @param timeDifference the target's UTC offset minus the source's, in hours: {@code +1.0h}
     */
    public record ConvertedTime(ZonedTime source, ZonedTime target, String timeDifference) {
    }

    private final Clock clock;

    public ConvertTimeTool() {
        this(Clock.systemUTC());
    }

    ConvertTimeTool(Clock clock) {
        this.clock = clock;
    }

    @Override
    public Outcome call(ToolCall call) {
        String sourceName = text(call, "source_timezone");
        String targetName = text(call, "target_timezone");
        String timeText = text(call, "time");
        Optional<ZoneId> sourceZone = Zones.find(sourceName);
        if (sourceZone.isEmpty()) {
            return error(Zones.unknownZone("source_timezone", sourceName));
        }
        Optional<ZoneId> targetZone = Zones.find(targetName);
        if (targetZone.isEmpty()) {
            return error(Zones.unknownZone("target_timezone", targetName));
        }
        Optional<LocalTime> time = Zones.timeOfDay(timeText);
        if (time.isEmpty()) {
            return error("Invalid time '" + timeText + "'. Give the time of day as HH:MM on a 24-hour clock, "
                    + "for example 09:30 or 17:45.");
        }

        LocalDate today = LocalDate.now(clock.withZone(sourceZone.get()));
        ZonedDateTime source = ZonedDateTime.of(today, time.get(), sourceZone.get());
        ZonedDateTime target = source.withZoneSameInstant(targetZone.get());
        ConvertedTime converted = new ConvertedTime(Zones.describe(source), Zones.describe(target),
                hoursDifference(source, target));

        StringBuilder text = new StringBuilder()
                .append(Zones.readable(converted.source())).append(" is ")
                .append(Zones.readable(converted.target()))
                .append("; time difference ").append(converted.timeDifference()).append('.');
        if (!source.toLocalTime().equals(time.get())) {
            text.append(" Note: ").append(timeText.trim()).append(" does not exist on ").append(today)
                    .append(" in ").append(sourceZone.get().getId())
                    .append(" (clocks move forward for daylight saving time); the next valid time was used.");
        }
        return Outcome.done(new ToolResult(List.of(new TextContent(text.toString())), converted, false, Map.of()));
    }

    /** The target's UTC offset minus the source's, in hours with at least one decimal: {@code +5.75h}. */
    static String hoursDifference(ZonedDateTime source, ZonedDateTime target) {
        int seconds = target.getOffset().getTotalSeconds() - source.getOffset().getTotalSeconds();
        BigDecimal hours = BigDecimal.valueOf(seconds)
                .divide(BigDecimal.valueOf(3600), 2, RoundingMode.HALF_UP)
                .stripTrailingZeros();
        if (hours.scale() < 1) {
            hours = hours.setScale(1);
        }
        return (seconds >= 0 ? "+" : "") + hours.toPlainString() + "h";
    }

    private static String text(ToolCall call, String key) {
        return call.arguments().get(key) instanceof String s ? s : "";
    }

    private static Outcome error(String message) {
        return Outcome.done(ToolResult.error(message));
    }
}
