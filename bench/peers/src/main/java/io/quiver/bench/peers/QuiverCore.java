package io.quiver.bench.peers;

import io.quiver.api.CallerIdentity;
import io.quiver.api.Outcome;
import io.quiver.api.Tool;
import io.quiver.api.transport.Inbound;
import io.quiver.api.transport.MessageSink;
import io.quiver.api.transport.Receipt;
import io.quiver.core.internal.catalog.Catalog;
import io.quiver.core.internal.pipeline.Extensions;
import io.quiver.core.internal.pipeline.ToolLimitsRegistry;
import io.quiver.core.internal.settings.EngineSettings;
import io.quiver.core.internal.wiring.EngineAssembly;
import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.Map;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.thread.Invocable;

/**
 * A measurement, not a transport: Quiver's engine (the same classes as the server's core bundle, on
 * the class path, no OSGi) behind a Jetty 12 core {@code Handler} declared non-blocking, so a POST
 * is parsed and answered on the thread that selected the connection. Three shapes for the tool:
 * <ul>
 * <li>{@code worker}: the request goes to Quiver's request and tool pools ({@code Exchange.start})
 * and the answer is written from there, as a transport must do for a tool that may block, and as
 * the Quarkus server does with its (blocking) tool;</li>
 * <li>{@code inline}: the tool runs on the selecting thread too ({@code Exchange.run}), what a tool
 * declared non-blocking could have;</li>
 * <li>{@code hop}: the call is handed once to Jetty's thread pool and runs there in full
 * ({@code Exchange.run}, tool included), answering from that thread: one hand-off instead of two.</li>
 * </ul>
 * It answers JSON only: no SSE, no GET stream, none of the HTTP transport's guards. What it
 * measures is how far the proposed non-blocking transport could take Quiver's own code, against
 * {@code CoreFloor nonblocking} (no MCP at all) and the Quarkus server.
 *
 * <p>{@code java -cp peers.jar io.quiver.bench.peers.QuiverCore worker|inline|hop PORT}; prints
 * {@code endpoint: URL}.
 */
public final class QuiverCore extends Handler.Abstract {

    private static final String SESSION_HEADER = "Mcp-Session-Id";
    private static final String VERSION_HEADER = "MCP-Protocol-Version";

    private final EngineAssembly assembly;
    private final String mode;

    private QuiverCore(EngineAssembly assembly, String mode) {
        super(Invocable.InvocationType.NON_BLOCKING);
        this.assembly = assembly;
        this.mode = mode;
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) {
        if (!"/mcp".equals(Request.getPathInContext(request)) || !"POST".equals(request.getMethod())) {
            return false;
        }
        String sessionId = request.getHeaders().get(SESSION_HEADER);
        String version = request.getHeaders().get(VERSION_HEADER);
        Content.Source.asByteBufferAsync(request).whenComplete((body, failure) -> {
            if (failure != null) {
                callback.failed(failure);
                return;
            }
            try {
                answer(request, body, sessionId, version, response, callback);
            } catch (RuntimeException e) {
                callback.failed(e);
            }
        });
        return true;
    }

    private void answer(Request request, ByteBuffer body, String sessionId, String version, Response response, Callback callback) {
        byte[] bytes = new byte[body.remaining()];
        body.get(bytes);
        Receipt receipt = assembly.engine().receive(bytes, new Inbound(sessionId, version, CallerIdentity.ANONYMOUS));
        if (receipt instanceof Receipt.Accepted) {
            response.setStatus(202);
            callback.succeeded();
        } else if (receipt instanceof Receipt.Rejected rejected) {
            response.setStatus(400);
            json(response, rejected.body(), callback);
        } else {
            Receipt.Pending pending = (Receipt.Pending) receipt;
            if (sessionId == null && pending.session() != null) {
                response.getHeaders().put(SESSION_HEADER, pending.session().id());
            }
            MessageSink sink = new MessageSink() {
                @Override
                public void send(byte[] message) {
                }

                @Override
                public void complete(byte[] answer) {
                    json(response, answer, callback);
                }
            };
            if ("inline".equals(mode)) {
                pending.exchange().run(sink);
            } else if ("hop".equals(mode)) {
                request.getComponents().getThreadPool().execute(() -> pending.exchange().run(sink));
            } else {
                pending.exchange().start(sink);
            }
        }
    }

    private static void json(Response response, byte[] body, Callback callback) {
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/json");
        response.getHeaders().put(HttpHeader.CONTENT_LENGTH, body.length);
        response.write(true, ByteBuffer.wrap(body), callback);
    }

    public static void main(String[] args) throws Exception {
        Catalog catalog = new Catalog();
        Map<String, Object> props = new HashMap<>();
        props.put("mcp.tool.name", "test_simple_text");
        props.put("mcp.tool.description", "Returns a simple text");
        props.put("service.id", 1L);
        Tool tool = call -> Outcome.text("This is a simple text response for testing.");
        catalog.bindTool(tool, props);
        EngineAssembly assembly = EngineAssembly.of(catalog, EngineSettings.of(Map.of()), new ToolLimitsRegistry(),
                new Extensions());
        Server server = new Server();
        ServerConnector connector = new ServerConnector(server);
        connector.setHost("127.0.0.1");
        connector.setPort(args.length > 1 ? Integer.parseInt(args[1]) : 0);
        server.addConnector(connector);
        server.setHandler(new QuiverCore(assembly, args.length > 0 ? args[0] : "worker"));
        server.start();
        System.out.println("endpoint: http://127.0.0.1:" + connector.getLocalPort() + "/mcp");
        server.join();
    }
}
