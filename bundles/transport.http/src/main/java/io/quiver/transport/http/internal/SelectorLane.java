package io.quiver.transport.http.internal;

import java.io.IOException;
import java.net.BindException;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;
import java.util.concurrent.Executor;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;
import org.apache.felix.http.jetty.ConnectorFactory;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpMethod;
import org.eclipse.jetty.http.HttpParser;
import org.eclipse.jetty.http.HttpVersion;
import org.eclipse.jetty.http.MetaData;
import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.io.ManagedSelector;
import org.eclipse.jetty.io.SocketChannelEndPoint;
import org.eclipse.jetty.io.ssl.SslConnection;
import org.eclipse.jetty.server.ConnectionFactory;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.HttpChannel;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.SslConnectionFactory;
import org.eclipse.jetty.server.handler.ContextHandler;
import org.eclipse.jetty.server.internal.HttpChannelState;
import org.eclipse.jetty.server.internal.HttpConnection;
import org.eclipse.jetty.util.BufferUtil;
import org.eclipse.jetty.util.ssl.SslContextFactory;
import org.eclipse.jetty.util.thread.Invocable;
import org.eclipse.jetty.util.thread.Scheduler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Serves MCP POSTs on the thread that read them from the connection, with no hand-off.
 *
 * <p>Jetty runs a servlet on a pool thread: the thread that selected the connection hands it over,
 * and that hand-off (waking a thread, moving the connection's state between caches) costs about as
 * much as the whole of a trivial call. Jetty reads a connection's requests on the selecting thread
 * and lets its requests run there only when the connection says its work never blocks, and Felix
 * HTTP's connector cannot be told so. So this takes its place: given Felix's Jetty server (as a
 * {@link ConnectorFactory}), it stops Felix's plain HTTP connector (or, as the second factory, its HTTPS
 * one) and listens on the same address and port, with Felix's HTTP (and TLS) configuration, through
 * connections that are read on the selecting thread. Each request is then routed as it arrives: a POST to an MCP endpoint, without credentials
 * or with one that every authenticator checks without waiting, runs on that thread, marked as a
 * {@link LaneThread}, where the endpoint
 * serves only what waits on nothing and hands the rest to its call pool ({@link CallPool}) or, for a
 * stream that stays open, to Jetty's pool; every other request goes to
 * the pool at once, exactly as Jetty would have sent it. When this connector stops, Felix's listens
 * again.
 */
final class SelectorLane implements ConnectorFactory {

    private static final Logger LOG = LoggerFactory.getLogger(SelectorLane.class);

    private final Predicate<String> mcpPath;
    private final BooleanSupplier credentialsWaitOnNothing;
    private final McpServlet servlet;
    /** Whether this factory takes over Felix's HTTPS connector (else its plain HTTP one). */
    private final boolean tls;

    /**
     * @param mcpPath whether a request path (from the server's root) is an MCP endpoint
     * @param credentialsWaitOnNothing whether a request's credential may be checked on the lane (every
     *     authenticator's checks wait on nothing)
     * @param servlet the MCP servlet, whose POSTs that wait on nothing the {@link CoreLane} answers; null: none
     * @param tls take over Felix's HTTPS connector (TLS, then HTTP/1.1 on the lane's connections) instead of
     *     its plain HTTP one: Felix HTTP asks each factory for one connector, so each takes one
     */
    SelectorLane(Predicate<String> mcpPath, BooleanSupplier credentialsWaitOnNothing, McpServlet servlet, boolean tls) {
        this.mcpPath = mcpPath;
        this.credentialsWaitOnNothing = credentialsWaitOnNothing;
        this.servlet = servlet;
        this.tls = tls;
    }

    @Override
    public Connector createConnector(Server server) {
        if (!server.isStarted()) {
            // Felix HTTP is stopping this server (a new configuration): the one it starts next asks again
            return new NoLane(server);
        }
        if (servlet != null) {
            // every server Felix HTTP starts asks the factory, also after a restart before any request came:
            // its connectors (HTTPS and the lane's among them) are watched for slow headers at once
            servlet.watchServer(server);
        }
        ServerConnector felix = felixConnector(server, tls);
        if (felix == null) {
            if (!tls) {
                LOG.info("No plain HTTP connector to take over: MCP requests over it take Jetty's pool like the others");
            }
            return new NoLane(server);
        }
        if (tls && felix.getConnectionFactories().size() != 2) {
            // TLS and HTTP/1.1 alone: a connector that also speaks HTTP/2 (ALPN) is left to Felix
            LOG.info("Felix's HTTPS connector speaks more than HTTP/1.1 ({}): MCP requests over it take Jetty's pool",
                    felix.getProtocols());
            return new NoLane(server);
        }
        return new LaneConnector(server, felix, mcpPath, credentialsWaitOnNothing, servlet);
    }

