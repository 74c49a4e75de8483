package io.quiver.tools.http.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.zip.GZIPOutputStream;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The fetcher against local servers: {@code allowed} on 127.0.0.1 (the one loopback address the policy
 * opens, with allowedAddresses = 127.0.0.1/32) and {@code closed} on 127.0.0.2 (on Linux all of 127.0.0.0/8
 * is loopback), which every refused request would have reached: its log stays empty. Names come from a
 * resolver of the test's own, so no lookup leaves the machine.
 */
class FetcherTest {

    private final CountDownLatch release = new CountDownLatch(1);
    private final Map<String, AtomicInteger> lookups = new ConcurrentHashMap<>();
    private final Map<String, List<String>> names = new HashMap<>();
    private TestServer allowed;
    private TestServer closed;
    private Fetcher fetcher;

    @BeforeEach
    void servers() throws Exception {
        fetcher = new Fetcher(this::resolve, SSLContext.getDefault());
        allowed = new TestServer("127.0.0.1");
        closed = new TestServer("127.0.0.2").on("/", e -> TestServer.send(e, 200, "text/plain", "secret".getBytes()));
        names.put("allowed.test", List.of("127.0.0.1"));
        names.put("closed.test", List.of("127.0.0.2"));
        names.put("mixed.test", List.of("127.0.0.1", "127.0.0.2"));
    }

    @AfterEach
    void stop() {
        release.countDown();
        fetcher.close();
        allowed.close();
        closed.close();
    }

    private Fetcher fetcher() {
        return fetcher;
    }

    private InetAddress[] resolve(String host) throws UnknownHostException {
        int n = lookups.computeIfAbsent(host, h -> new AtomicInteger()).incrementAndGet();
        if (host.equals("rebind.test")) { // the attacker's name: a good address first, then another
            return new InetAddress[] {Addresses.literal(n == 1 ? "127.0.0.1" : "127.0.0.2")};
        }
        List<String> found = names.get(host);
        if (found == null) {
            throw new UnknownHostException(host + ": no such name");
        }
        return found.stream().map(Addresses::literal).toArray(InetAddress[]::new);
    }

    private static Policy policy(String... more) {
        Map<String, Object> settings = new HashMap<>(Map.of(
                "allowedHosts", "127.0.0.1, allowed.test, closed.test, mixed.test, rebind.test, nowhere.test",
                "allowedAddresses", "127.0.0.1/32", "maxBytes", "65536", "timeoutMs", "5000"));
        for (int i = 0; i < more.length; i += 2) {
            settings.put(more[i], more[i + 1]);
        }
        return PolicyTest.policy(settings);
    }

    private Fetcher.Fetched fetch(String url, Policy policy) throws Fetcher.Failure {
        return fetcher().fetch(Fetcher.parse(url), policy, () -> false);
    }

    private Fetcher.Failure refused(String url, Policy policy) {
        return assertThrows(Fetcher.Failure.class, () -> fetch(url, policy));
    }

    @Test
    void fetchesABodyOfADeclaredLengthWithTheHostAndUserAgentOfTheUrl() throws Exception {
        allowed.content("/plain", "text/plain; charset=utf-8", "hello world");
        Fetcher.Fetched fetched = fetch("http://allowed.test:" + allowed.port() + "/plain?x=1#part", policy());
        assertEquals("hello world", new String(fetched.body(), StandardCharsets.UTF_8));
        assertEquals("text/plain; charset=utf-8", fetched.contentType());
        assertEquals(200, fetched.status());
        assertFalse(fetched.cut());
        TestServer.Request request = allowed.requests().get(0);
        assertEquals("/plain?x=1", request.path(), "the fragment stays on this side");
        assertEquals("allowed.test:" + allowed.port(), request.host());
        assertEquals(Policy.DEFAULT_USER_AGENT, request.userAgent());
    }

