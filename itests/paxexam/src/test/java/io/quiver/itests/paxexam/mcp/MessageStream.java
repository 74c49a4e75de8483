package io.quiver.itests.paxexam.mcp;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.function.Predicate;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

/**
 * The JSON-RPC messages of one HTTP response, read on a thread of its own: a plain JSON body
 * (one message) or an SSE stream (the {@code data:} of each event is one message). Tests wait for
 * the message they expect with a bound; nothing here blocks without one.
 */
public final class MessageStream implements AutoCloseable {

    private final HttpResponse<InputStream> response;
    private final ObjectMapper json;
    private final String description;
    private final List<JsonNode> received = new ArrayList<>();
    private final List<JsonNode> history = new ArrayList<>();
    private boolean ended;
    private String failure;

    MessageStream(HttpResponse<InputStream> response, ObjectMapper json, String description) {
        this.response = response;
        this.json = json;
        this.description = description;
        Thread reader = new Thread(this::read, "mcp-reader " + description);
        reader.setDaemon(true);
        reader.start();
    }

    /** The HTTP status of the response. */
    public int status() {
        return response.statusCode();
    }

    /** A header of the response, or null. */
    public String header(String name) {
        return response.headers().firstValue(name).orElse(null);
    }

    /** Whether the response is an SSE stream. */
    public boolean isEventStream() {
        String type = header("Content-Type");
        return type != null && type.toLowerCase(Locale.ROOT).startsWith("text/event-stream");
    }

    /**
     * Waits for the first not yet taken message that matches, and takes it; messages that do not
     * match stay for later calls.
     *
     * @throws AssertionError when none arrives within the timeout or the response ends without one
     */
    public JsonNode await(String what, Predicate<JsonNode> match, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        synchronized (this) {
            while (true) {
                for (Iterator<JsonNode> it = received.iterator(); it.hasNext();) {
                    JsonNode message = it.next();
                    if (match.test(message)) {
                        it.remove();
                        return message;
                    }
                }
                if (ended) {
                    throw new AssertionError(description + ": the response ended without " + what
                            + (failure == null ? "" : " (" + failure + ")") + "; it carried " + history);
                }
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    throw new AssertionError(description + ": no " + what + " within " + timeout.toMillis()
                            + " ms; received so far " + history);
                }
                wait(Math.max(1, left / 1_000_000));
            }
        }
    }

    /** Waits for the notification with this method. */
    public JsonNode awaitNotification(String method, Duration timeout) throws InterruptedException {
        return await("notification " + method,
                m -> !m.has("id") && method.equals(m.path("method").asString()), timeout);
    }

    /** Waits for the response (a result or an error) to the request with this id. */
    public JsonNode awaitResponse(long id, Duration timeout) throws InterruptedException {
        return await("response to request " + id,
                m -> m.has("id") && !m.has("method") && m.path("id").asLong() == id
                        && (m.has("result") || m.has("error")), timeout);
    }

    /** Drops the messages received so far and not taken. */
    public synchronized void drain() {
        received.clear();
    }

    /** Every message this response carried so far, taken or not. */
    public synchronized List<JsonNode> history() {
        return List.copyOf(history);
    }

    /** Whether the response has ended (its body is complete or the connection is gone). */
    public synchronized boolean ended() {
        return ended;
    }

    @Override
    public void close() {
        try {
            response.body().close();
        } catch (IOException e) {
            // closing a response nobody reads any more
        }
    }

    private void read() {
        try (InputStream body = response.body()) {
            if (isEventStream()) {
                readEvents(body);
            } else {
                byte[] bytes = body.readAllBytes();
                if (bytes.length > 0) {
                    deliver(new String(bytes, StandardCharsets.UTF_8));
                }
            }
        } catch (IOException | RuntimeException e) {
            synchronized (this) {
                failure = e.toString();
            }
        } finally {
            synchronized (this) {
                ended = true;
                notifyAll();
            }
        }
    }

    private void readEvents(InputStream body) throws IOException {
        BufferedReader reader = new BufferedReader(new InputStreamReader(body, StandardCharsets.UTF_8));
        StringBuilder data = null;
        String line;
        while ((line = reader.readLine()) != null) {
            if (line.isEmpty()) {
                if (data != null && !data.toString().isBlank()) {
                    deliver(data.toString());
                }
                data = null;
                continue;
            }
            if (line.startsWith(":")) {
                continue; // comment (keep-alive)
            }
            int colon = line.indexOf(':');
            String field = colon < 0 ? line : line.substring(0, colon);
            String value = colon < 0 ? "" : line.substring(colon + 1);
            if (value.startsWith(" ")) {
                value = value.substring(1);
            }
            if ("data".equals(field)) {
                data = data == null ? new StringBuilder(value) : data.append('\n').append(value);
            }
        }
        if (data != null && !data.toString().isBlank()) {
            deliver(data.toString());
        }
    }

    private void deliver(String text) {
        JsonNode message = json.readTree(text);
        synchronized (this) {
            received.add(message);
            history.add(message);
            notifyAll();
        }
    }

    @Override
    public String toString() {
        return description;
    }
}