    /** Felix's HTTPS connector ({@code tls}) or its plain HTTP one, or null. */
    private static ServerConnector felixConnector(Server server, boolean tls) {
        for (Connector connector : server.getConnectors()) {
            if (connector instanceof ServerConnector s && !(s instanceof LaneConnector) && !(s instanceof NoLane)
                    && s.isStarted() && s.getConnectionFactory(HttpConnectionFactory.class) != null
                    && (s.getConnectionFactory(SslConnectionFactory.class) != null) == tls) {
                return s;
            }
        }
        return null;
    }

    /**
     * What the factory gives where there is no plain HTTP connector to take over (Felix's HTTP turned off,
     * HTTPS only): nothing that listens. Felix HTTP adds whatever its connector factories return to the
     * server, starts it, and then lists every connector of the server as a {@link ServerConnector} among
     * its endpoints; so this is one, and its start takes it out of the server again.
     */
    static final class NoLane extends ServerConnector {
        NoLane(Server server) {
            super(server, 0, 1);
            setName("quiver-no-lane");
        }

        @Override
        protected void doStart() {
            getServer().removeConnector(this);
        }

        @Override
        protected void doStop() {
            // it never listened
        }
    }

    /** Listens where Felix's connector did, while it does not. */
    static final class LaneConnector extends ServerConnector {
        private final ServerConnector plain;
        private final Predicate<String> mcpPath;
        private final BooleanSupplier credentialsWaitOnNothing;
        /** Watches the connections of pending requests that a disconnect cancels; while started. */
        private volatile CloseWatcher closeWatcher;
        private final McpServlet servlet;
        /** The core lane's context while it is placed, or null. */
        private ContextHandler coreLane;

        LaneConnector(Server server, ServerConnector plain, Predicate<String> mcpPath,
                BooleanSupplier credentialsWaitOnNothing, McpServlet servlet) {
            super(server, null, null, null, plain.getAcceptors(), plain.getSelectorManager().getSelectorCount(),
                    factories(plain));
            this.plain = plain;
            this.mcpPath = mcpPath;
            this.credentialsWaitOnNothing = credentialsWaitOnNothing;
            this.servlet = servlet;
            setHost(plain.getHost());
            setAcceptQueueSize(plain.getAcceptQueueSize());
            setIdleTimeout(plain.getIdleTimeout());
            setReuseAddress(plain.getReuseAddress());
            setName("quiver-lane");
        }

        /**
         * The lane's HTTP/1.1 connections with Felix's HTTP configuration; over HTTPS behind TLS with Felix's own
         * key and settings (its {@link SslContextFactory.Server}, which this connector's start starts again after
         * Felix's connector stopped it).
         */
        private static ConnectionFactory[] factories(ServerConnector felix) {
            LaneConnectionFactory http = new LaneConnectionFactory(felix.getConnectionFactory(HttpConnectionFactory.class));
            SslConnectionFactory felixTls = felix.getConnectionFactory(SslConnectionFactory.class);
            if (felixTls == null) {
                return new ConnectionFactory[] {http};
            }
            SslConnectionFactory tls = new SslConnectionFactory(felixTls.getSslContextFactory(), http.getProtocol());
            // started with this connector: Felix's connector, stopped first, stops it (and starts it again later)
            tls.manage(felixTls.getSslContextFactory());
            tls.setDirectBuffersForDecryption(felixTls.isDirectBuffersForDecryption());
            tls.setDirectBuffersForEncryption(felixTls.isDirectBuffersForEncryption());
            return new ConnectionFactory[] {tls, http};
        }

        /** Whether this connector serves HTTPS. */
        boolean tls() {
            return getConnectionFactory(SslConnectionFactory.class) != null;
        }

