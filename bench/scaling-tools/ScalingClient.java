import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The clients of bench/scaling.sh that wrk cannot be. A single-file program (JDK only, no build):
 * {@code java bench/scaling-tools/ScalingClient.java <command> <url> [args]}. Every result line
 * starts with the command's name, so the script can grep it.
 *
 * <ul>
 * <li>{@code wait URL TOOL SECONDS}: walks {@code tools/list} until TOOL is listed; prints how long
 * that took and how many tools were listed (exit status 1 if not within SECONDS).</li>
 * <li>{@code list URL PREFIX EXPECTED WARMUP MEASURE}: in one session, at concurrency 1: WARMUP s
 * of walks, then MEASURE s fetching the first page of {@code tools/list} over and over, then MEASURE
 * s walking every page; prints p50 / p99 of each, the pages per walk, the tools named PREFIX... seen
 * per walk (a walk that does not see EXPECTED of them counts as an error), and the errors (not 200,
 * or no {@code result}).</li>
 * <li>{@code idle URL}: reads commands from stdin, one a line: {@code sessions N} opens N sessions
 * (initialize + initialized, 32 at a time) and keeps them; {@code streams} opens the GET stream
 * (SSE listener stream) of every session kept, each on its own connection, held open by one
 * selector thread that reads and drops whatever comes (keep-alive comments); {@code check} says how
 * many streams are still open; {@code quit} closes everything and exits.</li>
 * </ul>
 */
public final class ScalingClient {

