package io.quiver.transport.http.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.eclipse.jetty.io.ByteArrayEndPoint;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.thread.Invocable;
import org.junit.jupiter.api.Test;

class SelectorLaneTest {

    /**
     * A read for a request's content that completes after the request was answered (a slow body's 408)
     * asks the channel how to run: Jetty 12.0's answer, null, made the selector fail with a
     * NullPointerException logged as "Unable to produce" (seen once in SlowClientsIT).
     */
    @Test
    void aChannelWithoutARequestStillSaysHowItsReadsRun() {
        Server server = new Server();
        ServerConnector connector = new ServerConnector(server);
        SelectorLane.LaneConnection connection = new SelectorLane.LaneConnection(new HttpConfiguration(), connector,
                new ByteArrayEndPoint());
        SelectorLane.LaneChannel channel = new SelectorLane.LaneChannel(connection);
        assertEquals(Invocable.InvocationType.BLOCKING, channel.getInvocationType());
    }
}