        /** Each connection with the lane's end point, which skips the reads that would find nothing. */
        @Override
        protected SocketChannelEndPoint newEndPoint(SocketChannel channel, ManagedSelector selector, SelectionKey key) {
            LaneEndPoint endPoint = new LaneEndPoint(channel, selector, key, getScheduler());
            endPoint.setIdleTimeout(getIdleTimeout());
            return endPoint;
        }

        /** Whether a request runs on the thread that read it. */
        /** A POST to an MCP endpoint whose credential (if any) can be checked without waiting. */
        boolean onLane(MetaData.Request request) {
            return HttpMethod.POST.is(request.getMethod()) && mcpPath.test(request.getHttpURI().getPath())
                    && (!request.getHttpFields().contains(HttpHeader.AUTHORIZATION) || credentialsWaitOnNothing.getAsBoolean());
        }

        @Override
        protected void doStart() throws Exception {
            // a port the OS chose stays this server's: Felix's connector takes it back later, not a new one
            if (plain.getPort() == 0 && plain.getLocalPort() > 0) {
                plain.setPort(plain.getLocalPort());
            }
            setPort(plain.getPort());
            plain.stop();
            try {
                bind(this);
                super.doStart();
                closeWatcher = CloseWatcher.start(getExecutor(), "quiver-close-watch-" + getLocalPort());
            } catch (Exception e) {
                // Felix HTTP stopping the server meanwhile (a new configuration) is no failure: the server it
                // starts next asks the factory again
                boolean serverStopping = !getServer().isStarted();
                if (serverStopping) {
                    SelectorLane.LOG.debug("Jetty stopped while the lane started on {}:{}", getHost(), getPort(), e);
                } else {
                    SelectorLane.LOG.warn("Could not listen on {}:{}; Felix's connector listens there again", getHost(), getPort(), e);
                }
                try {
                    super.doStop(); // the socket bound and whatever started
                } catch (Exception stopping) {
                    e.addSuppressed(stopping);
                }
                try {
                    restore();
                } catch (Exception restoring) {
                    e.addSuppressed(restoring);
                }
                if (serverStopping) {
                    getServer().removeConnector(this);
                    return;
                }
                throw e;
            }
            // one core handler serves the lane threads of every connector: the first lane to start places it
            coreLane = CoreLane.placed(getServer()) ? null : CoreLane.install(getServer(), servlet);
            SelectorLane.LOG.info("MCP requests on {}:{}{} are served on the thread that reads them{}", getHost(),
                    getLocalPort(), tls() ? " (HTTPS)" : "",
                    CoreLane.placed(getServer()) ? ", those that wait on nothing by a core handler" : "");
        }

        @Override
        protected void doStop() throws Exception {
            if (coreLane != null) {
                CoreLane.remove(getServer(), coreLane);
                coreLane = null;
            }
            CloseWatcher watcher = closeWatcher;
            closeWatcher = null;
            if (watcher != null) {
                watcher.close();
            }
            super.doStop();
            restore();
        }

        private void restore() throws Exception {
            Server server = getServer();
            if (server.isStarted() && !server.isStopping() && !plain.isStarted()) {
                bind(plain);
                plain.start();
            }
        }

        /**
         * Opens a connector's listening socket, waiting up to a second for the port: a listening socket
         * just closed while its acceptor thread was blocked in {@code accept} is released only once that
         * thread has woken.
         */
        private static void bind(ServerConnector connector) throws IOException, InterruptedException {
            for (int attempt = 1; ; attempt++) {
                try {
                    connector.open();
                    return;
                } catch (IOException e) {
                    if (!(e.getCause() instanceof BindException) || attempt >= 100) {
                        throw e;
                    }
                    Thread.sleep(10);
                }
            }
        }
    }

    /**
     * A connection's end point that does not read right after a request's exchange has completed. An
     * HTTP/1.1 client sends its next request once it has read the answer, so the read Jetty makes then
     * finds nothing, and Jetty makes it twice (it retries a read of nothing, for TLS): two of the five
     * system calls a request cost (docs/BENCHMARKS.md: a quarter more calls a second without them at 32
     * clients). Until the selector next reports the connection, a read reports nothing without asking the
     * kernel, and Jetty asks the selector, as it does after a read of nothing. A request the client
     * pipelined is in the connection's buffer already and is parsed without a read; the part of one still
     * in the kernel is read once the selector reports it.
     */
    static final class LaneEndPoint extends SocketChannelEndPoint {
        /** Set when an exchange completes, cleared when the selector reports the connection. */
        private volatile boolean awaitingSelector;