    private static final String ACCEPT = "application/json, text/event-stream";
    private static final String VERSION = "2025-11-25";
    private static final Pattern CURSOR = Pattern.compile("\"nextCursor\"\\s*:\\s*\"([^\"]*)\"");
    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10)).executor(Executors.newFixedThreadPool(4)).build();

    public static void main(String[] args) throws Exception {
        if (args.length < 2) {
            System.err.println("usage: java ScalingClient.java wait|list|idle URL [args]");
            System.exit(2);
        }
        URI url = URI.create(args[1]);
        int status = switch (args[0]) {
            case "wait" -> waitFor(url, args[2], Integer.parseInt(args[3]));
            case "list" -> list(url, args[2], Integer.parseInt(args[3]), Integer.parseInt(args[4]),
                    Integer.parseInt(args[5]));
            case "idle" -> idle(url);
            default -> throw new IllegalArgumentException(args[0]);
        };
        System.exit(status);
    }

    // --- wait, list -----------------------------------------------------------------------------

    /** One walk over every page: the pages, the names seen with a prefix, whether every answer was good. */
    record Walk(int pages, int matching, boolean ok, String body) {
    }

    static Walk walk(URI url, String session, String prefix, int maxPages) throws Exception {
        String cursor = null;
        int pages = 0;
        int matching = 0;
        String needle = "\"name\":\"" + prefix;
        String body = "";
        do {
            String params = cursor == null ? "{}" : "{\"cursor\":\"" + cursor + "\"}";
            HttpResponse<String> r = HTTP.send(post(url, session, "{\"jsonrpc\":\"2.0\",\"id\":" + pages
                    + ",\"method\":\"tools/list\",\"params\":" + params + "}"), HttpResponse.BodyHandlers.ofString());
            body = r.body();
            pages++;
            if (r.statusCode() != 200 || !body.contains("\"result\"")) {
                return new Walk(pages, matching, false, body);
            }
            for (int i = body.indexOf(needle); i >= 0; i = body.indexOf(needle, i + 1)) {
                matching++;
            }
            Matcher m = CURSOR.matcher(body);
            cursor = m.find() ? m.group(1) : null;
        } while (cursor != null && pages < maxPages);
        return new Walk(pages, matching, true, body);
    }

    static int waitFor(URI url, String tool, int seconds) throws Exception {
        long t0 = System.nanoTime();
        long deadline = t0 + seconds * 1_000_000_000L;
        String session = null;
        while (System.nanoTime() < deadline) {
            try {
                if (session == null) {
                    session = session(url);
                }
                Walk w = walk(url, session, tool, 100_000);
                if (w.ok && w.matching > 0) {
                    System.out.printf("wait: %s listed after %d ms%n", tool, (System.nanoTime() - t0) / 1_000_000);
                    return 0;
                }
            } catch (IOException | IllegalStateException e) {
                // not up yet
            }
            Thread.sleep(100);
        }
        System.out.printf("wait: %s not listed within %d s%n", tool, seconds);
        return 1;
    }

    static int list(URI url, String prefix, int expected, int warmup, int measure) throws Exception {
        String session = session(url);
        long end = System.nanoTime() + warmup * 1_000_000_000L;
        while (System.nanoTime() < end) {
            walk(url, session, prefix, 100_000);
        }
        List<Long> first = new ArrayList<>();
        int firstErrors = 0;
        end = System.nanoTime() + measure * 1_000_000_000L;
        while (System.nanoTime() < end) {
            long t = System.nanoTime();
            Walk w = walk(url, session, prefix, 1);
            first.add(System.nanoTime() - t);
            if (!w.ok) {
                firstErrors++;
            }
        }
        List<Long> walks = new ArrayList<>();
        int walkErrors = 0;
        int pages = 0;
        int matching = 0;
        String bad = null;
        end = System.nanoTime() + measure * 1_000_000_000L;
        while (System.nanoTime() < end || walks.isEmpty()) {
            long t = System.nanoTime();
            Walk w = walk(url, session, prefix, 100_000);
            walks.add(System.nanoTime() - t);
            pages = w.pages;
            matching = w.matching;
            if (!w.ok || w.matching != expected) {
                walkErrors++;
                bad = w.body;
            }
        }
        System.out.printf("list: first n=%d %s errors=%d%n", first.size(), percentiles(first), firstErrors);
        System.out.printf("list: walk n=%d %s errors=%d pages=%d tools=%d%n", walks.size(), percentiles(walks),
                walkErrors, pages, matching);
        if (bad != null) {
            System.err.println("list: a failed walk ended with: " + bad.substring(0, Math.min(500, bad.length())));
        }
        return 0;
    }

    static String percentiles(List<Long> nanos) {
        List<Long> sorted = new ArrayList<>(nanos);
        Collections.sort(sorted);
        if (sorted.isEmpty()) {
            return "p50_ms=0 p99_ms=0";
        }
        return String.format("p50_ms=%.3f p99_ms=%.3f", at(sorted, 0.50), at(sorted, 0.99));
    }

    static double at(List<Long> sorted, double q) {
        return sorted.get(Math.min(sorted.size() - 1, (int) Math.floor(q * sorted.size()))) / 1e6;
    }

    // --- idle -----------------------------------------------------------------------------------

    /** One held GET stream: what it answered, and whether it ended. */
    static final class Stream {
        final StringBuilder head = new StringBuilder();
        int status;
        boolean closed;
    }

    static int idle(URI url) throws Exception {
        List<String> sessions = Collections.synchronizedList(new ArrayList<>());
        Selector selector = Selector.open();
        List<SocketChannel> channels = new ArrayList<>();
        AtomicInteger closed = new AtomicInteger();
        AtomicLong bytes = new AtomicLong();
        Thread pump = null;
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        for (String line; (line = in.readLine()) != null; ) {
            String[] cmd = line.trim().split("\\s+");
            switch (cmd[0]) {
                case "sessions" -> openSessions(url, Integer.parseInt(cmd[1]), sessions);
                case "streams" -> {
                    openStreams(url, sessions, selector, channels, closed, bytes);
                    pump = new Thread(() -> pump(selector, closed, bytes), "streams");
                    pump.setDaemon(true);
                    pump.start();
                }
                case "check" -> System.out.printf("check: sessions=%d streams=%d open=%d closed=%d bytes_read=%d%n",
                        sessions.size(), channels.size(), channels.size() - closed.get(), closed.get(), bytes.get());
                case "quit" -> {
                    for (SocketChannel c : channels) {
                        c.close();
                    }
                    return 0;
                }
                default -> System.out.println("unknown: " + line);
            }
            System.out.flush();
        }
        return 0;
    }

    static void openSessions(URI url, int n, List<String> sessions) throws Exception {
        Map<Integer, AtomicInteger> statuses = new ConcurrentHashMap<>();
        Semaphore window = new Semaphore(32);
        long t0 = System.nanoTime();
        List<CompletableFuture<?>> all = new ArrayList<>();
        List<Long> perThousand = new ArrayList<>();
        long mark = t0;
        for (int i = 0; i < n; i++) {
            if (i > 0 && i % 1000 == 0) {
                long now = System.nanoTime();
                perThousand.add((now - mark) / 1_000_000);
                mark = now;
            }
            window.acquire();
            all.add(HTTP.sendAsync(initialize(url), HttpResponse.BodyHandlers.discarding())
                    .thenCompose(r -> {
                        if (r.statusCode() != 200) {
                            return CompletableFuture.completedFuture(r.statusCode());
                        }
                        String id = r.headers().firstValue("Mcp-Session-Id").orElse("");
                        return HTTP.sendAsync(post(url, id, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}"),
                                HttpResponse.BodyHandlers.discarding()).thenApply(a -> {
                                    if (a.statusCode() == 202 || a.statusCode() == 200) {
                                        sessions.add(id);
                                        return 200;
                                    }
                                    return 1000 + a.statusCode();
                                });
                    })
                    .handle((status, e) -> {
                        statuses.computeIfAbsent(e != null ? -1 : status, s -> new AtomicInteger()).incrementAndGet();
                        window.release();
                        return null;
                    }));
        }
        CompletableFuture.allOf(all.toArray(CompletableFuture[]::new)).join();
        System.out.printf("sessions: asked=%d kept=%d in %d ms (ms per 1,000 asked: %s); by HTTP status"
                + " (1xxx: of the initialized notification): %s%n", n, sessions.size(),
                (System.nanoTime() - t0) / 1_000_000, perThousand, new TreeMap<>(statuses));
    }

    static void openStreams(URI url, List<String> sessions, Selector selector, List<SocketChannel> channels,
            AtomicInteger closed, AtomicLong bytes) throws IOException {
        long t0 = System.nanoTime();
        InetSocketAddress address = new InetSocketAddress(url.getHost(), url.getPort());
        List<Stream> streams = new ArrayList<>();
        List<Long> perThousand = new ArrayList<>();
        long mark = t0;
        int failed = 0;
        for (String id : sessions) {
            if (streams.size() > 0 && streams.size() % 1000 == 0 && perThousand.size() < streams.size() / 1000) {
                long now = System.nanoTime();
                perThousand.add((now - mark) / 1_000_000);
                mark = now;
            }
            try {
                SocketChannel c = SocketChannel.open(address);
                c.write(ByteBuffer.wrap(("GET " + url.getPath() + " HTTP/1.1\r\nHost: " + url.getHost() + ":"
                        + url.getPort() + "\r\nAccept: text/event-stream\r\nMcp-Session-Id: " + id
                        + "\r\nMCP-Protocol-Version: " + VERSION + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII)));
                c.configureBlocking(false);
                Stream s = new Stream();
                c.register(selector, SelectionKey.OP_READ, s);
                channels.add(c);
                streams.add(s);
            } catch (IOException e) {
                failed++;
            }
            // at most 32 connections the server has not answered yet: a listen queue overflows
            // when the acceptor falls behind (Jetty's was 50 before the launcher set 1024), and a
            // dropped SYN is only sent again after a second
            drain(selector, selector.selectNow(), closed, bytes);
            while (unanswered(streams) >= 32) {
                drain(selector, selector.select(100), closed, bytes);
            }
        }
        // every stream answers its status line at once; wait for them (at most 60 s)
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (System.nanoTime() < deadline && streams.stream().anyMatch(s -> s.status == 0 && !s.closed)) {
            drain(selector, selector.select(200), closed, bytes);
        }
        Map<String, Integer> outcomes = new TreeMap<>();
        for (Stream s : streams) {
            outcomes.merge(s.status == 0 ? (s.closed ? "closed" : "no answer") : String.valueOf(s.status), 1, Integer::sum);
        }
        if (failed > 0) {
            outcomes.put("connect failed", failed);
        }
        System.out.printf("streams: asked=%d open=%d in %d ms (ms per 1,000 opened: %s); by HTTP status: %s%n",
                sessions.size(), channels.size() - closed.get(), (System.nanoTime() - t0) / 1_000_000, perThousand,
                outcomes);
    }

    private static int answeredCount;

    /** Streams opened that have neither answered nor ended. */
    static int unanswered(List<Stream> streams) {
        return streams.size() - answeredCount;
    }

    private static final ByteBuffer BUFFER = ByteBuffer.allocateDirect(64 * 1024);

    /** Reads what the selected streams sent, noting status lines and ends. */
    static void drain(Selector selector, int selected, AtomicInteger closed, AtomicLong bytes) {
        if (selected == 0) {
            return;
        }
        for (SelectionKey key : selector.selectedKeys()) {
            Stream s = (Stream) key.attachment();
            SocketChannel c = (SocketChannel) key.channel();
            int n;
            try {
                BUFFER.clear();
                n = c.read(BUFFER);
            } catch (IOException e) {
                n = -1;
            }
            if (n < 0) {
                if (s.status == 0) {
                    answeredCount++;
                }
                s.closed = true;
                closed.incrementAndGet();
                key.cancel();
                try {
                    c.close();
                } catch (IOException ignored) {
                    // closing anyway
                }
                continue;
            }
            bytes.addAndGet(n);
            if (s.status == 0) {
                BUFFER.flip();
                while (BUFFER.hasRemaining() && s.head.length() < 64) {
                    s.head.append((char) BUFFER.get());
                }
                int eol = s.head.indexOf("\r\n");
                if (eol > 0 || s.head.length() >= 64) {
                    String[] parts = s.head.toString().split(" ");
                    s.status = parts.length > 1 && parts[1].matches("\\d{3}") ? Integer.parseInt(parts[1]) : -1;
                    answeredCount++;
                }
            }
        }
        selector.selectedKeys().clear();
    }

    static void pump(Selector selector, AtomicInteger closed, AtomicLong bytes) {
        try {
            while (selector.isOpen()) {
                drain(selector, selector.select(1000), closed, bytes);
            }
        } catch (IOException e) {
            System.err.println("streams: selector failed: " + e);
        }
    }

    // --- HTTP -----------------------------------------------------------------------------------

    static String session(URI url) throws Exception {
        HttpResponse<String> r = HTTP.send(initialize(url), HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() != 200) {
            throw new IllegalStateException("initialize answered " + r.statusCode() + ": " + r.body());
        }
        String id = r.headers().firstValue("Mcp-Session-Id").orElseThrow();
        HTTP.send(post(url, id, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}"),
                HttpResponse.BodyHandlers.discarding());
        return id;
    }

    static HttpRequest initialize(URI url) {
        return HttpRequest.newBuilder(url).header("Content-Type", "application/json").header("Accept", ACCEPT)
                .POST(HttpRequest.BodyPublishers.ofString("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\","
                        + "\"params\":{\"protocolVersion\":\"" + VERSION + "\",\"capabilities\":{},"
                        + "\"clientInfo\":{\"name\":\"scaling\",\"version\":\"1\"}}}"))
                .build();
    }

    static HttpRequest post(URI url, String session, String body) {
        return HttpRequest.newBuilder(url).header("Content-Type", "application/json").header("Accept", ACCEPT)
                .header("MCP-Protocol-Version", VERSION).header("Mcp-Session-Id", session)
                .timeout(Duration.ofSeconds(60))
                .POST(HttpRequest.BodyPublishers.ofString(body)).build();
    }

    private ScalingClient() {
    }
}
