package io.quiver.transport.http.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.eclipse.jetty.io.ByteArrayEndPoint;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.BufferUtil;
import org.eclipse.jetty.util.thread.Invocable;
import org.junit.jupiter.api.Test;

class SelectorLaneTest {

    /**
     * With Felix's plain HTTP turned off (HTTPS only) there is nothing to take over. Felix HTTP adds and
     * starts what the factory returns, then reads every connector of its server as a {@link ServerConnector}
     * to list its endpoints: a connector of another kind made Jetty's start fail there, and the MCP
     * endpoint answered 404 over HTTPS.
     */
    @Test
    void withNoPlainConnectorTheFactoryLeavesTheServerAsItWas() throws Exception {
        Server server = new Server();
        server.start();
        try {
            Connector connector = new SelectorLane(path -> true, () -> true, null, false).createConnector(server);
            server.addConnector(connector); // what Felix HTTP's connector tracker does
            connector.start();
            assertEquals(List.of(), List.of(server.getConnectors()), "no connector stays in the server");
            assertFalse(((ServerConnector) connector).isOpen(), "nothing listens");
            server.removeConnector(connector); // and what it does when the factory goes
            connector.stop();
        } finally {
            server.stop();
        }
    }

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

    /**
     * After an exchange the end point reads nothing until the selector reports the connection: the bytes
     * the client sent meanwhile stay in the kernel for the read that follows the report, and a client that
     * closed is still seen closed.
     */
    @Test
    void afterAnExchangeTheConnectionIsReadOnlyOnceTheSelectorReportsIt() throws Exception {
        try (ServerSocketChannel listener = ServerSocketChannel.open();
                Selector selector = Selector.open()) {
            listener.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            try (SocketChannel client = SocketChannel.open(listener.getLocalAddress());
                    SocketChannel accepted = listener.accept()) {
                accepted.configureBlocking(false);
                SelectionKey key = accepted.register(selector, SelectionKey.OP_READ);
                SelectorLane.LaneEndPoint endPoint = new SelectorLane.LaneEndPoint(accepted, null, key, null);
                ByteBuffer buffer = BufferUtil.allocate(64);

                client.write(ByteBuffer.wrap("first".getBytes(StandardCharsets.US_ASCII)));
                assertEquals(1, selector.select(5_000));
                assertEquals(5, endPoint.fill(buffer), "before any exchange a read goes to the kernel");
                assertEquals("first", BufferUtil.toString(buffer));
                BufferUtil.clear(buffer);

                endPoint.exchangeCompleted();
                client.write(ByteBuffer.wrap("next".getBytes(StandardCharsets.US_ASCII)));
                selector.selectedKeys().clear();
                assertEquals(1, selector.select(5_000), "the next request is there to be read");
                assertEquals(0, endPoint.fill(buffer), "read after the exchange, before the selector's report");
                assertEquals(0, endPoint.fill(buffer));
                assertEquals(0, buffer.remaining());

                endPoint.onSelected();
                assertEquals(4, endPoint.fill(buffer), "the bytes waited in the kernel for the report");
                assertEquals("next", BufferUtil.toString(buffer));
                BufferUtil.clear(buffer);

                endPoint.exchangeCompleted();
                client.close();
                selector.selectedKeys().clear();
                assertEquals(1, selector.select(5_000));
                assertEquals(0, endPoint.fill(buffer));
                endPoint.onSelected();
                assertEquals(-1, endPoint.fill(buffer), "the client's close, once the selector reported it");
                assertTrue(endPoint.isInputShutdown());
                assertEquals(-1, endPoint.fill(buffer));
            }
        }
    }
}
