package io.quiver.tools.http.internal;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import javax.net.ssl.SSLContext;

/** A local HTTP server for the tests, on a loopback address, that logs every request it gets. */
final class TestServer implements AutoCloseable {

    /** One request as the server saw it. */
    record Request(String method, String path, String host, String userAgent) {
    }

    private final HttpServer server;
    private final ExecutorService executor = Executors.newCachedThreadPool();
    private final ConcurrentLinkedQueue<Request> log = new ConcurrentLinkedQueue<>();

    TestServer(String address) throws IOException {
        this(address, null);
    }

    TestServer(String address, SSLContext tls) throws IOException {
        InetSocketAddress bind = new InetSocketAddress(InetAddress.getByName(address), 0);
        if (tls != null) {
            HttpsServer https = HttpsServer.create(bind, 0);
            https.setHttpsConfigurator(new HttpsConfigurator(tls));
            server = https;
        } else {
            server = HttpServer.create(bind, 0);
        }
        server.setExecutor(executor);
        server.start();
    }

    int port() {
        return server.getAddress().getPort();
    }

    String base() {
        return "http://" + server.getAddress().getAddress().getHostAddress() + ":" + port();
    }

    List<Request> requests() {
        return List.copyOf(log);
    }

    /** Serves a path (and everything under it) with a handler, logging each request first. */
    TestServer on(String path, HttpHandler handler) {
        server.createContext(path, exchange -> {
            log.add(new Request(exchange.getRequestMethod(), exchange.getRequestURI().toString(),
                    exchange.getRequestHeaders().getFirst("Host"), exchange.getRequestHeaders().getFirst("User-Agent")));
            try (exchange) {
                handler.handle(exchange);
            }
        });
        return this;
    }

    /** Serves a fixed body with a content type (Content-Length framing). */
    TestServer content(String path, String contentType, byte[] body) {
        return on(path, exchange -> send(exchange, 200, contentType, body));
    }

    TestServer content(String path, String contentType, String body) {
        return content(path, contentType, body.getBytes(StandardCharsets.UTF_8));
    }

    /** Answers a redirect. */
    TestServer redirect(String path, int status, String location) {
        return on(path, exchange -> {
            exchange.getResponseHeaders().set("Location", location);
            exchange.sendResponseHeaders(status, -1);
        });
    }

    static void send(HttpExchange exchange, int status, String contentType, byte[] body) throws IOException {
        if (contentType != null) {
            exchange.getResponseHeaders().set("Content-Type", contentType);
        }
        exchange.sendResponseHeaders(status, body.length == 0 ? -1 : body.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
        }
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }
}
