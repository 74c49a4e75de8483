package io.quiver.itests.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A client that loses its POST stream mid-call reconnects with {@code Last-Event-ID} and receives
 * what it missed, then the response; a second GET takes a session's stream over; and the server shuts down cleanly
 * on SIGTERM.
 */
class SseResumptionIT {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(5)).build();
    private static QuiverServer server;

    @BeforeAll
    static void start() throws Exception {
        server = QuiverServer.start("resumption", "core,http,conformance");
    }

    @AfterAll
    static void stop() throws Exception {
        server.close();
    }

    @Test
    void resumesAnInterruptedCallStream() throws Exception {
        String session = initialize();
        String call = "{\"jsonrpc\":\"2.0\",\"id\":42,\"method\":\"tools/call\",\"params\":{\"name\":"
                + "\"test_tool_with_progress\",\"arguments\":{},\"_meta\":{\"progressToken\":\"p1\"}}}";
        HttpResponse<InputStream> post = post(session, call);
        assertEquals(200, post.statusCode());
        assertEquals("text/event-stream", post.headers().firstValue("Content-Type").orElse("").split(";")[0]);
        String lastId;
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(post.body(), StandardCharsets.UTF_8))) {
            Event priming = next(reader);
            assertNotNull(priming.id, "the stream opens with a priming event carrying an id");
            assertEquals("", priming.data.trim());
            Event first = next(reader);
            assertEquals("notifications/progress", JSON.readTree(first.data).path("method").asString());
            lastId = first.id;
        }
        // The connection is gone; the call goes on. Reconnect where we left off.
        List<JsonNode> rest = resume(session, lastId);
        JsonNode response = rest.get(rest.size() - 1);
        assertEquals(42, response.path("id").asInt(), rest.toString());
        assertTrue(response.path("result").path("content").isArray());
        long progress = rest.stream().filter(n -> "notifications/progress".equals(n.path("method").asString())).count();
        assertEquals(2, progress, "exactly the two progress events sent after the last one seen: " + rest);
    }

    /**
     * The conformance feature hangs request streams up after 250 ms (SSE polling). A client that
     * resumed before then keeps its new connection until the response: the hang-up is the POST's,
     * not the resumed stream's.
     */
    @Test
    void aResumedStreamOutlivesTheHangUpOfTheRequestItResumes() throws Exception {
        String session = initialize();
        String call = "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\",\"params\":{\"name\":"
                + "\"slow_compute\",\"arguments\":{\"seconds\":0.8,\"label\":\"kept\"}}}";
        String primingId;
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(post(session, call).body(),
                StandardCharsets.UTF_8))) {
            primingId = next(reader).id;
        }
        List<JsonNode> messages = resume(session, primingId);
        assertEquals(1, messages.size(), "the resumed stream carries the response, then ends: " + messages);
        assertEquals(7, messages.get(0).path("id").asInt(), messages.toString());
        assertTrue(messages.get(0).path("result").path("content").get(0).path("text").asString().contains("kept"),
                messages.toString());
    }

    /**
     * A client opening its GET stream again without {@code Last-Event-ID} (it believes the first lost: a network
     * that drops a connection without a word leaves it looking alive here for as long as TCP retries) gets the
     * session's stream: the first ends, and the next notification arrives on the new one. The server used to refuse
     * the second GET (409) while the first looked alive, and a client that gives up after a few retries, as the
     * TypeScript SDK's does, then heard no more of its session.
     */
    @Test
    void aSecondGetTakesTheSessionsStreamOver() throws Exception {
        String session = initialize();
        HttpResponse<InputStream> first = HTTP.send(request("GET", session).GET().build(),
                HttpResponse.BodyHandlers.ofInputStream());
        assertEquals(200, first.statusCode());
        BufferedReader firstReader = new BufferedReader(new InputStreamReader(first.body(), StandardCharsets.UTF_8));
        assertNotNull(next(firstReader), "the priming event");

        HttpResponse<InputStream> second = HTTP.send(request("GET", session).GET().build(),
                HttpResponse.BodyHandlers.ofInputStream());
        assertEquals(200, second.statusCode());
        try (BufferedReader secondReader = new BufferedReader(new InputStreamReader(second.body(), StandardCharsets.UTF_8))) {
            CompletableFuture<List<String>> firstRest = CompletableFuture.supplyAsync(() -> rest(firstReader));
            assertEquals(List.of(), firstRest.get(10, TimeUnit.SECONDS), "the first stream ended, carrying nothing more");
            assertNotNull(next(secondReader), "the priming event");

            String trigger = "{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"tools/call\",\"params\":{\"name\":"
                    + "\"test_trigger_tool_change\",\"arguments\":{}}}";
            HttpResponse<String> called = HTTP.send(request("POST", session).POST(HttpRequest.BodyPublishers.ofString(trigger))
                    .build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(200, called.statusCode(), called.body());
            CompletableFuture<Event> notified = CompletableFuture.supplyAsync(() -> {
                try {
                    return next(secondReader);
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            Event event = notified.get(10, TimeUnit.SECONDS);
            assertNotNull(event, "the second stream stays open");
            assertEquals("notifications/tools/list_changed", JSON.readTree(event.data).path("method").asString(),
                    event.data);
        } finally {
            firstReader.close();
        }
    }

    /** The data of the events left on a stream, to its end. */
    private static List<String> rest(BufferedReader reader) {
        List<String> data = new ArrayList<>();
        try {
            Event e;
            while ((e = next(reader)) != null) {
                data.add(e.data);
            }
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
        return data;
    }

    @Test
    void shutsDownCleanlyOnSigterm() throws Exception {
        QuiverServer other = QuiverServer.start("sigterm", "core,http");
        assertEquals(0, other.stop());
        assertTrue(!other.log().contains("Exception"), other.log());
    }

    private record Event(String id, String data) {
    }

    private static HttpResponse<InputStream> post(String session, String body) throws Exception {
        return HTTP.send(request("POST", session).POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                HttpResponse.BodyHandlers.ofInputStream());
    }

    /** Resumes a stream after an event id and reads it to its end: the JSON-RPC messages it carried. */
    private static List<JsonNode> resume(String session, String lastEventId) throws Exception {
        HttpResponse<InputStream> get = HTTP.send(request("GET", session).header("Last-Event-ID", lastEventId).GET()
                .build(), HttpResponse.BodyHandlers.ofInputStream());
        assertEquals(200, get.statusCode());
        List<JsonNode> messages = new ArrayList<>();
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(get.body(), StandardCharsets.UTF_8))) {
            Event event;
            while ((event = next(reader)) != null) {
                if (!event.data.isBlank()) {
                    messages.add(JSON.readTree(event.data));
                }
            }
        }
        return messages;
    }

    /** Reads one SSE event (skipping comments); null at the end of the stream. */
    private static Event next(BufferedReader reader) throws Exception {
        String id = null;
        StringBuilder data = null;
        String line;
        while ((line = reader.readLine()) != null) {
            if (line.isEmpty()) {
                if (data != null || id != null) {
                    return new Event(id, data == null ? "" : data.toString());
                }
                continue;
            }
            if (line.startsWith(":")) {
                continue;
            }
            if (line.startsWith("id:")) {
                id = line.substring(3).trim();
            } else if (line.startsWith("data:")) {
                String value = line.substring(5);
                value = value.startsWith(" ") ? value.substring(1) : value;
                data = data == null ? new StringBuilder(value) : data.append('\n').append(value);
            }
        }
        return null;
    }

    private static HttpRequest.Builder request(String method, String session) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(server.url())).timeout(Duration.ofSeconds(20))
                .header("Accept", "GET".equals(method) ? "text/event-stream" : "application/json, text/event-stream")
                .header("MCP-Protocol-Version", "2025-11-25")
                .header("Mcp-Session-Id", session);
        if (!"GET".equals(method)) {
            b.header("Content-Type", "application/json");
        }
        return b;
    }

    private static String initialize() throws Exception {
        String body = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":"
                + "\"2025-11-25\",\"capabilities\":{},\"clientInfo\":{\"name\":\"resume\",\"version\":\"1\"}}}";
        HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create(server.url()))
                .header("Content-Type", "application/json").header("Accept", "application/json, text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
        String session = r.headers().firstValue("Mcp-Session-Id").orElseThrow();
        HTTP.send(request("POST", session).POST(HttpRequest.BodyPublishers.ofString(
                "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}")).build(),
                HttpResponse.BodyHandlers.discarding());
        return session;
    }
}
