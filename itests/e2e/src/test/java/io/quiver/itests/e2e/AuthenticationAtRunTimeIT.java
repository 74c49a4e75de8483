package io.quiver.itests.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Authentication switched on and off while the server runs, as an operator does it: a loopback server
 * started without any serves the anonymous local caller; an API key file written into {@code etc/}
 * makes every request need a credential within seconds (the key works, none or another does not); a
 * broken key file alone keeps it locked; deleting the key files opens the loopback server again. A GET
 * or listen stream open when its credential stops being accepted ends.
 */
class AuthenticationAtRunTimeIT {

    private static final Duration T = Duration.ofSeconds(10);
    private static final Duration EFFECT = Duration.ofSeconds(20);

    @Test
    void aKeyFileWrittenAtRunTimeLocksTheEndpointAndDeletingItOpensItAgain() throws Exception {
        try (QuiverServer server = QuiverServer.start("auth-runtime", "core,http,tools-default")) {
            Path etc = server.home().resolve("etc");
            assertEquals(200, call(server, Map.of()).statusCode(), "no authentication configured: the local caller");

            String key = Credentials.newApiKey();
            Files.writeString(etc.resolve("io.quiver.auth.apikey-ops.cfg"), Credentials.apiKeyConfig(key, "ops", "", ""));
            awaitStatus(server, Map.of(), 401);
            assertEquals(200, call(server, Credentials.bearer(key)).statusCode(), "the new key works");
            assertEquals(401, call(server, Credentials.bearer(Credentials.newApiKey())).statusCode());

            // a second file of the key's PID (in the .config format, another subject), then deleted: FileInstall deleted
            // the configuration with it, and the endpoint stood open though the .cfg was still there
            Path twin = etc.resolve("io.quiver.auth.apikey-ops.config");
            Files.writeString(twin, Credentials.apiKeyConfig(key, "ops-twin", "", "").lines()
                    .map(line -> line.replaceFirst(" = (.*)", "=\"$1\"")).reduce("", (a, b) -> a + b + "\n"));
            awaitLog(server, "both set configuration io.quiver.auth.apikey");
            Files.delete(twin);
            awaitLog(server, "read again from");
            Thread.sleep(3_000); // FileInstall's next polls: a deletion it missed would show in them
            assertEquals(401, call(server, Map.of()).statusCode(), "the .cfg is still there: still locked");
            assertEquals(200, call(server, Credentials.bearer(key)).statusCode(), "and its key still works");

            // a typo in the only key file: locked, not open
            Files.writeString(etc.resolve("io.quiver.auth.apikey-ops.cfg"), "hash = sha256:not-hex\nsubject = ops\n"
                    + "expires = 2099-01-01\n");
            awaitStatus(server, Credentials.bearer(key), 401);
            assertEquals(401, call(server, Map.of()).statusCode(), "a broken key file keeps the endpoint locked");

            Files.delete(etc.resolve("io.quiver.auth.apikey-ops.cfg"));
            awaitStatus(server, Map.of(), 200);
        }
    }

    @Test
    void aKeyFileDeletedWhileTheServerIsStoppedIsRevokedWhenItStartsAgain() throws Exception {
        // the framework storage (--data) is kept between the two runs, as an operator keeps it
        String key = Credentials.newApiKey();
        String other = Credentials.newApiKey();
        try (QuiverServer first = QuiverServer.start("auth-restart", "core,http,tools-default", home -> {
            Files.writeString(home.resolve("etc/io.quiver.auth.apikey-ops.cfg"), Credentials.apiKeyConfig(key, "ops", "", ""));
            Files.writeString(home.resolve("etc/io.quiver.auth.apikey-dev.cfg"), Credentials.apiKeyConfig(other, "dev", "", ""));
        })) {
            assertEquals(200, call(first, Credentials.bearer(key)).statusCode());
            first.stop();
            Files.delete(first.home().resolve("etc/io.quiver.auth.apikey-ops.cfg"));
            try (QuiverServer second = first.restart()) {
                assertEquals(200, call(second, Credentials.bearer(other)).statusCode(), "the key still in etc/ works");
                assertEquals(401, call(second, Credentials.bearer(key)).statusCode(),
                        "the deleted key's configuration was left in the storage:\n" + second.log());
                assertTrue(second.log().contains("io.quiver.auth.apikey~ops") || second.log().contains("apikey-ops"),
                        second.log());
            }
        }
    }

