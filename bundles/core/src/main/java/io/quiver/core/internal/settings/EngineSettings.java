package io.quiver.core.internal.settings;

import io.quiver.lib.config.TypedConfig;
import java.util.Map;

/**
 * The engine's settings: its configuration now (replaced when the configuration changes, so every
 * reader sees the new values on its next use) and the server's version, with the limits derived
 * from them.
 */
public final class EngineSettings {

    private volatile EngineConfig config;
    private final String serverVersion;

    public EngineSettings(EngineConfig config, String serverVersion) {
        this.config = config;
        this.serverVersion = serverVersion;
    }

    /** Settings from values (defaults for the rest), as tests and embedders write them. */
    public static EngineSettings of(Map<String, ?> values) {
        return new EngineSettings(TypedConfig.of(EngineConfig.class, values), "0.1.0");
    }

    public EngineConfig config() {
        return config;
    }

    public String serverVersion() {
        return serverVersion;
    }

    public void update(EngineConfig next) {
        this.config = next;
    }

    /** Sessions open at once: the setting, or 20 per MiB of the heap limit (at least 1000). */
    public int maxSessions() {
        int configured = config.maxSessions();
        if (configured > 0) {
            return configured;
        }
        long heapMiB = Runtime.getRuntime().maxMemory() >> 20;
        return (int) Math.max(1000, Math.min(1_000_000, heapMiB * 20));
    }

    /** Sessions open at once from one client address: the setting, or a quarter of {@link #maxSessions()}. */
    public int maxSessionsPerClient() {
        int configured = config.maxSessionsPerClient();
        return configured > 0 ? configured : Math.max(1, maxSessions() / 4);
    }

    /** Sessions open at once of one authenticated subject: the setting, or a sixteenth of {@link #maxSessions()}. */
    public int maxSessionsPerSubject() {
        int configured = config.maxSessionsPerSubject();
        return configured > 0 ? configured : Math.max(1, maxSessions() / 16);
    }

    /** What all resource subscriptions may hold together: the setting, or a sixteenth of the heap limit. */
    public long maxResourceSubscriptionBytes() {
        long configured = config.maxResourceSubscriptionBytes();
        return configured > 0 ? configured : Runtime.getRuntime().maxMemory() / 16;
    }

    /** {@code subscriptions/listen} streams open at once: the setting, or {@link #maxSessions()}. */
    public int maxListeners() {
        int configured = config.maxListeners();
        return configured > 0 ? configured : maxSessions();
    }

    /** Listen streams one authenticated subject may keep open: the setting, or a sixteenth of {@link #maxListeners}. */
    public int maxListenersPerSubject() {
        int configured = config.maxListenersPerSubject();
        return configured > 0 ? configured : Math.max(1, maxListeners() / 16);
    }
}
