package io.quiver.tools.time.internal;

/**
 * A moment as seen in one time zone (part of the tools' structured content).
 *
 * @param timezone the zone's id, e.g. {@code Europe/Berlin}
 * @param datetime ISO-8601 date and time with offset, e.g. {@code 2026-11-30T05:20:00+01:00}
 * @param dayOfWeek the English day name, e.g. {@code Monday}
 * @param isDst whether daylight saving time is in effect
 */
public record ZonedTime(String timezone, String datetime, String dayOfWeek, boolean isDst) {
}
