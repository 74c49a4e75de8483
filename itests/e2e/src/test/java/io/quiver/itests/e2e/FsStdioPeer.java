package io.quiver.itests.e2e;

import io.quiver.itests.client.McpClient;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import tools.jackson.databind.JsonNode;

/**
 * An MCP server run as a child process over stdio (the reference {@code @modelcontextprotocol/server-filesystem}
 * under node, or {@code quiver.jar run --stdio}), driven by the file tool tests: one session, requests one at a
 * time, and the server's {@code roots/list} answered with the roots this peer offers (when it declares the
 * capability). Every message the server sends is kept, so a test can look for a canary in all of them.
 */
final class FsStdioPeer implements AutoCloseable {

    /** The reference file system server, installed by {@code npm ci} in {@code itests/e2e/upstreams}. */
    static final Path REFERENCE = EverythingHttp.UPSTREAMS
            .resolve("node_modules/@modelcontextprotocol/server-filesystem/dist/index.js");

    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    private final Process process;
    private final OutputStream in;
    private final BlockingQueue<JsonNode> responses = new LinkedBlockingQueue<>();
    private final List<String> received = new CopyOnWriteArrayList<>();
    private final List<String> rootUris;
    private final AtomicLong ids = new AtomicLong();
    private final AtomicLong rootsAsked = new AtomicLong();
    private final Path log;

    private FsStdioPeer(Process process, List<String> rootUris, Path log) {
        this.process = process;
        this.in = process.getOutputStream();
        this.rootUris = List.copyOf(rootUris);
        this.log = log;
        Thread reader = new Thread(this::read, "fs-stdio-peer");
        reader.setDaemon(true);
        reader.start();
    }

    /** Starts the reference server with these allowed directories, as a client that offers no roots. */
    static FsStdioPeer reference(Path log, Path... directories) throws Exception {
        return reference(log, null, directories);
    }

    /** Starts the reference server; with {@code clientRoots} not null the client offers those roots. */
    static FsStdioPeer reference(Path log, List<Path> clientRoots, Path... directories) throws Exception {
        if (!Files.isRegularFile(REFERENCE)) {
            throw new IllegalStateException("npm ci has not run in " + EverythingHttp.UPSTREAMS + ": no " + REFERENCE);
        }
        List<String> command = new ArrayList<>(List.of("node", REFERENCE.toString()));
        for (Path d : directories) {
            command.add(d.toString());
        }
        return start(command, null, log, clientRoots);
    }

    /** Starts {@code quiver.jar run --stdio} in a home (with etc/ prepared), as a client offering {@code clientRoots}. */
    static FsStdioPeer quiver(Path home, List<Path> clientRoots) throws Exception {
        List<String> command = List.of(QuiverServer.javaBinary(), "-jar", System.getProperty("quiver.jar"), "run",
                "--stdio", "--etc", home.resolve("etc").toString(), "--deploy", home.resolve("deploy").toString(),
                "--data", home.resolve("data").toString());
        return start(command, home, home.resolve("server.log"), clientRoots);
    }

    private static FsStdioPeer start(List<String> command, Path directory, Path log, List<Path> clientRoots)
            throws Exception {
        ProcessBuilder builder = new ProcessBuilder(command).redirectError(log.toFile());
        if (directory != null) {
            builder.directory(directory.toFile());
        }
        List<String> uris = clientRoots == null ? null : clientRoots.stream().map(p -> p.toUri().toString()).toList();
        FsStdioPeer peer = new FsStdioPeer(builder.start(), uris == null ? List.of() : uris, log);
        try {
            Map<String, Object> capabilities = uris == null ? Map.of() : Map.of("roots", Map.of("listChanged", true));
            JsonNode init = peer.request("initialize", Map.of("protocolVersion", "2025-11-25", "capabilities",
                    capabilities, "clientInfo", Map.of("name", "fs-it", "version", "1")), Duration.ofSeconds(90));
            if (!init.has("result")) {
                throw new IllegalStateException("initialize failed: " + init);
            }
            peer.send(Map.of("jsonrpc", "2.0", "method", "notifications/initialized"));
            return peer;
        } catch (Exception | AssertionError e) {
            peer.close();
            throw e;
        }
    }

    private void read() {
        try (BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(),
                StandardCharsets.UTF_8))) {
            String line;
            while ((line = out.readLine()) != null) {
                if (!line.startsWith("{")) {
                    continue;
                }
                received.add(line);
                JsonNode message = McpClient.JSON.readTree(line);
                if ("roots/list".equals(message.path("method").asString(null))) {
                    rootsAsked.incrementAndGet();
                    List<Map<String, String>> roots = rootUris.stream().map(u -> Map.of("uri", u)).toList();
                    send(Map.of("jsonrpc", "2.0", "id", message.get("id"), "result", Map.of("roots", roots)));
                } else if (message.has("method") && message.has("id")) {
                    send(Map.of("jsonrpc", "2.0", "id", message.get("id"), "error",
                            Map.of("code", -32601, "message", "not supported by this test client")));
                } else if (message.has("id")) {
                    responses.add(message);
                }
            }
        } catch (IOException e) {
            // the process ended
        }
    }

    private synchronized void send(Object message) {
        try {
            in.write((McpClient.JSON.writeValueAsString(message) + "\n").getBytes(StandardCharsets.UTF_8));
            in.flush();
        } catch (IOException e) {
            // the process ended; the request waiting for an answer fails with the log
        }
    }

    /** Sends a request and waits for its response (result or error). */
    JsonNode request(String method, Object params, Duration limit) throws Exception {
        long id = ids.incrementAndGet();
        Map<String, Object> message = new LinkedHashMap<>();
        message.put("jsonrpc", "2.0");
        message.put("id", id);
        message.put("method", method);
        message.put("params", params);
        send(message);
        long deadline = System.nanoTime() + limit.toNanos();
        while (true) {
            long left = deadline - System.nanoTime();
            JsonNode response = left > 0 ? responses.poll(left, TimeUnit.NANOSECONDS) : null;
            if (response == null) {
                throw new AssertionError("no answer to " + method + " within " + limit + "; log:\n" + log());
            }
            if (response.path("id").asLong(-1) == id) {
                return response;
            }
        }
    }

    /** {@code tools/call}: the JSON-RPC response. */
    JsonNode call(String tool, Map<String, ?> arguments) throws Exception {
        return request("tools/call", Map.of("name", tool, "arguments", arguments), TIMEOUT);
    }

    /** {@code tools/list}: the tools by name. */
    Map<String, JsonNode> tools() throws Exception {
        Map<String, JsonNode> tools = new LinkedHashMap<>();
        for (JsonNode tool : request("tools/list", Map.of(), TIMEOUT).path("result").path("tools")) {
            tools.put(tool.path("name").asString(), tool);
        }
        return tools;
    }

    /** How many times the server asked for the roots. */
    long rootsAsked() {
        return rootsAsked.get();
    }

    /** Every line the server wrote to stdout so far. */
    List<String> received() {
        return List.copyOf(received);
    }

    String log() {
        try {
            return Files.isRegularFile(log) ? Files.readString(log) : "(no log)";
        } catch (IOException e) {
            return "(unreadable log: " + e + ")";
        }
    }

    @Override
    public void close() throws Exception {
        try {
            in.close();
        } catch (IOException e) {
            // gone
        }
        if (!process.waitFor(20, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }
}
