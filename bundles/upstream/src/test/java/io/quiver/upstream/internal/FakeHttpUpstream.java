package io.quiver.upstream.internal;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import io.quiver.lib.config.TypedConfig;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A small Streamable HTTP server of a test's own at {@code /mcp}: each POSTed message is kept and handed to the
 * test; and the {@link Upstream} that speaks to it, with the threads it runs on. Closing it stops both.
 */
final class FakeHttpUpstream implements AutoCloseable {

    interface Handler {
        void handle(HttpExchange exchange, JsonNode message) throws Exception;
    }

    /** Every message POSTed, in order. */
    final List<JsonNode> received = new CopyOnWriteArrayList<>();
    private final HttpServer server;
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
    private final ExecutorService work = Executors.newCachedThreadPool();
    private final ExecutorService exchanges = Executors.newCachedThreadPool();
    private Upstream upstream;

    private FakeHttpUpstream(Handler handler) throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.setExecutor(exchanges);
        server.createContext("/mcp", exchange -> {
            try {
                if (!exchange.getRequestMethod().equals("POST")) {
                    exchange.sendResponseHeaders(405, -1);
                    return;
                }
                JsonNode message = FakeConnection.JSON.readTree(exchange.getRequestBody().readAllBytes());
                received.add(message);
                handler.handle(exchange, message);
            } catch (Exception e) {
                e.printStackTrace();
            } finally {
                exchange.close();
            }
        });
        server.start();
    }

    static FakeHttpUpstream start(Handler handler) throws IOException {
        return new FakeHttpUpstream(handler);
    }

    /** Starts this server as the upstream {@code up}, with these settings besides a 5-s startup timeout. */
    Upstream upstream(FakeFramework framework, Map<String, Object> settings) {
        Map<String, Object> config = new HashMap<>(settings);
        config.put("startupTimeoutMs", 5000L);
        ServerSpec spec = new ServerSpec("up", ServerSpec.Kind.HTTP, null, List.of(), Map.of(), null,
                URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/mcp"), Map.of(), Path.of("t"));
        upstream = new Upstream(spec, TypedConfig.of(UpstreamConfig.class, config), framework.context, timer, work,
                Path.of("."));
        upstream.start();
        return upstream;
    }

    /** How many messages of a method were received. */
    long count(String method) {
        return received.stream().filter(m -> method.equals(m.path("method").asString(""))).count();
    }

    static void write(OutputStream out, String json) throws IOException {
        out.write(("data: " + json + "\n\n").getBytes(StandardCharsets.UTF_8));
        out.flush();
    }

    static void result(HttpExchange exchange, JsonNode message, String result) throws IOException {
        ObjectNode answer = FakeConnection.JSON.createObjectNode().put("jsonrpc", "2.0");
        answer.set("id", message.get("id"));
        answer.set("result", FakeConnection.JSON.readTree(result));
        exchange.getResponseHeaders().add("Mcp-Session-Id", "s-1");
        reply(exchange, 200, answer.toString());
    }

    static void error(HttpExchange exchange, JsonNode message, int code, String text) throws IOException {
        ObjectNode answer = FakeConnection.JSON.createObjectNode().put("jsonrpc", "2.0");
        answer.set("id", message.get("id"));
        answer.putObject("error").put("code", code).put("message", text);
        reply(exchange, 200, answer.toString());
    }

    static void reply(HttpExchange exchange, int status, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", "application/json");
        exchange.sendResponseHeaders(status, bytes.length);
        exchange.getResponseBody().write(bytes);
    }

    @Override
    public void close() {
        if (upstream != null) {
            upstream.stop();
        }
        server.stop(0);
        exchanges.shutdownNow();
        timer.shutdownNow();
        work.shutdownNow();
    }
}
