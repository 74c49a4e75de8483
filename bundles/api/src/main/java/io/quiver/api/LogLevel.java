package io.quiver.api;

import java.util.Locale;

/** The syslog severities MCP uses for log messages, lowest first. */
public enum LogLevel {
    DEBUG, INFO, NOTICE, WARNING, ERROR, CRITICAL, ALERT, EMERGENCY;

    /** The wire name, for example {@code warning}. */
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Parses a wire name; {@code null} when unknown. */
    public static LogLevel fromWire(String name) {
        for (LogLevel level : values()) {
            if (level.wireName().equals(name)) {
                return level;
            }
        }
        return null;
    }
}