    @Test
    void readsChunkedAndGzipBodies() throws Exception {
        byte[] big = "chunk of text ".repeat(2000).getBytes(StandardCharsets.UTF_8);
        allowed.on("/chunked", e -> {
            e.sendResponseHeaders(200, 0); // no length: chunked
            try (OutputStream out = e.getResponseBody()) {
                for (int i = 0; i < big.length; i += 1000) {
                    out.write(big, i, Math.min(1000, big.length - i));
                    out.flush();
                }
            }
        });
        allowed.on("/gzip", e -> {
            ByteArrayOutputStream zipped = new ByteArrayOutputStream();
            try (GZIPOutputStream gzip = new GZIPOutputStream(zipped)) {
                gzip.write(big);
            }
            e.getResponseHeaders().set("Content-Encoding", "gzip");
            TestServer.send(e, 200, "text/plain", zipped.toByteArray());
        });
        assertArrayEquals(big, fetch(allowed.base() + "/chunked", policy()).body());
        assertArrayEquals(big, fetch(allowed.base() + "/gzip", policy()).body());
    }

    @Test
    void followsRedirectsOnAllowedHosts() throws Exception {
        allowed.content("/plain", "text/plain", "landed");
        allowed.redirect("/moved", 301, "/hop");
        allowed.redirect("/hop", 307, "http://allowed.test:" + allowed.port() + "/plain");
        Fetcher.Fetched fetched = fetch(allowed.base() + "/moved", policy());
        assertEquals("landed", new String(fetched.body(), StandardCharsets.UTF_8));
        assertEquals(URI.create("http://allowed.test:" + allowed.port() + "/plain"), fetched.url());
        assertEquals(2, fetched.redirects().size());
        assertEquals(List.of("/moved", "/hop", "/plain"), allowed.requests().stream().map(TestServer.Request::path).toList());
    }

    @Test
    void aDisallowedHostIsRefusedWithoutALookupOrARequest() {
        Fetcher.Failure failure = refused("http://elsewhere.test:" + closed.port() + "/", policy());
        assertTrue(failure.refused);
        assertTrue(failure.getMessage().contains("the host elsewhere.test:" + closed.port() + " is not allowed"),
                failure.getMessage());
        assertTrue(failure.getMessage().contains("127.0.0.1, allowed.test"), "the allowed hosts are named");
        assertFalse(lookups.containsKey("elsewhere.test"), "no lookup of a host that is not allowed");
        assertTrue(closed.requests().isEmpty());
    }

    @Test
    void aRedirectToADisallowedHostIsRefused() {
        allowed.redirect("/out", 302, "http://127.0.0.2:" + closed.port() + "/secret");
        Fetcher.Failure failure = refused(allowed.base() + "/out", policy());
        assertTrue(failure.getMessage().contains(allowed.base() + "/out redirected, the host 127.0.0.2 is not allowed")
                || failure.getMessage().contains("/out redirected, the host 127.0.0.2:" + closed.port() + " is not allowed"),
                failure.getMessage());
        assertEquals(1, allowed.requests().size());
        assertTrue(closed.requests().isEmpty());
    }

    @Test
    void aNameThatResolvesToAnAddressNotAllowedIsRefused() {
        Fetcher.Failure direct = refused("http://closed.test:" + closed.port() + "/", policy());
        assertTrue(direct.getMessage().contains("closed.test resolves to [127.0.0.2]; 127.0.0.2 is a loopback address"),
                direct.getMessage());
        allowed.redirect("/to-closed", 302, "http://closed.test:" + closed.port() + "/secret");
        Fetcher.Failure redirected = refused(allowed.base() + "/to-closed", policy());
        assertTrue(redirected.getMessage().contains("/to-closed redirected, the host closed.test resolves to"),
                redirected.getMessage());
        assertTrue(closed.requests().isEmpty());
    }

    @Test
    void everyAddressOfANameMustBeAllowed() {
        allowed.content("/plain", "text/plain", "never served");
        Fetcher.Failure failure = refused("http://mixed.test:" + allowed.port() + "/plain", policy());
        assertTrue(failure.getMessage().contains("[127.0.0.1, 127.0.0.2]"), failure.getMessage());
        assertTrue(allowed.requests().isEmpty(), "not even the good address is asked");
    }