    @Test
    void aKeyFileThatCannotBeReadStopsTheStartInsteadOfLeavingTheEndpointOpen() throws Exception {
        // without it the loopback endpoint would serve everyone as the local operator
        QuiverServer.Failure failure = QuiverServer.startFailing("auth-unreadable", "core,http,tools-default",
                home -> Files.writeString(home.resolve("etc/io.quiver.auth.apikey-ops.cfg"),
                        "subject = ops\nnote = bad \\u00ZZ\n"));
        assertTrue(failure.exitCode() != 0, "exit " + failure.exitCode());
        assertTrue(failure.log().contains("could not read io.quiver.auth.apikey-ops.cfg"), failure.log());
    }

    @Test
    void anOpenStreamEndsWhenItsCredentialIsNoLongerAccepted() throws Exception {
        try (QuiverServer server = QuiverServer.start("auth-streams", "core,http", home -> Files.writeString(
                home.resolve("etc/io.quiver.transport.http.cfg"), "sseKeepAliveMs = 1000\n"))) {
            Path etc = server.home().resolve("etc");
            // opened while nobody needs a credential: it ends once every request needs one
            try (Stream anonymous = Stream.open(server.url(), Map.of())) {
                String ops = Credentials.newApiKey();
                String dev = Credentials.newApiKey();
                Files.writeString(etc.resolve("io.quiver.auth.apikey-ops.cfg"), Credentials.apiKeyConfig(ops, "ops", "", ""));
                Files.writeString(etc.resolve("io.quiver.auth.apikey-dev.cfg"), Credentials.apiKeyConfig(dev, "dev", "", ""));
                awaitStatus(server, Map.of(), 401);
                anonymous.awaitEnd(EFFECT, server);

                try (Stream revoked = Stream.open(server.url(), Credentials.bearer(ops));
                     Stream kept = Stream.open(server.url(), Credentials.bearer(dev));
                     Probe.Raw listening = listen(server.url(), ops)) {
                    assertEquals(200, listening.status(), "a 2026-07-28 listen stream with the key");
                    kept.awaitLine(": keep-alive", EFFECT, server);
                    Files.delete(etc.resolve("io.quiver.auth.apikey-ops.cfg"));
                    awaitStatus(server, Credentials.bearer(ops), 401);
                    revoked.awaitEnd(EFFECT, server);
                    awaitEnd(listening, EFFECT, server);
                    kept.lines.clear();
                    kept.awaitLine(": keep-alive", EFFECT, server); // still open, still served
                    // the log line follows the ends (a client may see its stream end before it is written)
                    Await.until(() -> server.log().contains("of ops ended"), EFFECT, server::log);
                }
            }
        }
    }

    /** A 2026-07-28 {@code subscriptions/listen} stream for tool changes, opened with the key; its status line unread. */
    private static Probe.Raw listen(String url, String key) throws Exception {
        String body = Probe.statelessBody("subscriptions/listen", Map.of("notifications", Map.of("toolsListChanged", true)));
        return new Probe.Raw(url).send(Probe.postHead(url, "Authorization: Bearer " + key
                + "\r\nMCP-Protocol-Version: 2026-07-28\r\nMcp-Method: subscriptions/listen\r\nContent-Length: "
                + body.getBytes(StandardCharsets.UTF_8).length + "\r\n") + body);
    }

    /** Reads the raw stream to its end (its last chunk, or the connection closed) within {@code limit}. */
    private static void awaitLog(QuiverServer server, String text) throws Exception {
        long end = System.nanoTime() + EFFECT.toNanos();
        while (server.logLines(text) == 0) {
            if (System.nanoTime() > end) {
                throw new AssertionError("no log line with '" + text + "' within " + EFFECT + ":\n" + server.log());
            }
            Thread.sleep(100);
        }
    }

    private static void awaitEnd(Probe.Raw stream, Duration limit, QuiverServer server) throws Exception {
        stream.socket.setSoTimeout((int) limit.toMillis());
        StringBuilder read = new StringBuilder();
        try {
            for (int b = stream.in.read(); b >= 0; b = stream.in.read()) {
                read.append((char) b); // events and keep-alives until the last chunk
                if (read.toString().endsWith("\r\n0\r\n\r\n")) {
                    return;
                }
            }
        } catch (java.net.SocketTimeoutException e) {
            throw new AssertionError("the listen stream is still open after:\n" + read + "\n" + server.log()
                    + "\nthe server's threads:\n" + threads(server));
        }
    }

