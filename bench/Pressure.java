import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Load that a server must survive, as bench/hardening.sh drives it. A single-file program (JDK
 * only, no build): {@code java bench/Pressure.java <command> <url> [args]}.
 *
 * <ul>
 * <li>{@code sessions URL N}: opens N sessions (initialize + initialized), 32 at a time; prints how
 * many were accepted and how the others were refused (HTTP status).</li>
 * <li>{@code streams URL N SECONDS}: opens N sessions, each with its GET stream held open on a raw
 * socket, keeps them SECONDS seconds; prints how many streams opened.</li>
 * <li>{@code starvation URL SLOW SECONDS}: starts SLOW concurrent calls of {@code slow_compute}
 * (conformance feature), each working SECONDS s, 30 per session, then for 10 s calls
 * {@code current_time} and {@code ping} back to back from another session and prints their latency
 * percentiles, and how the slow calls ended (done, told busy, failed).</li>
 * <li>{@code calls URL C SECONDS}: one session; C threads call {@code test_simple_text} back to back for
 * SECONDS s through one JDK {@code HttpClient} (the official Java SDK's transport, which writes a POST's
 * headers and body apart); prints calls/s and latency percentiles.</li>
 * <li>{@code segments URL C SECONDS BYTES}: the same calls from C threads, each on its own keep-alive socket,
 * with BYTES of padding in the request's {@code _meta}, the request written in 1,448-byte pieces (one TCP
 * segment each, as a body larger than one segment crosses a real network); prints calls/s and latency.</li>
 * <li>{@code slowbodies URL N}: N connections each send a tools/call's headers and 5 bytes of its body, and no
 * more; meanwhile calls whose bodies come whole measure the server's latency on new connections; prints that,
 * then how and when the N were answered (408 after {@code bodyTimeoutMs}, connection closed).</li>
 * </ul>
 * Every result line starts with the command name, so a script can grep it.
 */
public final class Pressure {

