package io.quiver.itests.client;

import java.io.IOException;
import java.io.InputStream;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.function.Predicate;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;

/**
 * The JSON-RPC messages of one HTTP response, read on a thread of its own: a plain JSON body (one
 * message) or an SSE stream (the {@code data:} of each event is one message). Every message is kept
 * with its arrival time. Tests wait for what they expect with a bound; nothing here blocks without one.
 */
public final class MessageStream implements AutoCloseable {

    /** A message and when it arrived ({@link System#nanoTime()}). */
    public record Received(long nanos, JsonNode message) {
        /** Its method, or "" for a response. */
        public String method() {
            return message.path("method").asString("");
        }
    }

    private final HttpResponse<InputStream> response;
    private final String description;
    private final List<JsonNode> untaken = new ArrayList<>();
    private final List<Received> history = new ArrayList<>();
    private String body;
    private boolean ended;
    private volatile boolean closed;
    private String failure;

    MessageStream(HttpResponse<InputStream> response, String description) {
        this.response = response;
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

    /** The whole body of a response that is not an SSE stream, once it has ended. */
    public synchronized String body(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!ended && System.nanoTime() < deadline) {
            wait(Math.max(1, (deadline - System.nanoTime()) / 1_000_000));
        }
        return body == null ? "" : body;
    }

    /**
     * Waits for the first message not yet taken that matches, and takes it; messages that do not
     * match stay for later calls.
     *
     * @throws AssertionError when none arrives within the timeout or the response ends without one
     */
    public JsonNode await(String what, Predicate<JsonNode> match, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        synchronized (this) {
            while (true) {
                for (Iterator<JsonNode> it = untaken.iterator(); it.hasNext();) {
                    JsonNode message = it.next();
                    if (match.test(message)) {
                        it.remove();
                        return message;
                    }
                }
                waitOrFail(what, deadline, timeout);
            }
        }
    }

    /** Waits for the notification with this method (and takes it). */
    public JsonNode awaitNotification(String method, Duration timeout) throws InterruptedException {
        return await("notification " + method, m -> !m.has("id") && method.equals(m.path("method").asString()),
                timeout);
    }

    /** Waits for the response (a result or an error) to the request with this id (and takes it). */
    public JsonNode awaitResponse(long id, Duration timeout) throws InterruptedException {
        return await("response to request " + id, m -> m.has("id") && !m.has("method") && m.path("id").asLong() == id
                && (m.has("result") || m.has("error")), timeout);
    }

    /**
     * Waits until at least {@code n} messages of a method have arrived in all (taken or not).
     *
     * @return the n-th such message
     * @throws AssertionError when they do not come in time or the stream ends first
     */
    public Received await(String method, int n, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        synchronized (this) {
            while (true) {
                List<Received> found = matching(m -> m.method().equals(method));
                if (found.size() >= n) {
                    return found.get(n - 1);
                }
                waitOrFail(n + " " + method + " (got " + found.size() + ")", deadline, timeout);
            }
        }
    }

    /** How many messages of a method arrived so far. */
    public synchronized int count(String method) {
        return matching(m -> m.method().equals(method)).size();
    }

    /** The messages so far that match, in arrival order. */
    public synchronized List<Received> matching(Predicate<Received> filter) {
        return history.stream().filter(filter).toList();
    }

    /** Drops the messages received so far and not taken. */
    public synchronized void drain() {
        untaken.clear();
    }

    /** Every message this response carried so far, taken or not. */
    public synchronized List<JsonNode> history() {
        return history.stream().map(Received::message).toList();
    }

    /** Whether the response has ended (its body is complete or the connection is gone). */
    public synchronized boolean ended() {
        return ended;
    }

    @Override
    public void close() {
        closed = true;
        try {
            response.body().close();
        } catch (IOException e) {
            // closing a response nobody reads any more
        }
    }

    private void waitOrFail(String what, long deadline, Duration timeout) throws InterruptedException {
        if (ended) {
            throw new AssertionError(description + ": the response ended without " + what
                    + (failure == null ? "" : " (" + failure + ")") + "; it carried " + history());
        }
        long left = deadline - System.nanoTime();
        if (left <= 0) {
            throw new AssertionError(description + ": no " + what + " within " + timeout.toMillis()
                    + " ms; received so far " + history());
        }
        wait(Math.max(1, left / 1_000_000));
    }

    private void read() {
        try (InputStream in = response.body()) {
            if (isEventStream()) {
                McpClient.readEvents(in, this::deliver);
            } else {
                String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
                synchronized (this) {
                    body = text;
                }
                if (!text.isBlank()) {
                    deliver(text);
                }
            }
        } catch (IOException | RuntimeException e) {
            synchronized (this) {
                failure = closed ? null : e.toString();
            }
        } finally {
            synchronized (this) {
                ended = true;
                notifyAll();
            }
        }
    }

    private void deliver(String text) {
        JsonNode message;
        try {
            message = McpClient.JSON.readTree(text);
        } catch (JacksonException e) {
            synchronized (this) {
                failure = "not JSON: " + text;
            }
            return;
        }
        synchronized (this) {
            untaken.add(message);
            history.add(new Received(System.nanoTime(), message));
            notifyAll();
        }
    }

    @Override
    public String toString() {
        return description;
    }
}
