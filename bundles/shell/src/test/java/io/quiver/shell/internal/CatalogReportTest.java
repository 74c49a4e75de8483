package io.quiver.shell.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quiver.api.operator.CatalogEntry;
import io.quiver.api.operator.SessionInfo;
import io.quiver.api.operator.TransportInfo;
import java.util.List;
import org.junit.jupiter.api.Test;

class CatalogReportTest {

    private final CatalogReport report = new CatalogReport(id -> id + " bundle.b" + id);

    @Test
    void toolsListNameBundleRankingServiceAndDescription() {
        String out = report.tools(List.of(new CatalogEntry("greet", "Greets", 40, 5, 7)));
        assertEquals("NAME   BUNDLE       RANKING  SERVICE  DESCRIPTION\n"
                + "greet  7 bundle.b7  5        40       Greets\n"
                + "1 tool\n", out);
        assertEquals("No tools.\n", report.tools(List.of()));
    }

    @Test
    void shadowedNamesTheWinner() {
        String out = report.shadowed(List.of(new CatalogEntry("greet", "Old", 41, 0, 8)),
                List.of(new CatalogEntry("greet", "New", 40, 5, 7)));
        assertTrue(out.contains("greet  8 bundle.b8  0        41       service 40 (ranking 5, bundle 7 bundle.b7)"), out);
        assertTrue(out.contains("1 shadowed tool\n"), out);
        assertTrue(report.shadowed(List.of(), List.of()).startsWith("No shadowed tools"));
    }

    @Test
    void sessions() {
        String out = report.sessions(List.of(new SessionInfo("abc", "2025-11-25", "inspector 1.0", "anonymous", true, 2, 65_000)));
        assertEquals("ID   PROTOCOL    CALLER     STREAM  IN FLIGHT  IDLE  CLIENT\n"
                + "abc  2025-11-25  anonymous  open    2          1m5s  inspector 1.0\n"
                + "1 session\n", out);
        assertEquals("No open sessions.\n", report.sessions(List.of()));
    }

    @Test
    void transportsShowEachFigureAgainstItsLimit() {
        String out = report.transports(List.of(new TransportInfo("http", 3, 4096, 70_000, 67_108_864, 5, 2, 64, 1, 1024, 2)));
        assertEquals("TRANSPORT  STREAMS   UNREAD BYTES      CALL THREADS (BUSY)  QUEUED CALLS  STUCK\n"
                + "http       3 / 4096  70000 / 67108864  5 (2) / 64           1 / 1024      2\n", out);
        assertEquals("No transport is running.\n", report.transports(List.of()));
    }

    @Test
    void idleTimes() {
        assertEquals("0s", CatalogReport.idle(-5));
        assertEquals("59s", CatalogReport.idle(59_999));
        assertEquals("2h3m", CatalogReport.idle((2 * 3600 + 3 * 60 + 4) * 1000L));
    }
}
