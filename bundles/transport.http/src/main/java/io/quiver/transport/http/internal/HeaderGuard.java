package io.quiver.transport.http.internal;

import jakarta.servlet.http.HttpServletRequest;
import java.util.Map;
import java.util.Set;
import java.util.WeakHashMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import javax.net.ssl.SSLEngineResult;
import org.eclipse.jetty.ee10.servlet.ServletContextRequest;
import org.eclipse.jetty.http.HttpParser;
import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.io.ssl.SslConnection;
import org.eclipse.jetty.server.AbstractConnector;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.internal.HttpConnection;

/**
 * Bounds how long a client may take to send a request's headers. Jetty reads headers without a
 * thread, but it has no time limit for them: its idle timeout counts only silence, so a client that
 * sends a byte every few seconds keeps a connection for hours. Once a second this closes every
 * connection that has been in the middle of a request line or its headers for longer than the limit,
 * or, over HTTPS, in its TLS handshake (which a client can trickle the same way).
 *
 * <p>Jetty-specific (Felix HTTP runs Jetty 12): it learns the server from the requests it sees (or from the
 * selector lane, as Felix HTTP starts it) and looks at every connector the server has at each sweep (so HTTPS is
 * watched before its first request, and a connector added later from its start), at each connection's HTTP/1.1
 * parser, behind its TLS layer for HTTPS. Where the classes are
 * missing (another servlet container) the transport runs without it.
 */
final class HeaderGuard implements HeaderWatch {

    private final Set<Server> servers = ConcurrentHashMap.newKeySet();
    /**
     * Requests seen; the connector is looked up for the first ones and then every 1024th, and again for the
     * first ones after a server stopped.
     */
    private final AtomicLong requests = new AtomicLong();
    /** When each connection was first seen inside a request's headers; touched by the sweeping thread only. */
    private final Map<EndPoint, Long> inHeaders = new WeakHashMap<>();

    /** Notes the connector a request came through. */
    @Override
    public void observe(HttpServletRequest request) {
        if (sampled()) {
            ServletContextRequest jetty = ServletContextRequest.getServletContextRequest(request);
            if (jetty != null) {
                learn(jetty.getConnectionMetaData().getConnector());
            }
        }
    }

    @Override
    public void observe(Object connector) {
        if (sampled() && connector instanceof Connector c) {
            learn(c);
        }
    }

    @Override
    public void watchServer(Object server) {
        if (server instanceof Server jetty) {
            servers.add(jetty);
        }
    }

    /** The server of the connector: all its connectors are watched (HTTPS beside plain HTTP, say). */
    private void learn(Connector connector) {
        watchServer(connector.getServer());
    }

    /** Whether this request's connector is looked up: the first ones, then every 1024th. */
    private boolean sampled() {
        long n = requests.incrementAndGet();
        return n <= 64 || (n & 1023) == 0;
    }

    /**
     * Closes the connections whose headers take longer than {@code timeoutMs}.
     *
     * @return how many were closed
     */
    @Override
    public int sweep(long timeoutMs) {
        long now = System.nanoTime();
        long limit = timeoutMs * 1_000_000L;
        int closed = 0;
        // a stopped or failed server (Felix HTTP starts a new one for a new configuration) does not start again; the
        // next requests are all looked at, so that the new server is known at once
        if (servers.removeIf(server -> server.isStopped() || server.isFailed())) {
            requests.set(0);
        }
        for (Server server : servers) {
            closed += sweep(server, now, limit);
        }
        return closed;
    }

    /** Closes the connections of the server's connectors whose headers take longer than {@code limit} ns. */
    private int sweep(Server server, long now, long limit) {
        int closed = 0;
        for (Connector connector : server.getConnectors()) {
            if (!(connector instanceof AbstractConnector abstractConnector) || !connector.isRunning()) {
                continue;
            }
            for (EndPoint endPoint : abstractConnector.getConnectedEndPoints()) {
                if (inHeaders(endPoint.getConnection())) {
                    Long since = inHeaders.putIfAbsent(endPoint, now);
                    if (since != null && now - since > limit) {
                        inHeaders.remove(endPoint);
                        endPoint.close();
                        closed++;
                    }
                } else {
                    inHeaders.remove(endPoint);
                }
            }
        }
        return closed;
    }

    /** Whether a connection is inside a request line or its headers, or in its TLS handshake. */
    private static boolean inHeaders(Connection connection) {
        if (connection instanceof SslConnection tls) {
            if (tls.getSSLEngine().getHandshakeStatus() != SSLEngineResult.HandshakeStatus.NOT_HANDSHAKING) {
                return true;
            }
            connection = tls.getSslEndPoint().getConnection();
        }
        if (!(connection instanceof HttpConnection http)) {
            return false;
        }
        HttpParser parser = http.getParser();
        return parser.inHeaderState() && !parser.isStart();
    }
}
