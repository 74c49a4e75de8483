package io.quiver.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.felix.framework.Felix;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EndpointWaiterTest {

    /**
     * With --stdio a client can be done, and close stdin (which stops the framework), before the HTTP
     * endpoint of the same server answers: the wait ends then, rather than at its timeout as a failed start.
     */
    @Test
    void aFrameworkThatStopsEndsTheWaitWithoutAnEndpoint(@TempDir Path storage) throws Exception {
        Felix felix = new Felix(Map.of("org.osgi.framework.storage", storage.toString()));
        felix.start();
        Thread stopper = new Thread(() -> {
            try {
                Thread.sleep(300);
                felix.stop();
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        stopper.start();
        // nothing will ever register the servlet: without the check this waits out the whole minute
        URI url = assertTimeoutPreemptively(Duration.ofSeconds(30),
                () -> new EndpointWaiter(felix.getBundleContext(), "127.0.0.1").await(60_000));
        assertNull(url);
        stopper.join();
        felix.waitForStop(10_000);
    }

    /**
     * The probe is a real MCP request that opens nothing (a stateless {@code server/discover}); Jetty's
     * own 404 (no servlet yet) is not an answer, the servlet's JSON-RPC error with 404 is.
     */
    @Test
    void theProbeIsAStatelessDiscoverAndOnlyTheServletsAnswerCounts() throws Exception {
        List<String> seen = new CopyOnWriteArrayList<>();
        AtomicInteger status = new AtomicInteger(404);
        AtomicReference<String> body = new AtomicReference<>("<html>Not Found</html>");
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/mcp", exchange -> {
            seen.add(exchange.getRequestMethod() + " " + exchange.getRequestHeaders().getFirst("Mcp-Method") + " "
                    + exchange.getRequestHeaders().getFirst("MCP-Protocol-Version") + " "
                    + exchange.getRequestHeaders().getFirst("Mcp-Session-Id") + " "
                    + new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
            byte[] answer = body.get().getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(status.get(), answer.length);
            exchange.getResponseBody().write(answer);
            exchange.close();
        });
        server.start();
        try {
            URI url = URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/mcp");
            assertNull(EndpointWaiter.answeredByMcp(url), "Jetty's 404 before the servlet is registered");
            body.set("{\"jsonrpc\":\"2.0\",\"id\":\"quiver-start\",\"error\":{\"code\":-32601,\"message\":\"x\"}}");
            assertEquals(url, EndpointWaiter.answeredByMcp(url), "the servlet's own 404");
            status.set(401);
            body.set("");
            assertEquals(url, EndpointWaiter.answeredByMcp(url), "an endpoint that wants credentials answers");
            status.set(200);
            body.set("{\"jsonrpc\":\"2.0\",\"id\":\"quiver-start\",\"result\":{}}");
            assertEquals(url, EndpointWaiter.answeredByMcp(url), "plain HTTP: the endpoint as it is");
            assertEquals(4, seen.size());
            String request = seen.get(0);
            assertTrue(request.startsWith("POST server/discover 2026-07-28 null {"), request);
            assertTrue(request.contains("\"method\":\"server/discover\""), request);
            assertTrue(request.contains("\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\""), request);
        } finally {
            server.stop(0);
        }
    }

    @Test
    void endpointPropertyShapes() {
        assertEquals(List.of("http://a/"), EndpointWaiter.endpoints("http://a/"));
        assertEquals(List.of("http://a/", "http://b/"), EndpointWaiter.endpoints(new String[] {"http://a/", "http://b/"}));
        assertEquals(List.of("http://a/"), EndpointWaiter.endpoints(List.of("http://a/")));
        assertEquals(List.of(), EndpointWaiter.endpoints(null));
    }

    @Test
    void theHostIsTheBindAddressAndThePortTheRuntimes() throws Exception {
        assertEquals(URI.create("http://127.0.0.1:7711/"),
                EndpointWaiter.chooseEndpoint(List.of("http://127.0.0.1:7711/"), "127.0.0.1"));
        assertEquals(URI.create("http://localhost:4000/"),
                EndpointWaiter.chooseEndpoint(List.of("http://localhost:4000/"), "localhost"));
        // what Felix HTTP publishes for a wildcard bind: every interface; the URL says what is bound
        assertEquals(URI.create("http://0.0.0.0:37277/"), EndpointWaiter.chooseEndpoint(
                List.of("http://[fd00:0:0:0:0:0:0:2%eth0]:37277/", "http://192.0.2.2:37277/"), "0.0.0.0"));
        assertEquals(URI.create("http://[::]:8080/"), EndpointWaiter.chooseEndpoint(List.of("http://[::]:8080/"), "::"));
        // and for an IPv6 literal: no brackets
        assertEquals(URI.create("http://[::1]:35489/"), EndpointWaiter.chooseEndpoint(List.of("http://::1:35489/"), "::1"));
        assertEquals(URI.create("https://h:8443/ctx/"), EndpointWaiter.chooseEndpoint(List.of("no port", "https://x:8443/ctx/"), "h"));
        assertThrows(TimeoutException.class, () -> EndpointWaiter.chooseEndpoint(List.of(), "127.0.0.1"));
    }

    @Test
    void joinPutsOneSlashBetween() {
        assertEquals(URI.create("http://h:1/mcp"), EndpointWaiter.join(URI.create("http://h:1/"), "/mcp"));
        assertEquals(URI.create("http://h:1/ctx/mcp"), EndpointWaiter.join(URI.create("http://h:1/ctx"), "mcp"));
    }

    @Test
    void slf4jIsExportedWithTheBuildsVersion() {
        String v = FrameworkProperties.version("slf4j.version");
        assertEquals("org.slf4j;version=\"" + v + "\",org.slf4j.spi;version=\"" + v + "\",org.slf4j.event;version=\""
                + v + "\",org.slf4j.helpers;version=\"" + v + "\"", FrameworkProperties.slf4jExports(v));
    }

    /**
     * Over HTTPS the probe names the certificate's host: Jetty answers a request for a host the certificate
     * does not name with its own 400 ("Invalid SNI"), and a certificate that names only a DNS host (most
     * real ones) never names the bind address. That 400 is not MCP's answer.
     */
    @Test
    void overHttpsOnLoopbackTheEndpointIsNamedLocalhostOnlyWhenTheCertificateHoldsThatAndNotTheAddress() {
        URI url = URI.create("https://127.0.0.1:8443/mcp");
        URI localhost = URI.create("https://localhost:8443/mcp");
        List<List<?>> dns = List.of(List.of(2, "localhost"));
        assertEquals(localhost, EndpointWaiter.OwnCertificate.named(url, dns));
        assertEquals(url, EndpointWaiter.OwnCertificate.named(url, List.of(List.of(2, "localhost"), List.of(7, "127.0.0.1"))));
        assertEquals(url, EndpointWaiter.OwnCertificate.named(url, List.of(List.of(2, "mcp.example.com"))),
                "a name that may not lead here is not guessed");
        assertEquals(url, EndpointWaiter.OwnCertificate.named(url, List.of()));
        URI wildcard = URI.create("https://0.0.0.0:8443/mcp");
        assertEquals(wildcard, EndpointWaiter.OwnCertificate.named(wildcard, dns), "not a loopback address");
        assertEquals(URI.create("https://localhost:8443/mcp"),
                EndpointWaiter.OwnCertificate.named(URI.create("https://[::1]:8443/mcp"), dns));
        assertEquals(URI.create("https://[::1]:8443/mcp"), EndpointWaiter.OwnCertificate.named(
                URI.create("https://[::1]:8443/mcp"), List.of(List.of(2, "localhost"), List.of(7, "0:0:0:0:0:0:0:1"))));
    }

    @Test
    void overHttpsTheProbeNamesTheCertificatesHostAndJettysOwn400IsNoAnswer(@TempDir Path dir) throws Exception {
        Path store = dir.resolve("tls.p12");
        Process keytool = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "keytool").toString(),
                "-genkeypair", "-alias", "t", "-keyalg", "EC", "-groupname", "secp256r1", "-dname", "CN=localhost",
                "-ext", "SAN=dns:localhost", "-validity", "2", "-storetype", "PKCS12", "-keystore", store.toString(),
                "-storepass", "secret").redirectErrorStream(true).start();
        String made = new String(keytool.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(keytool.waitFor(60, java.util.concurrent.TimeUnit.SECONDS) && keytool.exitValue() == 0, made);
        java.security.KeyStore keys = java.security.KeyStore.getInstance("PKCS12");
        try (java.io.InputStream in = java.nio.file.Files.newInputStream(store)) {
            keys.load(in, "secret".toCharArray());
        }
        javax.net.ssl.KeyManagerFactory kmf = javax.net.ssl.KeyManagerFactory.getInstance(
                javax.net.ssl.KeyManagerFactory.getDefaultAlgorithm());
        kmf.init(keys, "secret".toCharArray());
        javax.net.ssl.SSLContext tls = javax.net.ssl.SSLContext.getInstance("TLS");
        tls.init(kmf.getKeyManagers(), null, null);

        List<String> hosts = new CopyOnWriteArrayList<>();
        AtomicReference<Boolean> mcpAnswers = new AtomicReference<>(true);
        try (javax.net.ssl.SSLServerSocket server = (javax.net.ssl.SSLServerSocket) tls.getServerSocketFactory()
                .createServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            Thread serving = new Thread(() -> {
                while (!server.isClosed()) {
                    try (java.net.Socket client = server.accept()) {
                        java.io.BufferedReader in = new java.io.BufferedReader(
                                new java.io.InputStreamReader(client.getInputStream(), StandardCharsets.US_ASCII));
                        String host = "";
                        for (String line = in.readLine(); line != null && !line.isEmpty(); line = in.readLine()) {
                            if (line.regionMatches(true, 0, "Host:", 0, 5)) {
                                host = line.substring(5).trim();
                            }
                        }
                        hosts.add(host);
                        // as Jetty's SNI check does: a host the certificate does not name gets its own 400
                        String body = host.startsWith("localhost:") && mcpAnswers.get()
                                ? "{\"jsonrpc\":\"2.0\",\"id\":\"quiver-start\",\"result\":{}}" : "{\"message\":\"Invalid SNI\"}";
                        String status = body.contains("jsonrpc") ? "200 OK" : "400 Bad Request";
                        client.getOutputStream().write(("HTTP/1.1 " + status + "\r\nContent-Type: application/json\r\n"
                                + "Content-Length: " + body.length() + "\r\nConnection: close\r\n\r\n" + body)
                                .getBytes(StandardCharsets.US_ASCII));
                    } catch (java.io.IOException e) {
                        // closed
                    }
                }
            }, "tls-endpoint");
            serving.setDaemon(true);
            serving.start();
            URI url = URI.create("https://127.0.0.1:" + server.getLocalPort() + "/mcp");

            assertEquals(URI.create("https://localhost:" + server.getLocalPort() + "/mcp"), EndpointWaiter.answeredByMcp(url),
                    "named as the certificate names it, which holds no address");
            assertEquals("localhost:" + server.getLocalPort(), hosts.get(0), "the certificate's host, not the address");

            mcpAnswers.set(false);
            assertNull(EndpointWaiter.answeredByMcp(url), "Jetty's own 400 is not the MCP servlet's answer");
        }
    }
}