    /** The server's thread dump (jstack), for a failure's message. */
    private static String threads(QuiverServer server) {
        try {
            Process jstack = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "jstack").toString(),
                    Long.toString(server.pid())).redirectErrorStream(true).start();
            return new String(jstack.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "(no thread dump: " + e + ")";
        }
    }

    /** A session's GET stream as a client holds it: its lines as they come, and its end. */
    private static final class Stream implements AutoCloseable {
        private static final String END = "\u0000end";
        private static final HttpClient HTTP = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1).build();
        final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
        private final InputStream body;

        private Stream(InputStream body) {
            this.body = body;
            Thread reader = new Thread(() -> {
                try (BufferedReader in = new BufferedReader(
                        new InputStreamReader(body, StandardCharsets.UTF_8))) {
                    for (String line = in.readLine(); line != null; line = in.readLine()) {
                        lines.add(line);
                    }
                } catch (IOException e) {
                    // closed by the test, or cut: either way the end
                }
                lines.add(END);
            }, "stream-reader");
            reader.setDaemon(true);
            reader.start();
        }

        /** Initializes a session with {@code headers} and opens its GET stream. */
        static Stream open(String url, Map<String, String> headers) throws Exception {
            String init = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":"
                    + "\"2025-11-25\",\"capabilities\":{},\"clientInfo\":{\"name\":\"streams\",\"version\":\"1\"}}}";
            HttpResponse<String> initialized = HTTP.send(post(url, headers, null).POST(
                    HttpRequest.BodyPublishers.ofString(init)).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(200, initialized.statusCode(), initialized.body());
            String session = initialized.headers().firstValue("Mcp-Session-Id").orElseThrow();
            HttpResponse<String> notified = HTTP.send(post(url, headers, session).POST(HttpRequest.BodyPublishers
                    .ofString("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(202, notified.statusCode(), notified.body());
            HttpRequest.Builder get = HttpRequest.newBuilder(URI.create(url))
                    .header("Accept", "text/event-stream").header("Mcp-Session-Id", session)
                    .header("MCP-Protocol-Version", "2025-11-25").GET();
            headers.forEach(get::header);
            HttpResponse<InputStream> stream = HTTP.send(get.build(), HttpResponse.BodyHandlers.ofInputStream());
            assertEquals(200, stream.statusCode());
            return new Stream(stream.body());
        }

        private static HttpRequest.Builder post(String url, Map<String, String> headers, String session) {
            HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url))
                    .header("Content-Type", "application/json").header("Accept", "application/json, text/event-stream");
            if (session != null) {
                b.header("Mcp-Session-Id", session).header("MCP-Protocol-Version", "2025-11-25");
            }
            headers.forEach(b::header);
            return b;
        }

        void awaitLine(String line, Duration limit, QuiverServer server) throws Exception {
            long deadline = System.nanoTime() + limit.toNanos();
            for (String next = ""; !line.equals(next); ) {
                next = lines.poll(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
                assertTrue(next != null && !END.equals(next), "no " + line + " on the stream, which " + (next == null
                        ? "is still open" : "ended") + ":\n" + server.log());
            }
        }

        void awaitEnd(Duration limit, QuiverServer server) throws Exception {
            long deadline = System.nanoTime() + limit.toNanos();
            for (String next = ""; !END.equals(next); ) {
                next = lines.poll(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
                assertTrue(next != null, "the stream is still open:\n" + server.log());
            }
        }

        @Override
        public void close() throws IOException {
            body.close();
        }
    }

    private static void awaitStatus(QuiverServer server, Map<String, String> headers, int status) throws Exception {
        long deadline = System.nanoTime() + EFFECT.toNanos();
        int last;
        while ((last = call(server, headers).statusCode()) != status) {
            assertTrue(System.nanoTime() < deadline, "still " + last + ", expected " + status + ":\n" + server.log());
            Thread.sleep(100);
        }
    }

    private static HttpResponse<String> call(QuiverServer server, Map<String, String> headers) throws Exception {
        return Probe.statelessExchange(server.url(), "tools/list", null, Map.of(), headers, T);
    }
}
