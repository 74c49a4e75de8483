package io.quiver.tools.time.internal;

import io.quiver.api.McpTool;
import io.quiver.api.Outcome;
import io.quiver.api.Tool;
import io.quiver.api.ToolCall;
import io.quiver.api.ToolResult;
import io.quiver.api.content.TextContent;
import java.time.Clock;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.metatype.annotations.AttributeDefinition;
import org.osgi.service.metatype.annotations.Designate;
import org.osgi.service.metatype.annotations.ObjectClassDefinition;

/** {@code current_time}: the current date and time in a time zone. */
@Component(service = Tool.class, configurationPid = CurrentTimeTool.PID)
@Designate(ocd = CurrentTimeTool.Config.class)
@McpTool(name = "current_time",
        blocking = false,
        title = "Current time",
        description = "Returns the current date and time in a time zone: ISO-8601 date-time with UTC offset, "
                + "day of the week, whether daylight saving time is in effect, and epoch milliseconds. "
                + "Without a timezone argument it uses the server's time zone.",
        inputSchema = """
                {"type": "object",
                 "properties": {"timezone": {"type": "string",
                     "description": "IANA time zone name, e.g. Europe/Berlin, America/New_York or UTC. Defaults to the server's time zone."}},
                 "additionalProperties": false}""",
        outputSchema = """
                {"type": "object",
                 "properties": {
                   "timezone": {"type": "string", "description": "The time zone's IANA name"},
                   "datetime": {"type": "string", "format": "date-time", "description": "ISO-8601 date and time with UTC offset"},
                   "dayOfWeek": {"type": "string", "description": "English name of the day, e.g. Monday"},
                   "isDst": {"type": "boolean", "description": "Whether daylight saving time is in effect"},
                   "epochMillis": {"type": "integer", "description": "Milliseconds since 1970-01-01T00:00:00Z"}},
                 "required": ["timezone", "datetime", "dayOfWeek", "isDst", "epochMillis"],
                 "additionalProperties": false}""",
        readOnlyHint = true, destructiveHint = false, idempotentHint = true, openWorldHint = false)
public final class CurrentTimeTool implements Tool {

    /** The configuration PID operators write ({@code etc/io.quiver.tools.time.cfg}). */
    static final String PID = "io.quiver.tools.time";

    /** Settings of the time tools. */
    @ObjectClassDefinition(name = "Quiver time tools", description = "Settings of the built-in time tools.")
    public @interface Config {

        @AttributeDefinition(name = "Default time zone",
                description = "IANA time zone current_time uses when the caller names none, e.g. Europe/Berlin. "
                        + "Empty: the server's own time zone.")
        String defaultTimezone() default "";
    }

    /**
     * What {@code current_time} returns as structured content.
     *
     * @param epochMillis milliseconds since the epoch
     */
    public record CurrentTime(String timezone, String datetime, String dayOfWeek, boolean isDst, long epochMillis) {
    }

    private final ZoneId defaultZone;
    private final Clock clock;

    @Activate
    public CurrentTimeTool(Config config) {
        this(config.defaultTimezone(), Clock.systemUTC());
    }

    /**
     * @param defaultTimezone the zone used when a call names none; empty for the system's zone
     * @throws IllegalArgumentException when the configured zone does not exist (the component
     *         then does not activate and the reason is logged by SCR)
     */
    CurrentTimeTool(String defaultTimezone, Clock clock) {
        if (defaultTimezone == null || defaultTimezone.isBlank()) {
            this.defaultZone = ZoneId.systemDefault();
        } else {
            this.defaultZone = Zones.find(defaultTimezone).orElseThrow(() -> new IllegalArgumentException(
                    "configuration " + PID + ": defaultTimezone '" + defaultTimezone + "' is not a known time zone"));
        }
        this.clock = clock;
    }

    @Override
    public Outcome call(ToolCall call) {
        ZoneId zone = defaultZone;
        if (call.arguments().get("timezone") instanceof String name && !name.isBlank()) {
            Optional<ZoneId> found = Zones.find(name);
            if (found.isEmpty()) {
                return Outcome.done(ToolResult.error(Zones.unknownZone("timezone", name)));
            }
            zone = found.get();
        }
        ZonedDateTime now = ZonedDateTime.now(clock.withZone(zone));
        ZonedTime described = Zones.describe(now);
        CurrentTime current = new CurrentTime(described.timezone(), described.datetime(), described.dayOfWeek(),
                described.isDst(), now.toInstant().toEpochMilli());
        String text = Zones.readable(described) + (described.isDst() ? ", daylight saving time" : ", standard time");
        return Outcome.done(new ToolResult(List.of(new TextContent(text)), current, false, Map.of()));
    }
}