    @Test
    void theConnectionGoesToTheAddressThatWasCheckedNotToALaterAnswer() throws Exception {
        allowed.content("/plain", "text/plain", "from the checked address");
        closed.content("/plain", "text/plain", "from the rebound address");
        Fetcher.Fetched fetched = fetch("http://rebind.test:" + allowed.port() + "/plain", policy());
        assertEquals("from the checked address", new String(fetched.body(), StandardCharsets.UTF_8));
        assertEquals(1, lookups.get("rebind.test").get(), "one lookup per request: the one checked");
        assertEquals("rebind.test:" + allowed.port(), allowed.requests().get(0).host());
        assertTrue(closed.requests().isEmpty());
        // a second fetch resolves again, gets the other address, and is refused
        assertTrue(refused("http://rebind.test:" + allowed.port() + "/plain", policy()).getMessage()
                .contains("127.0.0.2 is a loopback address"));
        assertTrue(closed.requests().isEmpty());
    }

    @Test
    void aCheckedAddressThatRefusesTheConnectionGivesWayToTheNext() throws Exception {
        allowed.content("/plain", "text/plain", "from the second address");
        names.put("two.test", List.of("127.0.0.3", "127.0.0.1")); // nothing listens on 127.0.0.3
        Policy both = policy("allowedHosts", "two.test", "allowedAddresses", "127.0.0.1/32, 127.0.0.3/32");
        Fetcher.Fetched fetched = fetch("http://two.test:" + allowed.port() + "/plain", both);
        assertEquals("from the second address", new String(fetched.body(), StandardCharsets.UTF_8));
        names.put("none.test", List.of("127.0.0.3"));
        Fetcher.Failure failure = refused("http://none.test:" + allowed.port() + "/plain",
                policy("allowedHosts", "none.test", "allowedAddresses", "127.0.0.3/32"));
        assertTrue(failure.getMessage().contains("could not connect to none.test port " + allowed.port()),
                failure.getMessage());
        assertFalse(failure.refused);
    }

    @Test
    void redirectsAreCountedAgainstMaxRedirects() {
        allowed.redirect("/loop", 302, "/loop");
        Fetcher.Failure failure = refused(allowed.base() + "/loop", policy("maxRedirects", "2"));
        assertTrue(failure.getMessage().contains("most redirects followed is 2 (maxRedirects)"), failure.getMessage());
        assertEquals(3, allowed.requests().size());
    }

    @Test
    void aBodyOverTheLimitIsRefusedOrCut() throws Exception {
        byte[] big = new byte[200_000];
        java.util.Arrays.fill(big, (byte) 'x');
        allowed.content("/declared", "text/plain", big);
        allowed.on("/streamed", e -> {
            e.getResponseHeaders().set("Content-Type", "text/plain");
            e.sendResponseHeaders(200, 0);
            try (OutputStream out = e.getResponseBody()) {
                out.write(big);
            }
        });
        Fetcher.Failure declared = refused(allowed.base() + "/declared", policy());
        assertTrue(declared.getMessage().contains("larger than the limit of 65536 bytes (maxBytes; the server declared"
                + " 200000 bytes)"), declared.getMessage());
        Fetcher.Failure streamed = refused(allowed.base() + "/streamed", policy());
        assertTrue(streamed.getMessage().contains("reading stopped there"), streamed.getMessage());

        Fetcher.Fetched cut = fetch(allowed.base() + "/streamed", policy("overLimit", "truncate"));
        assertTrue(cut.cut());
        assertEquals(65536, cut.body().length);
        Fetcher.Fetched cutDeclared = fetch(allowed.base() + "/declared", policy("overLimit", "truncate"));
        assertTrue(cutDeclared.cut());
        assertEquals(65536, cutDeclared.body().length);
    }

