package io.quiver.itests.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A 2026-07-28 client ends its {@code subscriptions/listen} stream by closing the connection, and the
 * server notices at once, not at its next keep-alive write (20 s by default): with room for one
 * listener, a second client can listen as soon as the first has closed.
 */
class ListenCloseIT {

    private static QuiverServer server;

    @BeforeAll
    static void start() throws Exception {
        server = QuiverServer.start("listen-close", "core,http,tools-default",
                home -> Files.writeString(home.resolve("etc/io.quiver.core.cfg"), "maxListeners = 1\n"));
    }

    @AfterAll
    static void stop() throws Exception {
        server.close();
    }

    @Test
    void aClosedListenStreamGivesItsRoomBackAtOnce() throws Exception {
        try (Probe.Raw first = listen()) {
            assertEquals(200, first.status(), "the first listener gets the room");
            try (Probe.Raw second = listen()) {
                assertEquals(503, second.status(), "no room for a second one while the first listens");
            }
            Thread.sleep(300); // listening for a while: nothing is written to it meanwhile
        }
        long closed = System.nanoTime();
        int status = -1;
        while (status != 200 && System.nanoTime() - closed < 5_000_000_000L) {
            try (Probe.Raw next = listen()) {
                status = next.status();
            }
            if (status != 200) {
                Thread.sleep(50);
            }
        }
        long ms = (System.nanoTime() - closed) / 1_000_000;
        assertEquals(200, status, "a new listener got the room within 5 s of the first one closing\n" + server.log());
        assertTrue(ms < 5_000, ms + " ms");
    }

    /** Opens a listen stream for tool changes on its own connection; its status line is read by the caller. */
    private static Probe.Raw listen() throws Exception {
        return new Probe.Raw(server.url()).send(Probe.statelessPost(server.url(), "subscriptions/listen", null,
                Map.of("notifications", Map.of("toolsListChanged", true))));
    }
}
