package io.quiver.transport.http.internal;

import io.quiver.api.auth.Authenticator;
import io.quiver.lib.config.TypedConfig;
import java.io.IOException;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.handler.ContextHandlerCollection;

/**
 * The MCP servlet at {@code /mcp} of a real Jetty on a port of the OS's choosing, over loopback, as Felix HTTP
 * serves it: a servlet context at {@code /} in a context collection, served by Jetty's pool or, with
 * {@link #withLanes}, taken over by the selector lane and its core handler.
 */
final class LiveEndpoint implements AutoCloseable {

    /** What a client of the streamable HTTP transport sends with every POST. */
    static final Map<String, String> POST_HEADERS = Map.of("Accept", "application/json, text/event-stream",
            "Content-Type", "application/json");

    final ScriptedEngine engine = new ScriptedEngine();
    final Gatekeeper gate = new Gatekeeper(false);
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
    private final Map<String, String> settings = new HashMap<>();
    private boolean lanes;
    private HeaderWatch headerWatch = HeaderWatch.NONE;
    McpServlet servlet;
    Server server;
    private int port;

    /** A setting of {@link HttpConfig}. */
    LiveEndpoint with(String name, String value) {
        settings.put(name, value);
        return this;
    }

    /** Requests run on the selector lane, POSTs that wait on nothing answered by the core lane. */
    LiveEndpoint withLanes() {
        lanes = true;
        return this;
    }

    /** Connections slow with their request headers are closed by {@link McpServlet#sweepHeaders}. */
    LiveEndpoint withHeaderGuard() {
        headerWatch = new HeaderGuard();
        return this;
    }

    LiveEndpoint authenticatedBy(Authenticator authenticator) {
        gate.authenticators(List.of(authenticator));
        return this;
    }

    LiveEndpoint start() throws Exception {
        HttpConfig config = TypedConfig.read(HttpConfig.class, settings, null).config();
        servlet = new McpServlet(engine, config, timer, headerWatch, gate);
        servlet.endpoints(new Endpoints("/mcp", ""));
        server = new Server();
        ServerConnector plain = new ServerConnector(server);
        plain.setHost("127.0.0.1");
        server.addConnector(plain);
        ServletContextHandler context = new ServletContextHandler("/");
        ServletHolder holder = new ServletHolder(servlet);
        holder.setAsyncSupported(true);
        context.addServlet(holder, "/*");
        server.setHandler(new ContextHandlerCollection(context));
        server.start();
        port = plain.getLocalPort();
        if (lanes) {
            Connector lane = new SelectorLane(servlet::serves, gate::checksWithoutWaiting, servlet, false).createConnector(server);
            server.addConnector(lane);
            lane.start();
            port = ((ServerConnector) lane).getLocalPort();
        }
        return this;
    }

    int port() {
        return port;
    }

    /** A POST of {@code body} to the endpoint with the usual headers and {@code extra} ones; its answer's head read. */
    RawHttp post(String body, Map<String, String> extra) throws IOException {
        Map<String, String> headers = new LinkedHashMap<>(POST_HEADERS);
        headers.putAll(extra);
        return RawHttp.send(port, "POST", "/mcp", headers, body);
    }

    RawHttp post(String body) throws IOException {
        return post(body, Map.of());
    }

    /** A GET of the session's stream. */
    RawHttp get(Map<String, String> headers) throws IOException {
        return RawHttp.send(port, "GET", "/mcp", headers, null);
    }

    @Override
    public void close() throws Exception {
        if (servlet != null) {
            servlet.closeAll();
        }
        if (server != null) {
            server.stop();
        }
        timer.shutdownNow();
    }
}