        LaneEndPoint(SocketChannel channel, ManagedSelector selector, SelectionKey key, Scheduler scheduler) {
            super(channel, selector, key, scheduler);
        }

        /** A request's exchange completed: its client reads the answer before it sends more. */
        void exchangeCompleted() {
            awaitingSelector = true;
        }

        @Override
        public int fill(ByteBuffer buffer) throws IOException {
            if (awaitingSelector && !isInputShutdown()) {
                return 0;
            }
            return super.fill(buffer);
        }

        @Override
        public Runnable onSelected() {
            awaitingSelector = false;
            return super.onSelected();
        }
    }

    /** Felix's HTTP configuration, with {@link LaneConnection}s. */
    static final class LaneConnectionFactory extends HttpConnectionFactory {
        LaneConnectionFactory(HttpConnectionFactory felix) {
            super(felix.getHttpConfiguration());
            setUseInputDirectByteBuffers(felix.isUseInputDirectByteBuffers());
            setUseOutputDirectByteBuffers(felix.isUseOutputDirectByteBuffers());
            setInputBufferSize(felix.getInputBufferSize());
        }

        @Override
        public Connection newConnection(Connector connector, EndPoint endPoint) {
            LaneConnection connection = new LaneConnection(getHttpConfiguration(), connector, endPoint);
            connection.setUseInputDirectByteBuffers(isUseInputDirectByteBuffers());
            connection.setUseOutputDirectByteBuffers(isUseOutputDirectByteBuffers());
            return configure(connection, connector, endPoint);
        }
    }

    /**
     * Read on the selecting thread (it declares its reading non-blocking) while its requests are served
     * on the lane; read on a pool thread, as Jetty reads any connection, once its last request needed
     * the pool ({@link LaneThread.Route}). Each request it parses is routed by its {@link LaneChannel}.
     */
    static final class LaneConnection extends HttpConnection {
        private final LaneThread.Route route = new LaneThread.Route();
        /**
         * Whether the read asked for last runs on a pool thread: fixed when the read is asked for, so the
         * request it brings knows which thread it is on.
         */
        private volatile boolean blockingReads;

        LaneConnection(HttpConfiguration configuration, Connector connector, EndPoint endPoint) {
            super(configuration, connector, endPoint);
        }

        @Override
        public Invocable.InvocationType getInvocationType() {
            return blockingReads ? Invocable.InvocationType.BLOCKING : Invocable.InvocationType.NON_BLOCKING;
        }

        @Override
        public void fillInterested() {
            blockingReads = route.pool();
            super.fillInterested();
        }

        @Override
        protected HttpChannel newHttpChannel(Server server, HttpConfiguration configuration) {
            return new LaneChannel(this);
        }

        /** The watch of the pending request's connection, or null. */
        private CloseWatcher.Watch watch;

        /**
         * Watches this connection while its request is pending, until the request completes: if the client
         * closes it meanwhile, {@code gone} runs (on Jetty's pool) and the connection closes. Call it on the
         * request's thread once its body has been read, before anything can complete it. Not watched: a
         * body not all read, a client that sent more already, a connector that is not running. Behind TLS the
         * socket is watched and read through the TLS layer, which decrypts what came (a {@code close_notify}
         * reads as the end; application data is handed back as in plain HTTP).
         */
        void watchClose(Request request, Runnable gone) {
            CloseWatcher watcher = ((LaneConnector) getConnector()).closeWatcher;
            if (watcher == null || !isRequestBufferEmpty()) {
                return;
            }
            EndPoint endPoint = getEndPoint();
            SocketChannelEndPoint socket;
            CloseWatcher.Reader reader;
            if (endPoint instanceof SocketChannelEndPoint plain) {
                socket = plain;
                reader = CloseWatcher.Reader.of(plain.getChannel());
            } else if (endPoint instanceof SslConnection.SslEndPoint tls && tls.unwrap() instanceof SocketChannelEndPoint under) {
                socket = under;
                reader = buffer -> {
                    BufferUtil.clear(buffer);
                    return tls.fill(buffer); // under the TLS layer's lock, as its own reads
                };
            } else {
                return;
            }
            HttpParser parser = getParser();
            if (!parser.isComplete() && parser.getContentLength() >= 0 && parser.getContentRead() >= parser.getContentLength()) {
                // the servlet read the declared length: the parser reaches the end of the message without
                // reading the connection, so that Jetty reads it no more until the next request
                Content.Chunk end = request.read();
                if (end != null) {
                    end.release();
                }
            }
            if (!parser.isComplete()) {
                return;
            }
            CloseWatcher.Watch started = watcher.watch(socket.getChannel(), reader, this::onUpgradeTo, () -> {
                try {
                    gone.run();
                } finally {
                    close(); // the request fails, and nothing more is sent for it
                }
            });
            synchronized (this) {
                if (watch != null) {
                    watch.stop();
                }
                watch = started;
            }
        }