    @Test
    void compressedBodiesAreLimitedByTheirDecodedSizeAndByTheBytesReceived() throws Exception {
        byte[] big = new byte[200_000];
        java.util.Arrays.fill(big, (byte) 'x');
        ByteArrayOutputStream zipped = new ByteArrayOutputStream();
        try (GZIPOutputStream gzip = new GZIPOutputStream(zipped)) {
            gzip.write(big);
        }
        allowed.on("/small.gz", e -> {
            e.getResponseHeaders().set("Content-Encoding", "gzip");
            TestServer.send(e, 200, "text/plain", zipped.toByteArray());
        });
        assertTrue(zipped.size() < 65536, "small on the wire: " + zipped.size());
        Fetcher.Failure decoded = refused(allowed.base() + "/small.gz", policy());
        assertTrue(decoded.getMessage().contains("larger than the limit of 65536 bytes (maxBytes; more than that was"
                + " sent; reading stopped there)"), decoded.getMessage());

        // a zlib header, then empty stored blocks without end: a deflate body that never decodes to a byte
        byte[] empty = {0x00, 0x00, 0x00, (byte) 0xff, (byte) 0xff};
        CompletableFuture<Long> sent = new CompletableFuture<>();
        allowed.on("/nothing.z", e -> {
            e.getResponseHeaders().set("Content-Type", "text/plain");
            e.getResponseHeaders().set("Content-Encoding", "deflate");
            e.sendResponseHeaders(200, 0);
            long n = 0;
            try (OutputStream out = e.getResponseBody()) {
                out.write(new byte[] {0x78, 0x01});
                byte[] block = new byte[5 * 1000];
                for (int i = 0; i < block.length; i += 5) {
                    System.arraycopy(empty, 0, block, i, 5);
                }
                while (n < 64L << 20) {
                    out.write(block);
                    n += block.length;
                }
            } catch (IOException gone) {
                sent.complete(n);
                return;
            }
            sent.complete(-1L);
        });
        Fetcher.Failure compressed = refused(allowed.base() + "/nothing.z", policy());
        assertTrue(compressed.getMessage().contains("its compressed form alone is larger than " + (2 * 65536 + 65_536)
                + " bytes"), compressed.getMessage());
        long received = sent.get(10, TimeUnit.SECONDS);
        assertTrue(received > 0 && received < 16L << 20, "the connection was dropped after " + received + " bytes");
    }

    @Test
    void anUnknownContentEncodingFails() {
        allowed.on("/br", e -> {
            e.getResponseHeaders().set("Content-Encoding", "br");
            TestServer.send(e, 200, "text/plain", "not brotli".getBytes(StandardCharsets.UTF_8));
        });
        Fetcher.Failure failure = refused(allowed.base() + "/br", policy());
        assertTrue(failure.getMessage().endsWith("the body's Content-Encoding br is not supported"), failure.getMessage());
        assertFalse(failure.refused);
    }

    @Test
    void answersThatAreNotHttpOrEndEarlyFailInWords() throws Exception {
        Map<String, String> answers = Map.of(
                "HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nshort", "the connection closed before the response was complete",
                "garbage\r\n\r\n", "the server's answer is not valid HTTP/1.1 (",
                "HTTP/1.1 200 OK\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\nhello!",
                "the server's answer is not valid HTTP/1.1 (Multiple Content-Lengths)",
                "HTTP/1.1 200 OK\r\nX-Big: " + "y".repeat(Fetcher.MAX_HEAD) + "\r\n\r\n",
                "the server's answer is not valid HTTP/1.1 (Response Header Fields Too Large)");
        for (Map.Entry<String, String> answer : answers.entrySet()) {
            try (ServerSocket raw = new ServerSocket(0, 5, InetAddress.getByName("127.0.0.1"))) {
                Thread server = new Thread(() -> {
                    try (Socket socket = raw.accept()) {
                        socket.getInputStream().read(new byte[8192]);
                        socket.getOutputStream().write(answer.getKey().getBytes(StandardCharsets.ISO_8859_1));
                    } catch (IOException ignored) {
                        // the client went away
                    }
                });
                server.start();
                Fetcher.Failure failure = refused("http://127.0.0.1:" + raw.getLocalPort() + "/", policy());
                assertTrue(failure.getMessage().contains(": " + answer.getValue()), failure.getMessage());
                assertFalse(failure.refused);
                server.join(5000);
            }
        }
    }

