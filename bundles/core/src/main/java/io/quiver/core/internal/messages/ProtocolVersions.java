package io.quiver.core.internal.messages;

import java.util.List;

/** The protocol revisions Quiver speaks, in both eras, and how a requested one is negotiated. */
public final class ProtocolVersions {

    /** Revisions with an {@code initialize} handshake and sessions, oldest first. */
    public static final List<String> SESSION_ERA = List.of("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25");

    /** The revision of the stateless era. */
    public static final String STATELESS = "2026-07-28";

    /** Every revision this server speaks, on one endpoint. */
    public static final List<String> ALL = List.of("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", STATELESS);

    /**
     * Every revision this server speaks, newest first: what a modern client is told it may use (the legacy ones by
     * {@code initialize}), in {@code server/discover} and in an unsupported-version error.
     */
    public static final List<String> NEWEST_FIRST = List.of(STATELESS, "2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05");

    /** The newest session-based revision: what a client asking for an unknown one is offered. */
    public static final String LATEST_SESSION = "2025-11-25";

    private ProtocolVersions() {
    }

    /** Whether the revision is one of the session era. */
    public static boolean isSupported(String version) {
        return SESSION_ERA.contains(version);
    }

    /**
     * The revision to answer an {@code initialize} with: the one requested when supported, else the
     * newest (the client then decides whether it can go on).
     */
    public static String negotiate(String requested) {
        return isSupported(requested) ? requested : LATEST_SESSION;
    }

    /** The one revision with JSON-RPC batches: 2025-03-26 added them, 2025-06-18 removed them. */
    public static final String BATCHES = "2025-03-26";

    /**
     * Whether {@code version} names a revision, {@code minimum} or newer: revisions are dates ({@code YYYY-MM-DD}),
     * so text order is time order. Anything else ({@code latest}, {@code DRAFT-...}, {@code 2026-7-28}) is no
     * revision at all, however its text sorts.
     */
    public static boolean atLeast(String version, String minimum) {
        return isRevision(version) && version.compareTo(minimum) >= 0;
    }

    /** Whether {@code text} has the shape of a revision: {@code YYYY-MM-DD}, digits and two dashes. */
    static boolean isRevision(String text) {
        if (text == null || text.length() != 10) {
            return false;
        }
        for (int i = 0; i < 10; i++) {
            char c = text.charAt(i);
            if (i == 4 || i == 7 ? c != '-' : c < '0' || c > '9') {
                return false;
            }
        }
        return true;
    }
}