        /** Before the connection reads again: bytes the watch read are back in its buffer when this returns. */
        private void stopWatch() {
            CloseWatcher.Watch current;
            synchronized (this) {
                current = watch;
                watch = null;
            }
            if (current != null) {
                current.stop();
            }
        }

        @Override
        protected HttpStreamOverHTTP1 newHttpStream(String method, String uri, HttpVersion version) {
            return new LaneStream(method, uri, version);
        }

        /** A request's stream that ends the watch of its connection before the connection goes on. */
        private final class LaneStream extends HttpStreamOverHTTP1 {
            LaneStream(String method, String uri, HttpVersion version) {
                super(method, uri, version);
            }

            @Override
            public void succeeded() {
                stopWatch();
                if (getEndPoint() instanceof LaneEndPoint endPoint) {
                    endPoint.exchangeCompleted();
                }
                super.succeeded();
            }

            @Override
            public void failed(Throwable x) {
                stopWatch();
                super.failed(x);
            }
        }
    }

    /**
     * Runs a request on the lane, hands it to the pool as Jetty does for a blocking handler, or, when
     * the connection was read on a pool thread, serves it right there. On the lane: a POST to an MCP
     * endpoint ({@link LaneConnector#onLane}) whose connection's last request did not need the pool.
     * Every other request read on the selecting thread goes to the pool.
     */
    static final class LaneChannel extends HttpChannelState {
        private final LaneConnection connection;

        LaneChannel(LaneConnection connection) {
            super(connection);
            this.connection = connection;
        }

        /**
         * Jetty 12.0 answers null here once the channel has no request (it was answered meanwhile, a
         * slow body's 408 for one) while a read for its content is still pending; the selector then
         * fails with a NullPointerException ("Unable to produce", a stack trace in the log) instead of
         * running that read. Jetty 12.1 answers its default there, as this does.
         */
        @Override
        public Invocable.InvocationType getInvocationType() {
            Invocable.InvocationType type = super.getInvocationType();
            return type != null ? type : Invocable.InvocationType.BLOCKING;
        }

        @Override
        public Runnable onRequest(MetaData.Request request) {
            Runnable handle = super.onRequest(request);
            if (handle == null) {
                return null;
            }
            LaneThread.Route route = connection.route;
            LaneConnector connector = (LaneConnector) getConnectionMetaData().getConnector();
            boolean lane = connector.onLane(request);
            if (!lane) {
                route.needsPool(); // and the connection's next requests likely too: read them as Jetty would
            }
            Executor pool = connector.getExecutor();
            if (lane && !route.pool()) {
                // on whichever thread read it: what waits on nothing is served right here
                return () -> LaneThread.run(pool, route, handle);
            }
            // only a request the lane could take teaches the route (an authenticated call never goes back)
            Runnable routed = lane ? () -> LaneThread.routed(route, handle) : handle;
            if (connection.blockingReads) {
                // Jetty read this connection on a pool thread (or resumed it there): no hand-off needed
                return routed;
            }
            // read on the selecting thread all the same (the last request completed while that thread
            // still read on): handed to the pool at once, as Jetty would
            return () -> {
                boolean taken = LaneThread.execute(pool, () -> {
                    try {
                        routed.run();
                    } catch (RuntimeException e) {
                        // the request failed (its connection timed out) before a pool thread took it
                        SelectorLane.LOG.debug("A request failed before it was handled: {}", e.toString());
                    }
                });
                if (!taken) {
                    // as Jetty does with a task its pool refuses: the connection closes, the request fails
                    getConnectionMetaData().getConnection().getEndPoint().close();
                }
            };
        }
    }
}