    private static final String ACCEPT = "application/json, text/event-stream";
    private static final String VERSION = "2025-11-25";
    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10)).executor(Executors.newFixedThreadPool(8)).build();

    public static void main(String[] args) throws Exception {
        if (args.length < 2) {
            System.err.println("usage: java bench/Pressure.java sessions|streams|starvation|calls|segments|slowbodies URL [args]");
            System.exit(2);
        }
        URI url = URI.create(args[1]);
        switch (args[0]) {
            case "sessions" -> sessions(url, Integer.parseInt(args[2]));
            case "streams" -> streams(url, Integer.parseInt(args[2]), Integer.parseInt(args[3]));
            case "starvation" -> starvation(url, Integer.parseInt(args[2]), Integer.parseInt(args[3]));
            case "calls" -> calls(url, Integer.parseInt(args[2]), Integer.parseInt(args[3]));
            case "slowbodies" -> slowBodies(url, Integer.parseInt(args[2]));
            case "segments" -> segments(url, Integer.parseInt(args[2]), Integer.parseInt(args[3]), Integer.parseInt(args[4]));
            default -> throw new IllegalArgumentException(args[0]);
        }
        System.exit(0);
    }

    static void sessions(URI url, int n) throws Exception {
        Map<Integer, AtomicInteger> statuses = new ConcurrentHashMap<>();
        Semaphore window = new Semaphore(32);
        long t0 = System.nanoTime();
        List<CompletableFuture<?>> all = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            window.acquire();
            all.add(HTTP.sendAsync(initialize(url), HttpResponse.BodyHandlers.discarding()).handle((r, e) -> {
                int status = e != null ? -1 : r.statusCode();
                if (status == 200) {
                    String id = r.headers().firstValue("Mcp-Session-Id").orElse("");
                    try {
                        HTTP.send(post(url, id, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}"),
                                HttpResponse.BodyHandlers.discarding());
                    } catch (Exception ignored) {
                        status = -2;
                    }
                }
                statuses.computeIfAbsent(status, s -> new AtomicInteger()).incrementAndGet();
                window.release();
                return null;
            }));
        }
        CompletableFuture.allOf(all.toArray(CompletableFuture[]::new)).join();
        System.out.printf("sessions: %d initialize in %d ms, by HTTP status: %s%n", n,
                (System.nanoTime() - t0) / 1_000_000, new TreeMap<>(statuses));
    }

    static void streams(URI url, int n, int seconds) throws Exception {
        List<Socket> open = new ArrayList<>();
        Map<String, AtomicInteger> outcomes = new TreeMap<>();
        for (int i = 0; i < n; i++) {
            String outcome;
            HttpResponse<Void> init = HTTP.send(initialize(url), HttpResponse.BodyHandlers.discarding());
            if (init.statusCode() != 200) {
                outcome = "initialize " + init.statusCode();
            } else {
                String id = init.headers().firstValue("Mcp-Session-Id").orElseThrow();
                Socket socket = new Socket(url.getHost(), url.getPort());
                OutputStream out = socket.getOutputStream();
                out.write(("GET " + url.getPath() + " HTTP/1.1\r\nHost: " + url.getHost() + ":" + url.getPort()
                        + "\r\nAccept: text/event-stream\r\nMcp-Session-Id: " + id + "\r\nMCP-Protocol-Version: "
                        + VERSION + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
                out.flush();
                String status = new BufferedReader(new InputStreamReader(socket.getInputStream(),
                        StandardCharsets.US_ASCII)).readLine();
                outcome = "GET " + (status == null ? "closed" : status.substring(9, 12));
                if (status != null && status.contains(" 200 ")) {
                    open.add(socket);
                } else {
                    socket.close();
                }
            }
            outcomes.computeIfAbsent(outcome, k -> new AtomicInteger()).incrementAndGet();
        }
        System.out.printf("streams: %d asked, %s; holding them %d s%n", n, outcomes, seconds);
        Thread.sleep(seconds * 1000L);
        for (Socket s : open) {
            s.close();
        }
    }

    static void starvation(URI url, int slow, int seconds) throws Exception {
        // 30 calls per session: within the default maxStreamsPerSession (32), as real clients would be
        List<String> slowSessions = new ArrayList<>();
        for (int i = 0; i < (slow + 29) / 30; i++) {
            slowSessions.add(session(url));
        }
        String probe = session(url);
        Map<String, AtomicInteger> slowOutcomes = new ConcurrentHashMap<>();
        HttpClient slowClient = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .executor(Executors.newFixedThreadPool(4)).build();
        List<CompletableFuture<?>> calls = new ArrayList<>();
        for (int i = 0; i < slow; i++) {
            String body = "{\"jsonrpc\":\"2.0\",\"id\":" + (1000 + i) + ",\"method\":\"tools/call\",\"params\":"
                    + "{\"name\":\"slow_compute\",\"arguments\":{\"seconds\":" + seconds + ",\"label\":\"s" + i + "\"}}}";
            calls.add(slowClient.sendAsync(post(url, slowSessions.get(i / 30), body), HttpResponse.BodyHandlers.ofString())
                    .handle((r, e) -> {
                        String outcome = e != null ? e.getClass().getSimpleName()
                                : r.body().contains("is busy") ? "busy" : r.body().contains("\"isError\":true") ? "isError"
                                : "ok " + r.statusCode();
                        slowOutcomes.computeIfAbsent(outcome, k -> new AtomicInteger()).incrementAndGet();
                        return null;
                    }));
        }
        Thread.sleep(2000);
        List<Long> time = new ArrayList<>();
        List<Long> ping = new ArrayList<>();
        int failed = 0;
        long end = System.nanoTime() + 10_000_000_000L;
        HttpClient probeClient = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        for (int i = 0; System.nanoTime() < end; i++) {
            long t = System.nanoTime();
            try {
                HttpResponse<String> r = probeClient.send(postBuilder(url, probe, "{\"jsonrpc\":\"2.0\",\"id\":" + i
                        + ",\"method\":\"tools/call\",\"params\":{\"name\":\"current_time\",\"arguments\":{}}}")
                        .timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
                if (!r.body().contains("datetime")) {
                    failed++;
                }
            } catch (IOException e) {
                failed++;
            }
            time.add(System.nanoTime() - t);
            t = System.nanoTime();
            try {
                probeClient.send(postBuilder(url, probe, "{\"jsonrpc\":\"2.0\",\"id\":\"p" + i + "\",\"method\":\"ping\"}")
                        .timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
            } catch (IOException e) {
                failed++;
            }
            ping.add(System.nanoTime() - t);
        }
        System.out.printf("starvation: %d slow calls of %d s in flight; current_time %s; ping %s; %d failed probes%n",
                slow, seconds, percentiles(time), percentiles(ping), failed);
        CompletableFuture.allOf(calls.toArray(CompletableFuture[]::new)).get(seconds * 3L + 120, TimeUnit.SECONDS);
        System.out.printf("starvation: slow calls ended: %s%n", new TreeMap<>(slowOutcomes));
    }

    static void calls(URI url, int concurrency, int seconds) throws Exception {
        String session = session(url);
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        AtomicInteger failed = new AtomicInteger();
        List<Long> all = onThreads(concurrency, seconds, failed, (end, own) -> {
            for (int i = 0; System.nanoTime() < end; i++) {
                long start = System.nanoTime();
                try {
                    HttpResponse<String> r = client.send(post(url, session, "{\"jsonrpc\":\"2.0\",\"id\":" + i
                            + ",\"method\":\"tools/call\",\"params\":{\"name\":\"test_simple_text\",\"arguments\":{}}}"),
                            HttpResponse.BodyHandlers.ofString());
                    if (r.statusCode() != 200 || !r.body().contains("\"isError\":false")) {
                        failed.incrementAndGet();
                    }
                } catch (IOException e) {
                    failed.incrementAndGet();
                }
                own.add(System.nanoTime() - start);
            }
        });
        System.out.printf("calls: c=%d %.0f calls/s %s; %d failed%n", concurrency, all.size() / (double) seconds,
                percentiles(all), failed.get());
    }

    static void segments(URI url, int concurrency, int seconds, int padding) throws Exception {
        String session = session(url);
        // ids unique in the session (ten digits each, so that every request has the same length)
        String pad = "x".repeat(padding);
        java.util.function.LongFunction<byte[]> requests = id -> {
            byte[] body = ("{\"jsonrpc\":\"2.0\",\"id\":" + String.format("%010d", id) + ",\"method\":\"tools/call\","
                    + "\"params\":{\"name\":\"test_simple_text\",\"arguments\":{},\"_meta\":{\"pad\":\"" + pad + "\"}}}")
                    .getBytes(StandardCharsets.UTF_8);
            byte[] head = head(url, "MCP-Protocol-Version: " + VERSION + "\r\nMcp-Session-Id: " + session, body.length);
            byte[] whole = new byte[head.length + body.length];
            System.arraycopy(head, 0, whole, 0, head.length);
            System.arraycopy(body, 0, whole, head.length, body.length);
            return whole;
        };
        AtomicLong ids = new AtomicLong(1_000_000_000L);
        AtomicInteger failed = new AtomicInteger();
        List<Long> all = onThreads(concurrency, seconds, failed, (end, own) -> {
            try (Socket socket = new Socket(url.getHost(), url.getPort())) {
                socket.setTcpNoDelay(true);
                OutputStream out = socket.getOutputStream();
                java.io.DataInputStream in = new java.io.DataInputStream(new java.io.BufferedInputStream(socket.getInputStream()));
                while (System.nanoTime() < end) {
                    byte[] request = requests.apply(ids.incrementAndGet());
                    long start = System.nanoTime();
                    for (int at = 0; at < request.length; at += 1448) {
                        out.write(request, at, Math.min(1448, request.length - at));
                        out.flush();
                    }
                    int length = -1;
                    String status = asciiLine(in);
                    for (String line = asciiLine(in); !line.isEmpty(); line = asciiLine(in)) {
                        if (line.regionMatches(true, 0, "Content-Length:", 0, 15)) {
                            length = Integer.parseInt(line.substring(15).trim());
                        }
                    }
                    byte[] answer = new byte[Math.max(length, 0)];
                    in.readFully(answer);
                    if (!status.contains(" 200 ") || !new String(answer, StandardCharsets.UTF_8).contains("\"isError\":false")) {
                        failed.incrementAndGet();
                    }
                    own.add(System.nanoTime() - start);
                }
            }
        });
        System.out.printf("segments: c=%d %d-byte requests %.0f calls/s %s; %d failed%n", concurrency,
                requests.apply(0).length, all.size() / (double) seconds, percentiles(all), failed.get());
    }

    /** What one load thread does until {@code end} (nanoTime), adding the time of each of its calls to {@code own}. */
    interface LoadThread {
        void run(long end, List<Long> own) throws Exception;
    }

    /**
     * Runs {@code work} on {@code concurrency} threads for {@code seconds}: the times of all their calls; a thread
     * that throws counts one failure.
     */
    static List<Long> onThreads(int concurrency, int seconds, AtomicInteger failed, LoadThread work) throws InterruptedException {
        long end = System.nanoTime() + seconds * 1_000_000_000L;
        List<List<Long>> times = new ArrayList<>();
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < concurrency; t++) {
            List<Long> own = new ArrayList<>();
            times.add(own);
            Thread thread = new Thread(() -> {
                try {
                    work.run(end, own);
                } catch (Exception e) {
                    failed.incrementAndGet();
                }
            });
            threads.add(thread);
            thread.start();
        }
        List<Long> all = new ArrayList<>();
        for (int t = 0; t < concurrency; t++) {
            threads.get(t).join();
            all.addAll(times.get(t));
        }
        return all;
    }

    static void slowBodies(URI url, int n) throws Exception {
        byte[] body = ("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"test_simple_text\","
                + "\"arguments\":{},\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
                + "\"io.modelcontextprotocol/clientCapabilities\":{},"
                + "\"io.modelcontextprotocol/clientInfo\":{\"name\":\"pressure\",\"version\":\"1\"}}}}")
                .getBytes(StandardCharsets.UTF_8);
        byte[] head = head(url, "MCP-Protocol-Version: 2026-07-28\r\nMcp-Method: tools/call\r\nMcp-Name: test_simple_text",
                body.length);
        List<Socket> slow = new ArrayList<>();
        long sent = System.nanoTime();
        for (int i = 0; i < n; i++) {
            Socket socket = new Socket(url.getHost(), url.getPort());
            socket.setSoTimeout(120_000);
            OutputStream out = socket.getOutputStream();
            out.write(head);
            out.write(body, 0, 5);
            out.flush();
            slow.add(socket);
        }
        List<Long> probes = new ArrayList<>();
        int probeFailed = 0;
        for (int i = 0; i < 20; i++) {
            long start = System.nanoTime();
            try (Socket socket = new Socket(url.getHost(), url.getPort())) {
                socket.setSoTimeout(10_000);
                OutputStream out = socket.getOutputStream();
                out.write(head);
                out.write(body);
                out.flush();
                if (!asciiLine(socket.getInputStream()).contains(" 200 ")) {
                    probeFailed++;
                }
            } catch (IOException e) {
                probeFailed++;
            }
            probes.add(System.nanoTime() - start);
            Thread.sleep(100);
        }
        System.out.printf("slowbodies: %d connections waiting on their bodies; whole calls meanwhile %s, %d failed%n", n,
                percentiles(probes), probeFailed);
        Map<String, AtomicInteger> outcomes = new TreeMap<>();
        List<Long> answered = new ArrayList<>();
        for (Socket socket : slow) {
            String outcome;
            try {
                String status = asciiLine(socket.getInputStream());
                outcome = status.length() >= 12 ? status.substring(9, 12) : status;
                answered.add(System.nanoTime() - sent);
            } catch (IOException e) {
                outcome = e.getClass().getSimpleName();
            }
            outcomes.computeIfAbsent(outcome, k -> new AtomicInteger()).incrementAndGet();
            socket.close();
        }
        System.out.printf("slowbodies: answered %s, at %s after the first was sent%n", outcomes, percentiles(answered));
    }

    /** The head of a raw POST of a JSON body of {@code length} bytes, with {@code headers} (CRLF between them). */
    private static byte[] head(URI url, String headers, int length) {
        return ("POST " + url.getPath() + " HTTP/1.1\r\nHost: " + url.getHost() + ":" + url.getPort()
                + "\r\nContent-Type: application/json\r\nAccept: " + ACCEPT + "\r\n" + headers
                + "\r\nContent-Length: " + length + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
    }

    private static String asciiLine(java.io.InputStream in) throws IOException {
        StringBuilder line = new StringBuilder();
        for (int b = in.read(); b != '\n'; b = in.read()) {
            if (b < 0) {
                throw new IOException("closed");
            }
            if (b != '\r') {
                line.append((char) b);
            }
        }
        return line.toString();
    }

    static String percentiles(List<Long> nanos) {
        List<Long> sorted = new ArrayList<>(nanos);
        Collections.sort(sorted);
        if (sorted.isEmpty()) {
            return "no samples";
        }
        return String.format("n=%d p50=%.1f ms p99=%.1f ms max=%.1f ms", sorted.size(), at(sorted, 0.50),
                at(sorted, 0.99), sorted.get(sorted.size() - 1) / 1e6);
    }

    static double at(List<Long> sorted, double q) {
        return sorted.get(Math.min(sorted.size() - 1, (int) Math.floor(q * sorted.size()))) / 1e6;
    }

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
                        + "\"clientInfo\":{\"name\":\"pressure\",\"version\":\"1\"}}}"))
                .build();
    }

    static HttpRequest post(URI url, String session, String body) {
        return postBuilder(url, session, body).build();
    }

    static HttpRequest.Builder postBuilder(URI url, String session, String body) {
        return HttpRequest.newBuilder(url).header("Content-Type", "application/json").header("Accept", ACCEPT)
                .header("MCP-Protocol-Version", VERSION).header("Mcp-Session-Id", session)
                .POST(HttpRequest.BodyPublishers.ofString(body));
    }

    private Pressure() {
    }
}
