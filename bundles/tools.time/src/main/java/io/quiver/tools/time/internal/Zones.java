package io.quiver.tools.time.internal;

import java.time.DateTimeException;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.TextStyle;
import java.time.temporal.ChronoUnit;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Reading time zones and times of day as a model writes them, and describing zoned times. */
final class Zones {

    private static final Pattern HH_MM = Pattern.compile("(\\d{1,2}):(\\d{2})");

    private Zones() {
    }

    /**
     * The zone of that name: an IANA id ({@code Europe/Berlin}, any letter case), {@code UTC} or an
     * offset ({@code +05:30}); empty when there is none.
     */
    static Optional<ZoneId> find(String name) {
        String trimmed = name.trim();
        if (trimmed.isEmpty()) {
            return Optional.empty();
        }
        try {
            return Optional.of(ZoneId.of(trimmed));
        } catch (DateTimeException e) {
            return ZoneId.getAvailableZoneIds().stream()
                    .filter(id -> id.equalsIgnoreCase(trimmed))
                    .findFirst()
                    .map(ZoneId::of);
        }
    }

    /** The message for a zone name {@link #find} did not know. */
    static String unknownZone(String argument, String name) {
        return "Unknown time zone '" + name + "' in " + argument + ". Use an IANA time zone name such as "
                + "Europe/Berlin, America/New_York, Asia/Kolkata or UTC.";
    }

    /** A time of day written {@code HH:MM} (24-hour clock); empty when it is not one. */
    static Optional<LocalTime> timeOfDay(String text) {
        Matcher m = HH_MM.matcher(text.trim());
        if (!m.matches()) {
            return Optional.empty();
        }
        int hour = Integer.parseInt(m.group(1));
        int minute = Integer.parseInt(m.group(2));
        if (hour > 23 || minute > 59) {
            return Optional.empty();
        }
        return Optional.of(LocalTime.of(hour, minute));
    }

    /** ISO-8601 date and time with the UTC offset, to the second: {@code 2026-11-30T05:20:00+01:00}. */
    static String isoDateTime(ZonedDateTime time) {
        return time.truncatedTo(ChronoUnit.SECONDS).format(DateTimeFormatter.ISO_OFFSET_DATE_TIME);
    }

    /** The English name of the day: {@code Monday}. */
    static String dayOfWeek(ZonedDateTime time) {
        return time.getDayOfWeek().getDisplayName(TextStyle.FULL, Locale.ENGLISH);
    }

    /** Whether daylight saving time is in effect at that moment in its zone. */
    static boolean isDst(ZonedDateTime time) {
        return time.getZone().getRules().isDaylightSavings(time.toInstant());
    }

    /** A zoned time as the tools report it. */
    static ZonedTime describe(ZonedDateTime time) {
        return new ZonedTime(time.getZone().getId(), isoDateTime(time), dayOfWeek(time), isDst(time));
    }

    /** The readable form: {@code 2026-11-30T05:20:00+01:00 (Monday) in Europe/Berlin}. */
    static String readable(ZonedTime time) {
        return time.datetime() + " (" + time.dayOfWeek() + ") in " + time.timezone();
    }
}
