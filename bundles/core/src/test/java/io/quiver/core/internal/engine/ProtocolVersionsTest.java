package io.quiver.core.internal.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quiver.core.internal.messages.ProtocolVersions;
import org.junit.jupiter.api.Test;

class ProtocolVersionsTest {

    @Test
    void supportedRevisionsAreEchoed() {
        for (String version : ProtocolVersions.SESSION_ERA) {
            assertEquals(version, ProtocolVersions.negotiate(version));
        }
    }

    @Test
    void unknownRevisionsGetTheNewest() {
        assertEquals("2025-11-25", ProtocolVersions.negotiate("2024-10-07"));
        assertEquals("2025-11-25", ProtocolVersions.negotiate("2099-01-01"));
        assertEquals("2025-11-25", ProtocolVersions.negotiate("banana"));
    }

    @Test
    void ordersRevisionsByDate() {
        assertTrue(ProtocolVersions.atLeast("2025-11-25", "2025-06-18"));
        assertTrue(ProtocolVersions.atLeast("2025-06-18", "2025-06-18"));
        assertFalse(ProtocolVersions.atLeast("2025-03-26", "2025-06-18"));
        assertFalse(ProtocolVersions.atLeast(null, "2025-06-18"));
    }

    /** Only text shaped like a revision date is newer or older: "latest" is no revision newer than all. */
    @Test
    void textThatIsNoRevisionDateIsNeverNewer() {
        assertTrue(ProtocolVersions.atLeast("2027-01-15", ProtocolVersions.STATELESS), "a later revision");
        for (String notARevision : new String[] {"latest", "DRAFT-2026-v1", "9", "2026-7-28", "2026-07-28x",
                "2026/07/28", "20260-7-28", ""}) {
            assertFalse(ProtocolVersions.atLeast(notARevision, ProtocolVersions.STATELESS), notARevision);
        }
    }
}
