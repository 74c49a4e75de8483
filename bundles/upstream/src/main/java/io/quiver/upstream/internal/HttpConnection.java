package io.quiver.upstream.internal;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * A remote server spoken to over MCP's Streamable HTTP transport: each message a POST (answered as
 * JSON, or as an SSE stream carrying the server's requests, notifications and then the response), the
 * session id the server gives at {@code initialize} sent on every later request, and a GET stream for
 * messages not tied to a request (such as {@code notifications/tools/list_changed}) where the server
 * offers one. A request the server cannot be reached for, or a session it no longer knows, ends the
 * connection, and the supervisor connects again.
 */
final class HttpConnection implements Connection {

    private static final Logger LOG = LoggerFactory.getLogger(HttpConnection.class);
    private static final JsonMapper JSON = JsonMapper.builder().build();
    /** Headers Quiver sets itself; the configuration may not replace them. */
    private static final Set<String> OWN = Set.of("content-type", "accept", "mcp-session-id", "mcp-protocol-version",
            "content-length", "host", "connection");

    private final ServerSpec spec;
    private final Duration connectTimeout;
    private final StderrTail tail;
    private final AtomicBoolean ended = new AtomicBoolean();
    private final Set<InputStream> streams = ConcurrentHashMap.newKeySet();
    private final ExecutorService readers;
    private final HttpClient http;
    private volatile String sessionId;
    private volatile String protocolVersion;
    private volatile boolean closing;
    private Listener listener;

