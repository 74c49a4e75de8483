package io.quiver.itests.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.quiver.itests.client.McpClient;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;

/**
 * A 2025-03-26 client's side of JSON-RPC batches over Streamable HTTP, in plain HTTP: opening a session at a
 * chosen revision and POSTing bodies as they are, so a test sees the status, the media type and every message.
 */
final class Batches {

    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();
    private static final Duration T = Duration.ofSeconds(20);

    private Batches() {
    }

    /** Opens and initializes a session that speaks {@code version}; returns its id. */
    static String open(String url, String version, Map<String, String> headers) throws Exception {
        HttpResponse<String> r = post(url, null, "{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":"
                + "{\"protocolVersion\":\"" + version + "\",\"capabilities\":{},\"clientInfo\":{\"name\":\"batches\","
                + "\"version\":\"1\"}}}", headers);
        assertEquals(200, r.statusCode(), r.body());
        assertEquals(version, messages(r).get(0).path("result").path("protocolVersion").asString(), r.body());
        String session = r.headers().firstValue("Mcp-Session-Id").orElseThrow();
        assertEquals(202, post(url, session, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}", headers)
                .statusCode());
        return session;
    }

    /** POSTs a body as it is, in the session named (or none), and reads the whole answer. */
    static HttpResponse<String> post(String url, String session, String body, Map<String, String> headers)
            throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url)).timeout(T)
                .header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofString(body));
        if (session != null) {
            request.header("Mcp-Session-Id", session);
        }
        headers.forEach(request::header);
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    /** The messages of an answer: its JSON body, or the data of each SSE event, in order. */
    static List<JsonNode> messages(HttpResponse<String> r) {
        String type = r.headers().firstValue("Content-Type").orElse("");
        if (!type.startsWith("text/event-stream")) {
            return List.of(McpClient.JSON.readTree(r.body()));
        }
        List<JsonNode> messages = new ArrayList<>();
        for (String event : r.body().split("\n\n")) {
            StringBuilder data = new StringBuilder();
            for (String line : event.split("\n")) {
                if (line.startsWith("data:")) {
                    data.append(line.substring(5).strip());
                }
            }
            if (!data.isEmpty()) {
                messages.add(McpClient.JSON.readTree(data.toString()));
            }
        }
        return messages;
    }

    /** The responses in a batch's answer, in order: the JSON array's, or the events that are responses. */
    static List<JsonNode> responses(HttpResponse<String> r) {
        List<JsonNode> responses = new ArrayList<>();
        for (JsonNode message : messages(r)) {
            for (JsonNode one : message.isArray() ? message.valueStream().toList() : List.of(message)) {
                if (!one.has("method")) {
                    responses.add(one);
                }
            }
        }
        return responses;
    }

    /** A {@code tools/call} of the witness tool as a JSON-RPC request. */
    static String witness(int id, String note, int sleepMs) {
        return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"tools/call\",\"params\":{\"name\":\"witness\","
                + "\"arguments\":{\"note\":\"" + note + "\"" + (sleepMs > 0 ? ",\"sleepMs\":" + sleepMs : "") + "}}}";
    }

    /** A ping. */
    static String ping(int id) {
        return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"ping\"}";
    }

    /** The ids of a batch's answer, in order. */
    static List<Integer> ids(JsonNode array) {
        return ids(array.valueStream().toList());
    }

    /** The ids of responses, in order. */
    static List<Integer> ids(List<JsonNode> responses) {
        return responses.stream().map(r -> r.path("id").asInt(-1)).toList();
    }
}