    @Test
    void theHttpClientStartsAtTheFirstFetchWithAFewNamedThreadsAndCloseStopsThemAll() throws Exception {
        awaitClientThreads(0); // those of the tests before, closed after each
        allowed.content("/plain", "text/plain", "x");
        try (Fetcher own = new Fetcher(this::resolve, SSLContext.getDefault())) {
            assertEquals(0, clientThreads().size(), "nothing runs before the first fetch");
            own.fetch(Fetcher.parse(allowed.base() + "/plain"), policy(), () -> false);
            List<String> running = clientThreads();
            assertFalse(running.isEmpty());
            assertTrue(running.size() <= Fetcher.MAX_THREADS + 1, "a small pool and its scheduler: " + running);
            own.close();
            awaitClientThreads(0);
            assertTrue(assertThrows(Fetcher.Failure.class, () -> own.fetch(Fetcher.parse(allowed.base() + "/plain"),
                    policy(), () -> false)).getMessage().contains("stopping"));
        }
    }

    /** The threads of fetch's HTTP clients (not its name lookups, which end with their lookup). */
    private static List<String> clientThreads() {
        return Thread.getAllStackTraces().keySet().stream().map(Thread::getName)
                .filter(n -> n.startsWith(Fetcher.THREADS) && !n.equals("quiver-fetch-lookup")).sorted().toList();
    }

    private static void awaitClientThreads(int count) throws InterruptedException {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (clientThreads().size() != count) {
            assertTrue(System.nanoTime() < end, "still running: " + clientThreads());
            Thread.sleep(20);
        }
    }

    @Test
    void aServerThatDoesNotAnswerInTimeEndsTheFetch() {
        allowed.on("/slow", e -> {
            try {
                release.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException ignored) {
                Thread.currentThread().interrupt();
            }
        });
        long start = System.nanoTime();
        Fetcher.Failure failure = refused(allowed.base() + "/slow", policy("timeoutMs", "300"));
        long tookMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        assertTrue(failure.getMessage().contains("no complete answer within 300 ms (timeoutMs)"), failure.getMessage());
        assertFalse(failure.refused);
        assertTrue(tookMs < 5000, "ended by the deadline, not later: " + tookMs + " ms");
    }

    @Test
    void aCancelledCallStopsTheFetch() {
        allowed.content("/plain", "text/plain", "x");
        Fetcher.Failure failure = assertThrows(Fetcher.Failure.class,
                () -> fetcher().fetch(Fetcher.parse(allowed.base() + "/plain"), policy(), () -> true));
        assertTrue(failure.getMessage().contains("was cancelled"), failure.getMessage());
    }

    @Test
    void errorStatusesUnknownHostsAndBadUrlsFail() {
        allowed.on("/missing", e -> TestServer.send(e, 404, "text/plain", "no".getBytes()));
        assertTrue(refused(allowed.base() + "/missing", policy()).getMessage().endsWith("HTTP 404 Not Found"));
        assertTrue(refused("http://nowhere.test/", policy()).getMessage().contains("nowhere.test is unknown"));
        assertTrue(refused("ftp://allowed.test/file", policy()).getMessage().contains("not an http or https URL"));
        assertTrue(refused("http://user:pw@allowed.test/", policy()).getMessage().contains("user name or password"));
        assertTrue(assertThrows(Fetcher.Failure.class, () -> Fetcher.parse("/relative")).getMessage()
                .contains("not an absolute URL"));
        assertTrue(assertThrows(Fetcher.Failure.class, () -> Fetcher.parse("http://exa mple.com/")).getMessage()
                .contains("not a valid URL"));
        assertTrue(allowed.requests().size() == 1 && closed.requests().isEmpty());
    }

    @Test
    void addressLiteralsAreCheckedToo() {
        Policy any = policy("allowedHosts", "*");
        assertTrue(refused("http://127.0.0.2:" + closed.port() + "/", any).getMessage()
                .contains("127.0.0.2 is a loopback address"));
        assertTrue(refused("http://[::1]:" + closed.port() + "/", any).getMessage().contains("::1 is a loopback address"));
        assertTrue(refused("http://0.0.0.0:" + closed.port() + "/", policy("allowedHosts", "*",
                "allowPrivateAddresses", "true")).getMessage().contains("never fetched"));
        assertTrue(closed.requests().isEmpty());
    }
}