    HttpConnection(ServerSpec spec, Duration connectTimeout, StderrTail tail) {
        this.spec = spec;
        this.connectTimeout = connectTimeout;
        this.tail = tail;
        this.readers = Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "quiver-upstream-" + spec.name() + "-http");
            t.setDaemon(true);
            return t;
        });
        this.http = HttpClient.newBuilder().connectTimeout(connectTimeout).executor(readers)
                .followRedirects(HttpClient.Redirect.NEVER).build();
    }

    @Override
    public void open(Listener listener) {
        this.listener = listener;
    }

    @Override
    public void negotiated(String version) {
        protocolVersion = version;
        readers.execute(this::listen);
    }

    private HttpRequest.Builder request() {
        HttpRequest.Builder b = HttpRequest.newBuilder(spec.url());
        for (Map.Entry<String, String> h : spec.headers().entrySet()) {
            if (!OWN.contains(h.getKey().toLowerCase(java.util.Locale.ROOT))) {
                b.header(h.getKey(), h.getValue());
            }
        }
        String session = sessionId;
        if (session != null) {
            b.header("Mcp-Session-Id", session);
        }
        String version = protocolVersion;
        if (version != null) {
            b.header("MCP-Protocol-Version", version);
        }
        return b;
    }

    @Override
    public void send(ObjectNode message) throws IOException {
        if (ended.get()) {
            throw new IOException("the connection to " + spec.url() + " has ended");
        }
        HttpRequest post = request().header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofByteArray(JSON.writeValueAsBytes(message))).build();
        JsonNode id = message.get("id");
        boolean isRequest = id != null && message.has("method");
        http.sendAsync(post, HttpResponse.BodyHandlers.ofInputStream()).whenComplete((response, failure) -> {
            if (failure != null) {
                end("cannot reach " + spec.url() + ": " + describe(failure));
                return;
            }
            try {
                answered(response, isRequest ? id : null);
            } catch (RuntimeException e) {
                LOG.warn("Upstream {}: reading an answer failed", spec.name(), e);
            }
        });
    }

    private void answered(HttpResponse<InputStream> response, JsonNode requestId) {
        response.headers().firstValue("mcp-session-id").ifPresent(s -> {
            if (sessionId == null) {
                sessionId = s;
            }
        });
        int status = response.statusCode();
        String type = response.headers().firstValue("content-type").orElse("").toLowerCase(java.util.Locale.ROOT);
        InputStream body = response.body();
        if (status == 404 && sessionId != null) {
            close(body);
            end("the server no longer knows the session (HTTP 404)");
            return;
        }
        if (status / 100 != 2) {
            String text = read(body);
            tail.add("[http] " + status + " " + text.substring(0, Math.min(200, text.length())));
            if (requestId != null) {
                ObjectNode error = JSON.createObjectNode().put("jsonrpc", "2.0");
                error.set("id", requestId);
                JsonNode parsed = parse(text);
                if (parsed != null && parsed.has("error")) {
                    error.set("error", parsed.get("error"));
                } else {
                    error.putObject("error").put("code", -32603).put("message", "the server answered HTTP " + status);
                }
                listener.message(error);
            }
            return;
        }
        if (type.startsWith("text/event-stream")) {
            events(body);
        } else if (type.startsWith("application/json")) {
            JsonNode parsed = parse(read(body));
            if (parsed instanceof ObjectNode object) {
                listener.message(object);
            } else if (parsed != null && parsed.isArray()) {
                parsed.forEach(m -> {
                    if (m instanceof ObjectNode o) {
                        listener.message(o);
                    }
                });
            }
        } else {
            close(body);
        }
    }

    /** The GET stream of messages not tied to a request; reopened while it ends cleanly. */
    private void listen() {
        int failures = 0;
        while (!closing && !ended.get() && failures < 3) {
            HttpRequest get = request().header("Accept", "text/event-stream").GET().build();
            try {
                HttpResponse<InputStream> response = http.send(get, HttpResponse.BodyHandlers.ofInputStream());
                if (response.statusCode() != 200) {
                    close(response.body());
                    return; // 405: the server offers no such stream
                }
                events(response.body());
                failures = 0;
            } catch (IOException e) {
                failures++;
            } catch (InterruptedException e) {
                return;
            }
            try {
                Thread.sleep(500);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    /** Reads an SSE stream to its end, each event's data one message. */
    private void events(InputStream body) {
        streams.add(body);
        try (BufferedReader in = new BufferedReader(new InputStreamReader(body, StandardCharsets.UTF_8))) {
            StringBuilder data = new StringBuilder();
            String line;
            while ((line = in.readLine()) != null) {
                if (line.isEmpty()) {
                    if (data.length() > 0 && parse(data.toString()) instanceof ObjectNode message) {
                        listener.message(message);
                    }
                    data.setLength(0);
                } else if (line.startsWith("data:")) {
                    if (data.length() > 0) {
                        data.append('\n');
                    }
                    data.append(line.startsWith("data: ") ? line.substring(6) : line.substring(5));
                }
            }
        } catch (IOException e) {
            // the stream ended
        } finally {
            streams.remove(body);
        }
    }

    private static JsonNode parse(String text) {
        try {
            return text.isBlank() ? null : JSON.readTree(text);
        } catch (JacksonException e) {
            return null;
        }
    }

    private static String read(InputStream body) {
        try (body) {
            return new String(body.readNBytes(1 << 20), StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "";
        }
    }

    private static void close(InputStream body) {
        try {
            body.close();
        } catch (IOException e) {
            // nothing to do
        }
    }

    private static String describe(Throwable failure) {
        Throwable t = failure instanceof java.util.concurrent.CompletionException && failure.getCause() != null
                ? failure.getCause() : failure;
        return t.getMessage() != null ? t.getMessage() : t.getClass().getSimpleName();
    }

    private void end(String why) {
        if (ended.compareAndSet(false, true)) {
            tail.add("[quiver] " + why);
            listener.closed(why, false);
        }
    }

    @Override
    public void close() {
        closing = true;
        String session = sessionId;
        if (session != null && !ended.get()) {
            try {
                http.send(request().timeout(connectTimeout).DELETE().build(), HttpResponse.BodyHandlers.discarding());
            } catch (IOException | InterruptedException e) {
                // the server is gone or slow: the session expires there
            }
        }
        streams.forEach(HttpConnection::close);
        if (ended.compareAndSet(false, true)) {
            listener.closed("Quiver stopped it", true);
        }
        readers.shutdownNow();
    }

    @Override
    public String detail() {
        return spec.url().toString();
    }
}
