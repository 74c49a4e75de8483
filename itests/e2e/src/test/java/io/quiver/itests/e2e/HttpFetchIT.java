package io.quiver.itests.e2e;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import io.quiver.itests.client.McpClient;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import tools.jackson.databind.JsonNode;

/**
 * The {@code fetch} tool of the tools-default feature, as a user runs it: off (not listed) until
 * {@code etc/io.quiver.tools.http.cfg} allows a host, then fetching from that host only.
 *
 * <p>Two local sites stand for the world: {@code allowed} on 127.0.0.2, the one address the configuration
 * opens ({@code allowedAddresses = 127.0.0.2/32}: loopback, so refused without it), and {@code forbidden}
 * on 127.0.0.1, which every refused request would have reached (directly, by a redirect, or through the
 * name {@code localhost}, which the allow-list names but which resolves to loopback addresses that are
 * not opened). Its request log stays empty: nothing refused was ever asked. (On Linux all of
 * 127.0.0.0/8 is loopback; elsewhere 127.0.0.2 needs an alias on the loopback interface.)
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class HttpFetchIT {

    private static final Duration EFFECT = Duration.ofSeconds(20);
    private static final int MAX_BYTES = 65_536;

    private static Site allowed;
    private static Site forbidden;
    private static QuiverServer server;
    private static McpClient client;
    private static Path config;

    @BeforeAll
    static void start() throws Exception {
        allowed = new Site("127.0.0.2");
        forbidden = new Site("127.0.0.1");
        forbidden.on("/", e -> send(e, 200, "text/plain", "secret".getBytes(StandardCharsets.UTF_8)));
        server = QuiverServer.start("http-fetch", "core,http,tools-default");
        client = McpClient.connect(server.url(), "fetch-it", Duration.ofSeconds(30));
        config = server.home().resolve("etc").resolve("io.quiver.tools.http.cfg");
    }

    @AfterAll
    static void stop() throws Exception {
        if (client != null) {
            client.close();
        }
        if (server != null) {
            server.close();
        }
        if (allowed != null) {
            allowed.close();
        }
        if (forbidden != null) {
            forbidden.close();
        }
    }

    @Test
    @Order(1)
    void theToolIsListedOnceAHostIsAllowedWithReadOnlyOpenWorldHints() throws Exception {
        assertFalse(client.toolNames().contains("fetch"), "no host allowed: no fetch tool");
        assertTrue(client.toolNames().contains("current_time"), "the rest of tools-default is there");
        write(config, """
                allowedHosts = 127.0.0.2, localhost
                allowedAddresses = 127.0.0.2/32
                maxBytes = %d
                maxRedirects = 3
                timeoutMs = 15000
                """.formatted(MAX_BYTES));
        JsonNode tool = awaitTool(true);
        JsonNode hints = tool.path("annotations");
        assertTrue(hints.path("readOnlyHint").asBoolean(), tool.toString());
        assertFalse(hints.path("destructiveHint").asBoolean(true), tool.toString());
        assertTrue(hints.path("openWorldHint").asBoolean(), tool.toString());
        JsonNode properties = tool.path("inputSchema").path("properties");
        assertEquals(5000, properties.path("max_length").path("default").asInt(), tool.toString());
        assertEquals(List.of("url"), List.of(tool.path("inputSchema").path("required").get(0).asString()));
    }

    @Test
    @Order(2)
    void htmlComesBackAsMarkdownInPieces() throws Exception {
        allowed.content("/page.html", "text/html; charset=utf-8", """
                <!DOCTYPE html><html><head><title>Page</title><script>alert("no")</script></head><body>
                <h1>Welcome</h1><p>Some <b>bold</b> text and <a href="/next.html">the next page</a>.</p>
                <ul><li>first</li><li>second</li></ul></body></html>""");
        String page = text(fetch(Map.of("url", allowed.url("/page.html"))));
        assertTrue(page.startsWith("Contents of " + allowed.url("/page.html") + ":\n# Welcome\n"), page);
        assertTrue(page.contains("Some **bold** text and [the next page](" + allowed.url("/next.html") + ")."), page);
        assertTrue(page.contains("* first\n* second"), page);
        assertFalse(page.contains("alert"), page);

        StringBuilder html = new StringBuilder("<html><body>");
        for (int i = 0; i < 500; i++) {
            html.append("<p>Paragraph number ").append(i).append(" of a long page.</p>");
        }
        allowed.content("/long.html", "text/html", html.append("</body></html>").toString());
        String header = "Contents of " + allowed.url("/long.html") + ":\n";
        String whole = text(fetch(Map.of("url", allowed.url("/long.html"), "max_length", 999_999)))
                .substring(header.length());
        assertTrue(whole.length() > 12_000, "three pieces of 5000 at least: " + whole.length());
        StringBuilder joined = new StringBuilder();
        int start = 0;
        for (int piece = 0; piece < 10; piece++) {
            Map<String, Object> arguments = piece == 0 ? Map.of("url", allowed.url("/long.html"))
                    : Map.of("url", allowed.url("/long.html"), "start_index", start);
            String text = text(fetch(arguments)).substring(header.length());
            int marker = text.indexOf("\n\n<error>Content truncated.");
            if (marker < 0) {
                joined.append(text);
                break;
            }
            assertEquals(5000, marker, "the default max_length");
            start += marker;
            assertTrue(text.endsWith("Call the fetch tool with a start_index of " + start + " to get more content.</error>"),
                    text);
            joined.append(text, 0, marker);
        }
        assertEquals(whole, joined.toString(), "the pieces add up to the whole");
        JsonNode past = fetch(Map.of("url", allowed.url("/long.html"), "start_index", 1_000_000));
        assertTrue(past.path("isError").asBoolean(), past.toString());
        assertTrue(text(past).contains("No more content available"), past.toString());
    }

    @Test
    @Order(3)
    void redirectsOnTheAllowedHostAreFollowedAndBinaryIsAnEmbeddedResource() throws Exception {
        allowed.content("/target.txt", "text/plain", "arrived");
        allowed.redirect("/moved", "/target.txt");
        String text = text(fetch(Map.of("url", allowed.url("/moved"))));
        assertTrue(text.contains("redirected to " + allowed.url("/target.txt")), text);
        assertTrue(text.endsWith(":\narrived"), text);

        byte[] png = {(byte) 0x89, 'P', 'N', 'G', 13, 10, 26, 10, 0, 0, 0, 13, 'I', 'H', 'D', 'R', 0, 0, 0, 1};
        allowed.content("/pixel.png", "image/png", png);
        JsonNode result = fetch(Map.of("url", allowed.url("/pixel.png")));
        JsonNode resource = result.path("content").get(1);
        assertEquals("resource", resource.path("type").asString(), result.toString());
        assertEquals("image/png", resource.path("resource").path("mimeType").asString(), result.toString());
        assertArrayEquals(png, Base64.getDecoder().decode(resource.path("resource").path("blob").asString()));
    }

    @Test
    @Order(4)
    void aHostNotAllowedIsRefused() throws Exception {
        String refused = refused(Map.of("url", forbidden.url("/secret")));
        assertTrue(refused.contains("the host 127.0.0.1:" + forbidden.port() + " is not allowed"), refused);
        assertTrue(refused.contains("127.0.0.2, localhost"), "the allowed hosts are named: " + refused);
        String world = refused(Map.of("url", "https://www.example.com/"));
        assertTrue(world.contains("the host www.example.com is not allowed"), world);
        assertTrue(forbidden.requests().isEmpty(), forbidden.requests().toString());
    }

    @Test
    @Order(5)
    void aRedirectToAHostNotAllowedIsRefused() throws Exception {
        int before = allowed.requests().size();
        allowed.redirect("/out", forbidden.url("/secret"));
        String refused = refused(Map.of("url", allowed.url("/out")));
        assertTrue(refused.contains(allowed.url("/out") + " redirected, the host 127.0.0.1:" + forbidden.port()
                + " is not allowed"), refused);
        assertEquals(List.of("GET /out"), allowed.requests().subList(before, allowed.requests().size()));
        assertTrue(forbidden.requests().isEmpty(), forbidden.requests().toString());
    }

    @Test
    @Order(6)
    void aNameThatResolvesToALoopbackAddressIsRefused() throws Exception {
        String refused = refused(Map.of("url", "http://localhost:" + forbidden.port() + "/secret"));
        assertTrue(refused.contains("the host localhost resolves to"), refused);
        assertTrue(refused.contains("is a loopback address"), refused);
        allowed.redirect("/to-localhost", "http://localhost:" + forbidden.port() + "/secret");
        String redirected = refused(Map.of("url", allowed.url("/to-localhost")));
        assertTrue(redirected.contains("/to-localhost redirected, the host localhost resolves to"), redirected);
        assertTrue(forbidden.requests().isEmpty(), forbidden.requests().toString());
    }

    @Test
    @Order(7)
    void aBodyOverTheLimitIsRefusedAndNotReadToItsEnd() throws Exception {
        long endless = 256L << 20;
        CompletableFuture<Long> streamed = new CompletableFuture<>();
        allowed.on("/huge.txt", e -> {
            e.getResponseHeaders().set("Content-Type", "text/plain");
            e.sendResponseHeaders(200, 0); // chunked, no length announced
            byte[] block = "x".repeat(8192).getBytes(StandardCharsets.US_ASCII);
            long sent = 0;
            try (OutputStream out = e.getResponseBody()) {
                while (sent < endless) {
                    out.write(block);
                    sent += block.length;
                }
            } catch (IOException gone) {
                streamed.complete(sent); // the reader went away
                return;
            }
            streamed.complete(-1L);
        });
        String refused = refused(Map.of("url", allowed.url("/huge.txt")));
        assertTrue(refused.contains("is larger than the limit of " + MAX_BYTES + " bytes (maxBytes"), refused);
        assertTrue(refused.contains("reading stopped there"), refused);
        long sent = streamed.get(EFFECT.toMillis(), TimeUnit.MILLISECONDS);
        assertTrue(sent >= MAX_BYTES && sent < endless, "the connection was dropped after " + sent + " bytes");

        allowed.content("/declared.txt", "text/plain", new byte[4 * MAX_BYTES]);
        String declared = refused(Map.of("url", allowed.url("/declared.txt")));
        assertTrue(declared.contains("the server declared " + 4 * MAX_BYTES + " bytes"), declared);
        assertTrue(forbidden.requests().isEmpty(), forbidden.requests().toString());
    }

    @Test
    @Order(8)
    void theToolGoesWhenNoHostIsAllowedAnyMore() throws Exception {
        write(config, "allowedHosts =\n");
        awaitTool(false);
        assertTrue(client.toolNames().contains("current_time"));
        assertTrue(forbidden.requests().isEmpty(), forbidden.requests().toString());
    }

    // -------------------------------------------------------------------------------------------

    private static JsonNode fetch(Map<String, ?> arguments) throws Exception {
        JsonNode response = client.callTool("fetch", arguments);
        assertTrue(response.has("result"), response.toString());
        return response.path("result");
    }

    /** A call that succeeds: its first text block. */
    private static String text(JsonNode result) {
        return result.path("content").get(0).path("text").asString();
    }

    /** A call that is refused: its error text. */
    private static String refused(Map<String, ?> arguments) throws Exception {
        JsonNode result = fetch(arguments);
        assertTrue(result.path("isError").asBoolean(), "refused: " + result);
        String text = text(result);
        assertTrue(text.startsWith("Refused: "), text);
        return text;
    }

    private static JsonNode awaitTool(boolean listed) throws Exception {
        long deadline = System.nanoTime() + EFFECT.toNanos();
        while (true) {
            JsonNode tool = client.tool("fetch");
            if ((tool != null) == listed) {
                return tool;
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("fetch " + (listed ? "not listed" : "still listed") + " after " + EFFECT
                        + "; server log:\n" + server.log());
            }
            Thread.sleep(100);
        }
    }

    private static void write(Path file, String text) throws IOException {
        Path part = file.resolveSibling("." + file.getFileName() + ".part");
        Files.writeString(part, text);
        Files.move(part, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }

    private static void send(HttpExchange exchange, int status, String contentType, byte[] body) throws IOException {
        exchange.getResponseHeaders().set("Content-Type", contentType);
        exchange.sendResponseHeaders(status, body.length == 0 ? -1 : body.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
        } catch (IOException gone) {
            // the reader went away (a refused body): nothing to do
        }
    }

    /** A local web site on one loopback address, logging every request it gets ({@code GET /path}). */
    private static final class Site implements AutoCloseable {
        private final HttpServer http;
        private final ExecutorService executor = Executors.newCachedThreadPool();
        private final ConcurrentLinkedQueue<String> log = new ConcurrentLinkedQueue<>();

        Site(String address) throws IOException {
            http = HttpServer.create(new InetSocketAddress(InetAddress.getByName(address), 0), 0);
            http.setExecutor(executor);
            http.start();
        }

        int port() {
            return http.getAddress().getPort();
        }

        String url(String path) {
            return "http://" + http.getAddress().getAddress().getHostAddress() + ":" + port() + path;
        }

        List<String> requests() {
            return List.copyOf(log);
        }

        void on(String path, HttpHandler handler) {
            http.createContext(path, exchange -> {
                log.add(exchange.getRequestMethod() + " " + exchange.getRequestURI());
                try (exchange) {
                    handler.handle(exchange);
                }
            });
        }

        void content(String path, String contentType, String body) {
            content(path, contentType, body.getBytes(StandardCharsets.UTF_8));
        }

        void content(String path, String contentType, byte[] body) {
            on(path, e -> send(e, 200, contentType, body));
        }

        void redirect(String path, String location) {
            on(path, e -> {
                e.getResponseHeaders().set("Location", location);
                e.sendResponseHeaders(302, -1);
            });
        }

        @Override
        public void close() {
            http.stop(0);
            executor.shutdownNow();
        }
    }
}
