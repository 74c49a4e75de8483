package io.quiver.itests.e2e;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * {@code @modelcontextprotocol/server-everything} (pinned in {@code upstreams/package.json}) in its
 * Streamable HTTP mode on a free port of 127.0.0.1: the real remote upstream of the upstream tests.
 */
final class EverythingHttp implements AutoCloseable {

    static final Path UPSTREAMS = Path.of("upstreams").toAbsolutePath();
    static final Path EVERYTHING = UPSTREAMS.resolve("node_modules/@modelcontextprotocol/server-everything/dist/index.js");

    private final Process process;
    private final String url;

    private EverythingHttp(Process process, String url) {
        this.process = process;
        this.url = url;
    }

    /** Starts it and waits for its "listening" line; {@code marker} goes on its command line. */
    static EverythingHttp start(String marker) throws IOException {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        ProcessBuilder http = new ProcessBuilder("node", EVERYTHING.toString(), "streamableHttp", marker);
        http.environment().put("PORT", String.valueOf(port));
        Process process = http.redirectErrorStream(true).start();
        BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        String line;
        while ((line = out.readLine()) != null && !line.contains("listening on port")) {
            // its start-up lines
        }
        assertTrue(line != null, "server-everything did not start in HTTP mode");
        CompletableFuture.runAsync(() -> {
            try {
                while (out.readLine() != null) {
                    // keep the pipe empty
                }
            } catch (IOException e) {
                // ended
            }
        });
        return new EverythingHttp(process, "http://127.0.0.1:" + port + "/mcp");
    }

    /** Its MCP endpoint. */
    String url() {
        return url;
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy();
        process.waitFor(10, TimeUnit.SECONDS);
    }
}
