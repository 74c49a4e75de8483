package io.quiver.itests.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLHandshakeException;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The server over HTTPS, configured as a user does it: a key store made with the JDK's {@code keytool} and
 * Felix HTTP's settings in {@code etc/org.apache.felix.http.cfg}. Its clients are the official MCP Java SDK
 * client and the JDK's HTTP client, each trusting that certificate and nothing else.
 */
class HttpsIT {

    private static final String PASSWORD = "quiver-test";
    private static final Pattern HTTPS_PORT = Pattern.compile("HTTPS:(\\d+)");

    private static Path keyStore;
    private static SSLContext trusting;

    @BeforeAll
    static void makeACertificate() throws Exception {
        keyStore = keyStore("dns:localhost,ip:127.0.0.1");
        trusting = trusting(keyStore);
    }

    /** A key store made by the JDK's keytool, its certificate naming {@code names} (keytool's SAN syntax). */
    private static Path keyStore(String names) throws Exception {
        Path dir = Files.createDirectories(Path.of("target", "https").toAbsolutePath());
        Path store = dir.resolve("server-" + System.nanoTime() + ".p12");
        Process keytool = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "keytool").toString(),
                "-genkeypair", "-alias", "quiver", "-keyalg", "EC", "-groupname", "secp256r1",
                "-dname", "CN=localhost", "-ext", "SAN=" + names, "-validity", "2",
                "-storetype", "PKCS12", "-keystore", store.toString(), "-storepass", PASSWORD)
                .redirectErrorStream(true).start();
        String output = new String(keytool.getInputStream().readAllBytes());
        assertTrue(keytool.waitFor(60, TimeUnit.SECONDS) && keytool.exitValue() == 0, output);
        return store;
    }

    /** A TLS context that trusts the certificate of {@code store} and nothing else. */
    private static SSLContext trusting(Path store) throws Exception {
        KeyStore server = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(store)) {
            server.load(in, PASSWORD.toCharArray());
        }
        KeyStore trust = KeyStore.getInstance("PKCS12");
        trust.load(null, null);
        trust.setCertificateEntry("quiver", server.getCertificate("quiver"));
        TrustManagerFactory factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        factory.init(trust);
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(null, factory.getTrustManagers(), null);
        return context;
    }

    /** Felix HTTP's settings for HTTPS on an OS-chosen port, plain HTTP on or off. */
    private static QuiverServer.Preparation https(boolean plainHttp) {
        return https(plainHttp, PASSWORD);
    }

    private static QuiverServer.Preparation https(boolean plainHttp, String password) {
        return https(plainHttp, password, keyStore);
    }

    private static QuiverServer.Preparation https(boolean plainHttp, String password, Path store) {
        return home -> Files.writeString(home.resolve("etc").resolve("org.apache.felix.http.cfg"), String.join("\n",
                "org.apache.felix.https.enable=true",
                "org.osgi.service.http.port.secure=0",
                "org.apache.felix.https.keystore=" + store,
                "org.apache.felix.https.keystore.password=" + password,
                "org.apache.felix.https.keystore.key.password=" + password,
                "org.apache.felix.https.keystore.type=PKCS12",
                "org.apache.felix.http.enable=" + plainHttp, ""));
    }

    /**
     * HTTPS alone: the endpoint line names the HTTPS URL, the official client initialises, lists, calls and
     * answers an elicitation over it (the call's answer a stream of server-sent events), a session's GET
     * stream opens, the port given for plain HTTP stays closed, and nothing went wrong in Jetty's start.
     * (Jetty's start failed there once: the transport added a connector Felix HTTP could not list, and the
     * endpoint answered 404.)
     */
    @Test
    void overHttpsAloneTheOfficialClientWorksAndNothingListensInPlainHttp() throws Exception {
        int plainPort = freePort();
        try (QuiverServer server = QuiverServer.start("https-only", "core,http,conformance", https(false),
                "--port", Integer.toString(plainPort))) {
            assertTrue(server.url().startsWith("https://127.0.0.1:"), server.url());
            assertTrue(server.url().endsWith("/mcp"), server.url());
            assertEquals(1, server.logLines("(HTTPS) are served on the thread that reads them"), server.log());

            McpSyncClient client = sdkClient(server.url());
            try {
                assertEquals("quiver", client.initialize().serverInfo().name());
                List<String> names = client.listTools().tools().stream().map(McpSchema.Tool::name).toList();
                assertTrue(names.contains("test_simple_text"), names.toString());
                McpSchema.CallToolResult simple = client.callTool(new McpSchema.CallToolRequest("test_simple_text", Map.of()));
                McpSchema.TextContent text = assertInstanceOf(McpSchema.TextContent.class, simple.content().get(0));
                assertEquals("This is a simple text response for testing.", text.text());
                McpSchema.CallToolResult elicited = client.callTool(new McpSchema.CallToolRequest("test_elicitation",
                        Map.of("message", "Who are you?")));
                McpSchema.TextContent answer = assertInstanceOf(McpSchema.TextContent.class, elicited.content().get(0));
                assertTrue(answer.text().contains("https-client"), answer.text());
            } finally {
                client.closeGracefully();
            }

            HttpClient http = http(trusting);
            HttpResponse<String> init = http.send(post(server.url(), "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\","
                    + "\"params\":{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},"
                    + "\"clientInfo\":{\"name\":\"jdk\",\"version\":\"1\"}}}").build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(200, init.statusCode(), init.body());
            String session = init.headers().firstValue("Mcp-Session-Id").orElseThrow();
            http.send(post(server.url(), "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}")
                    .header("Mcp-Session-Id", session).header("MCP-Protocol-Version", "2025-06-18").build(),
                    HttpResponse.BodyHandlers.discarding());
            HttpResponse<InputStream> stream = http.send(HttpRequest.newBuilder(URI.create(server.url()))
                    .timeout(Duration.ofSeconds(10)).header("Accept", "text/event-stream")
                    .header("Mcp-Session-Id", session).header("MCP-Protocol-Version", "2025-06-18").GET().build(),
                    HttpResponse.BodyHandlers.ofInputStream());
            assertEquals(200, stream.statusCode());
            assertEquals("text/event-stream", stream.headers().firstValue("Content-Type").orElse("").split(";")[0]);
            stream.body().close();

            assertThrows(ConnectException.class, () -> new Socket(InetAddress.getLoopbackAddress(), plainPort).close(),
                    "plain HTTP is off: nothing listens on --port");
            assertEquals(1, server.logLines("Started Jetty"), "Jetty waited for its configuration: " + server.log());
            assertEquals(0, server.logLines("ERROR"), server.log());
            assertEquals(0, server.logLines("Exception"), server.log());

            // the file deleted: Felix HTTP, which waited for a configuration, serves on --port again
            URI secure = URI.create(server.url());
            Files.delete(server.home().resolve("etc").resolve("org.apache.felix.http.cfg"));
            String plainUrl = "http://127.0.0.1:" + plainPort + "/mcp";
            HttpClient plainClient = http(null);
            Await.until(() -> {
                try {
                    return plainClient.send(post(plainUrl, PING).build(), HttpResponse.BodyHandlers.ofString())
                            .body().contains("\"jsonrpc\"");
                } catch (IOException e) {
                    return false;
                }
            }, Duration.ofSeconds(20), server::log);
            assertThrows(ConnectException.class,
                    () -> new Socket(InetAddress.getLoopbackAddress(), secure.getPort()).close(), "HTTPS is gone with it");
            assertEquals(0, server.logLines("ERROR"), server.log());
        }
    }

    /** A ping outside a session: MCP answers it with a JSON-RPC error (a session is required), Jetty alone 404. */
    private static final String PING = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}";

    /**
     * A certificate that names only a DNS host, as most real ones do: Jetty answers a request for any other
     * host (the bind address, say) with its own 400 "Invalid SNI". The launcher's probe names the
     * certificate's host, so the start waits for MCP's own answer and ends; the endpoint line names that host
     * (here {@code localhost}), which a client that checks the certificate can use.
     */
    @Test
    void aCertificateThatNamesOnlyAHostStillLetsTheServerStart() throws Exception {
        Path store = keyStore("dns:localhost");
        SSLContext trust = trusting(store);
        try (QuiverServer server = QuiverServer.start("https-dns-only", "core,http", https(false, PASSWORD, store))) {
            int port = URI.create(server.url()).getPort();
            assertEquals("https://localhost:" + port + "/mcp", server.url(),
                    "the endpoint line names the host the certificate holds, which a client can check it against");
            HttpClient http = http(trust);
            HttpResponse<String> init = http.send(post(server.url(),
                    "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\","
                            + "\"capabilities\":{},\"clientInfo\":{\"name\":\"jdk\",\"version\":\"1\"}}}").build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(200, init.statusCode(), init.body());
            assertTrue(init.body().contains("\"serverInfo\""), init.body());
            assertEquals(0, server.logLines("ERROR"), server.log());
        }
    }

    /**
     * A key store that does not open (a wrong password): the start fails with status 1 as soon as Felix HTTP
     * reports that Jetty did not start (not after the start timeout), says why and which file configures Jetty,
     * and the process ends, rather than serving nothing or plain HTTP.
     */
    @Test
    void aKeyStoreThatDoesNotOpenFailsTheStartNamingTheFile() throws Exception {
        QuiverServer.Failure failure = QuiverServer.startFailing("https-wrong-password", "core,http",
                https(false, "not-the-password"));
        assertEquals(1, failure.exitCode(), failure.log());
        assertFalse(failure.stdout().contains("Quiver MCP endpoint"), failure.stdout());
        String reason = failure.log().lines().filter(l -> l.startsWith("quiver: cannot start:")).findFirst().orElse("");
        assertTrue(reason.startsWith("quiver: cannot start: Felix HTTP could not start Jetty with ")
                && reason.contains("org.apache.felix.http.cfg: ") && reason.contains("keystore password was incorrect"),
                "the reason itself, not the start timeout's message: " + failure.log());
    }

    /**
     * A client that does not trust the server's certificate gets no answer: the endpoint is TLS with that key.
     * The server is HTTPS alone, and starts although another process holds the port given with --port, on
     * which it does not listen (the start checked that port and refused before).
     */
    @Test
    void aClientThatDoesNotTrustTheCertificateIsRefusedTheHandshake() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
                QuiverServer server = QuiverServer.start("https-untrusted", "core,http", https(false),
                        "--port", Integer.toString(taken.getLocalPort()))) {
            HttpClient http = http(null);
            assertThrows(SSLHandshakeException.class,
                    () -> http.send(post(server.url(), PING).build(), HttpResponse.BodyHandlers.ofString()));
        }
    }

    /**
     * HTTPS beside plain HTTP: the endpoint line stays the plain one, the selector lane serves the MCP requests of
     * both ports, and the HTTPS port answers the same engine (a 2026-07-28 call there, a session there).
     */
    @Test
    void besidePlainHttpBothPortsServe() throws Exception {
        try (QuiverServer server = QuiverServer.start("https-beside", "core,http,conformance", https(true))) {
            assertTrue(server.url().startsWith("http://"), server.url());
            assertEquals(2, server.logLines("are served on the thread that reads them"), server.log());
            assertEquals(1, server.logLines("(HTTPS) are served on the thread that reads them"), server.log());
            String secure = "https://127.0.0.1:" + httpsPort(server) + "/mcp";

            HttpClient http = http(trusting);
            HttpResponse<String> call = http.send(post(secure, "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\","
                    + "\"params\":{\"name\":\"test_simple_text\",\"arguments\":{},\"_meta\":{"
                    + "\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
                    + "\"io.modelcontextprotocol/clientCapabilities\":{},"
                    + "\"io.modelcontextprotocol/clientInfo\":{\"name\":\"jdk\",\"version\":\"1\"}}}}")
                    .header("MCP-Protocol-Version", "2026-07-28").header("Mcp-Method", "tools/call")
                    .header("Mcp-Name", "test_simple_text").build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(200, call.statusCode(), call.body());
            assertTrue(call.body().contains("This is a simple text response for testing."), call.body());

            McpSyncClient plain = sdkClient(server.url());
            try {
                assertEquals("quiver", plain.initialize().serverInfo().name());
                assertFalse(plain.listTools().tools().isEmpty());
            } finally {
                plain.closeGracefully();
            }
            assertEquals(0, server.logLines("ERROR"), server.log());
        }
    }

    /**
     * Over HTTPS the selector lane serves too, behind the TLS layer: keep-alive connections whose calls switch
     * between a tool that blocks (handed to the call pool, the connection then read on Jetty's pool) and ones
     * that wait on nothing (served on the thread that decrypted them) get every answer, in order, while four
     * clients go at once.
     */
    @Test
    void overHttpsConnectionsSwitchingBetweenBlockingAndQuickCallsGetEveryAnswer() throws Exception {
        try (QuiverServer server = QuiverServer.start("https-lane", "core,http,tools-default,conformance", https(false))) {
            assertEquals(1, server.logLines("(HTTPS) are served on the thread that reads them"), server.log());
            List<java.util.concurrent.CompletableFuture<Integer>> clients = new java.util.ArrayList<>();
            for (int c = 0; c < 4; c++) {
                int client = c;
                clients.add(java.util.concurrent.CompletableFuture.supplyAsync(() -> {
                    HttpClient http = http(trusting); // one keep-alive connection: its calls go one after another
                    int answered = 0;
                    for (int i = 0; i < 40; i++) {
                        String name = "c" + client + "-" + i;
                        boolean blocking = i % 2 == 0;
                        try {
                            String text = statelessCall(http, server.url(), blocking ? "greet" : "test_simple_text",
                                    blocking ? Map.of("name", name) : Map.of());
                            assertEquals(blocking ? "Hello, " + name + "!" : "This is a simple text response for testing.",
                                    text);
                            answered++;
                        } catch (Exception e) {
                            throw new IllegalStateException("call " + name + " failed", e);
                        }
                    }
                    return answered;
                }));
            }
            for (java.util.concurrent.CompletableFuture<Integer> client : clients) {
                assertEquals(40, client.get(60, TimeUnit.SECONDS));
            }
            assertEquals(0, server.logLines("ERROR"), server.log());
        }
    }

    /**
     * Over HTTPS, as over plain HTTP, a 2026-07-28 client that closes its connection while nothing is written on it
     * is noticed at once, whether it says so first (TLS's {@code close_notify}, as the JDK's socket sends it) or only
     * closes the TCP connection: with room for one listener, a second client listens as soon as the first has gone,
     * not at the quiet stream's next keep-alive (20 s). The close is read through the TLS layer; a {@code close_notify}
     * is bytes on the socket, not its end.
     */
    @Test
    void overHttpsAClientThatClosesAQuietStreamIsNoticedAtOnce() throws Exception {
        try (QuiverServer server = QuiverServer.start("https-close", "core,http,tools-default", home -> {
            https(false).prepare(home);
            Files.writeString(home.resolve("etc").resolve("io.quiver.core.cfg"), "maxListeners = 1\n");
        })) {
            assertEquals(1, server.logLines("(HTTPS) are served on the thread that reads them"), server.log());
            URI uri = URI.create(server.url());
            for (boolean closeNotify : new boolean[] {true, false}) {
                String how = closeNotify ? "with close_notify: " : "without close_notify: ";
                // the room, once the listener of the round before (closed just now) has given it back
                Listener first = awaitRoom(uri, server.url());
                assertTrue(first != null, how + "a first listener got the room\n" + server.log());
                try (Probe.Raw listening = first.raw()) {
                    try (Probe.Raw second = listenOver(new Socket(uri.getHost(), uri.getPort()), server.url())) {
                        assertEquals(503, second.status(), how + "no room for a second one while the first listens");
                    }
                    Thread.sleep(300); // listening for a while: nothing is written to it meanwhile
                    if (!closeNotify) {
                        first.tcp().close(); // under the TLS socket: no close_notify, the TCP connection ends
                    }
                }
                Listener next = awaitRoom(uri, server.url());
                assertTrue(next != null, how + "a new listener got the room within 5 s of the first one closing\n"
                        + server.log());
                next.raw().close();
            }
            assertEquals(0, server.logLines("ERROR"), server.log());
        }
    }

    /** A listen stream over TLS and the TCP connection under it. */
    private record Listener(Socket tcp, Probe.Raw raw) {
    }

    /** A listen stream that got the room (its status 200 read), trying for 5 s; null if none did. */
    private static Listener awaitRoom(URI uri, String url) throws Exception {
        long since = System.nanoTime();
        while (System.nanoTime() - since < 5_000_000_000L) {
            Socket tcp = new Socket(uri.getHost(), uri.getPort());
            Probe.Raw raw = listenOver(tcp, url);
            if (raw.status() == 200) {
                return new Listener(tcp, raw);
            }
            raw.close();
            Thread.sleep(50);
        }
        return null;
    }

    /** A 2026-07-28 listen stream for tool changes over TLS on {@code tcp}; its status line is read by the caller. */
    private static Probe.Raw listenOver(Socket tcp, String url) throws Exception {
        Socket tls = trusting.getSocketFactory().createSocket(tcp, tcp.getInetAddress().getHostAddress(), tcp.getPort(), true);
        return new Probe.Raw(tls).send(Probe.statelessPost(url, "subscriptions/listen", null,
                Map.of("notifications", Map.of("toolsListChanged", true))));
    }

    /** The first text block of a 2026-07-28 call's JSON answer. */
    private static String statelessCall(HttpClient http, String url, String tool, Map<String, Object> arguments)
            throws Exception {
        String body = io.quiver.itests.client.McpClient.JSON.writeValueAsString(Map.of("jsonrpc", "2.0", "id", 7, "method", "tools/call",
                "params", Map.of("name", tool, "arguments", arguments, "_meta", Map.of(
                        "io.modelcontextprotocol/protocolVersion", "2026-07-28",
                        "io.modelcontextprotocol/clientCapabilities", Map.of(),
                        "io.modelcontextprotocol/clientInfo", Map.of("name", "https-lane", "version", "1")))));
        HttpResponse<String> r = http.send(post(url, body).header("MCP-Protocol-Version", "2026-07-28")
                .header("Mcp-Method", "tools/call").header("Mcp-Name", tool).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), r.body());
        return io.quiver.itests.client.McpClient.JSON.readTree(r.body()).path("result").path("content").path(0).path("text").asString("");
    }

    /**
     * Clients that trickle over TLS are cut off as over plain HTTP: a request's headers sent in part after the
     * handshake, and a handshake begun and never finished, each end within {@code headerTimeoutMs} (and the
     * sweep's second), while a normal call answers. Only plain HTTP has been asked before the attack (the
     * launcher's probe), so the HTTPS connector is watched as a sibling of the plain one. (Before: every such
     * connection stayed open until Jetty's idle timeout, and a byte every few seconds kept it for good.)
     */
    @Test
    void clientsThatTrickleOverTlsAreCutOffAfterTheHeaderTimeout() throws Exception {
        try (QuiverServer server = QuiverServer.start("https-slow", "core,http,tools-default", home -> {
            https(true).prepare(home);
            Files.writeString(home.resolve("etc").resolve("io.quiver.transport.http.cfg"), "headerTimeoutMs = 1000\n");
        })) {
            int secure = httpsPort(server);
            List<Socket> attackers = new java.util.ArrayList<>();
            try {
                for (int i = 0; i < 20; i++) {
                    attackers.add(headersInPart(secure));
                    Socket handshake = new Socket("127.0.0.1", secure);
                    handshake.getOutputStream().write(new byte[] {0x16, 0x03, 0x01}); // a record header, then nothing
                    handshake.getOutputStream().flush();
                    attackers.add(handshake);
                }
                Probe.normalCallAnswers(server.url());
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
                int open = 0;
                for (Socket attacker : attackers) {
                    if (!endsBefore(attacker, deadline)) {
                        open++;
                    }
                }
                assertEquals(0, open, "connections still open 10 s after trickling began:\n" + server.log());
                Probe.normalCallAnswers(server.url());
                assertTrue(server.logLines("within 1000 ms: closed") > 0, server.log());
            } finally {
                for (Socket attacker : attackers) {
                    attacker.close();
                }
            }
        }
    }

    /**
     * HTTPS added while the server runs: Felix HTTP restarts Jetty with it (sessions stay, plain HTTP on the
     * same --port), and the new server's connectors are watched for slow headers, also long after the
     * guard's first requests. With the selector lane (on by default) the lane's connector factory, which every
     * new server asks, shows the guard the server before any request; without it, the first request after the
     * guard saw the old server stop does, so ordinary calls go on during the attack. (Before: the guard looked
     * at the connector of the first 64 requests and then of every 1024th, so a restarted Jetty went unwatched
     * for up to a thousand requests.)
     */
    @org.junit.jupiter.params.ParameterizedTest(name = "selectorLane = {0}")
    @org.junit.jupiter.params.provider.ValueSource(booleans = {true, false})
    void httpsAddedWhileRunningIsServedAndWatched(boolean selectorLane) throws Exception {
        int plainPort = freePort();
        try (QuiverServer server = QuiverServer.start("https-later", "core,http,tools-default",
                home -> Files.writeString(home.resolve("etc").resolve("io.quiver.transport.http.cfg"),
                        "headerTimeoutMs = 1000\nselectorLane = " + selectorLane + "\n"),
                "--port", Integer.toString(plainPort))) {
            for (int i = 0; i < 80; i++) {
                Probe.normalCallAnswers(server.url());
            }
            https(true).prepare(server.home());
            Await.until(() -> HTTPS_PORT.matcher(server.log()).find()
                    && server.logLines("are served on the thread") == (selectorLane ? 3 : 0), Duration.ofSeconds(20), server::log);
            int secure = httpsPort(server);

            List<Socket> attackers = new java.util.ArrayList<>();
            // without the lane, ordinary calls go on meanwhile, as they would: one after the guard's next sweep
            // teaches it; with the lane, no request comes
            java.util.concurrent.ScheduledExecutorService calls = java.util.concurrent.Executors.newSingleThreadScheduledExecutor();
            java.util.concurrent.ScheduledFuture<?> calling = selectorLane ? calls.schedule(() -> { }, 0, TimeUnit.SECONDS)
                    : calls.scheduleWithFixedDelay(() -> {
                // any answer will do here (the first ones on the new Jetty may be slow): how fast a normal
                // call is during the attack is checked after it
                try {
                    Probe.statelessCall(server.url(), "current_time", Map.of(), Duration.ofSeconds(10));
                } catch (Exception | AssertionError e) {
                    // the next one tries again
                }
            }, 0, 250, TimeUnit.MILLISECONDS);
            try {
                for (int i = 0; i < 10; i++) {
                    attackers.add(headersInPart(secure));
                }
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
                long open = attackers.stream().filter(a -> !endsBefore(a, deadline)).count();
                assertEquals(0, open, "connections still open 10 s after trickling began:\n" + server.log());
                Probe.normalCallAnswers(server.url());
            } finally {
                calling.cancel(false);
                calls.shutdown();
                for (Socket attacker : attackers) {
                    attacker.close();
                }
            }
            HttpClient http = http(trusting);
            HttpResponse<String> ping = http.send(post("https://127.0.0.1:" + secure + "/mcp", PING).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertTrue(ping.body().contains("\"jsonrpc\""), ping.body());
            assertEquals(0, server.logLines("ERROR"), server.log());
        }
    }

    /** A TLS connection, its handshake done, that has sent a request line and one header, and no more. */
    private static Socket headersInPart(int port) throws IOException {
        javax.net.ssl.SSLSocket tls = (javax.net.ssl.SSLSocket) trusting.getSocketFactory().createSocket("127.0.0.1", port);
        tls.startHandshake();
        tls.getOutputStream().write("POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n".getBytes(StandardCharsets.US_ASCII));
        tls.getOutputStream().flush();
        return tls;
    }

    /** Whether the server ends the connection (end of stream, or a reset) before the deadline. */
    private static boolean endsBefore(Socket socket, long deadline) {
        try {
            while (true) {
                long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
                if (left <= 0) {
                    return false;
                }
                socket.setSoTimeout((int) left);
                if (socket.getInputStream().read() < 0) {
                    return true;
                }
            }
        } catch (java.net.SocketTimeoutException e) {
            return false;
        } catch (IOException e) {
            return true; // reset, or TLS's close
        }
    }

    private static McpSyncClient sdkClient(String url) {
        URI uri = URI.create(url);
        HttpClientStreamableHttpTransport transport = HttpClientStreamableHttpTransport
                .builder(uri.getScheme() + "://" + uri.getRawAuthority())
                .endpoint(uri.getPath())
                .clientBuilder(HttpClient.newBuilder().sslContext(trusting).connectTimeout(Duration.ofSeconds(5)))
                .build();
        return McpClient.sync(transport)
                .requestTimeout(Duration.ofSeconds(20))
                .capabilities(McpSchema.ClientCapabilities.builder().elicitation().build())
                .elicitation(request -> new McpSchema.ElicitResult(McpSchema.ElicitResult.Action.ACCEPT,
                        Map.of("username", "https-client", "email", "tls@example.com")))
                .build();
    }

    /** The HTTPS port Felix HTTP's Jetty says it listens on (the first in the log). */
    private static int httpsPort(QuiverServer server) throws IOException {
        Matcher port = HTTPS_PORT.matcher(server.log());
        assertTrue(port.find(), server.log());
        return Integer.parseInt(port.group(1));
    }

    /** The JDK's HTTP/1.1 client, trusting {@code tls}'s certificates (null: the JVM's). */
    private static HttpClient http(SSLContext tls) {
        HttpClient.Builder builder = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(5));
        return (tls == null ? builder : builder.sslContext(tls)).build();
    }

    private static HttpRequest.Builder post(String url, String body) {
        return HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10))
                .header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofString(body));
    }

    /** A port nothing listens on now (the OS's choice, given back at once). */
    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }
}
