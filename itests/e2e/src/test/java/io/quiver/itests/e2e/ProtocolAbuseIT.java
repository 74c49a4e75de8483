package io.quiver.itests.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quiver.itests.client.McpClient;
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * Messages that are well-formed JSON-RPC but abuse the protocol: a cancellation naming no valid
 * request, an id reused while its request runs, a replayed {@code requestState}, answers sent before
 * the server asked. Each is refused or ignored with the right code, never a 500, and a normal call
 * answers within a second meanwhile.
 */
class ProtocolAbuseIT {

    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();
    private static final String ELICITING = "test_input_required_result_elicitation";
    private static QuiverServer server;

    @BeforeAll
    static void start() throws Exception {
        // the conformance feature turns SSE polling on; these raw clients read one stream to its end
        server = QuiverServer.start("protocol-abuse", "core,http,tools-default,conformance",
                home -> {
                    Files.writeString(home.resolve("etc/io.quiver.transport.http.cfg"), "ssePollingMs = 0\n");
                    Files.createDirectories(home.resolve("files"));
                    Files.writeString(home.resolve("etc/io.quiver.tools.fs.cfg"), "roots = " + home.resolve("files") + ":rw\n");
                });
    }

    /**
     * A key twice in one object is refused with -32700: read last-wins, a gateway that checks the first {@code name}
     * (a read-only tool) would pass a call that then writes. The written file is what such a call would leave.
     */
    @Test
    void aKeyNamedTwiceIsAParseErrorAndNeitherToolRuns() throws Exception {
        Path files = server.home().resolve("files");
        try (McpClient client = McpClient.connect(server.url(), "abuse", Duration.ofSeconds(10))) {
            String twice = "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"tools/call\",\"params\":{\"name\":"
                    + "\"list_allowed_directories\",\"arguments\":{\"path\":\"" + files.resolve("twice.txt")
                    + "\",\"content\":\"written\"},\"name\":\"write_file\"}}";
            HttpResponse<String> refused = post(client.session(), twice);
            assertEquals(400, refused.statusCode(), refused.body());
            JsonNode error = McpClient.JSON.readTree(refused.body()).path("error");
            assertEquals(-32700, error.path("code").asInt(), refused.body());
            assertEquals("Parse error: the key \"name\" appears twice in one object", error.path("message").asString());

            HttpResponse<String> stateless = HTTP.send(HttpRequest.newBuilder(URI.create(server.url()))
                    .timeout(Duration.ofSeconds(20))
                    .header("Content-Type", "application/json")
                    .header("Accept", "application/json, text/event-stream")
                    .header("MCP-Protocol-Version", "2026-07-28")
                    .header("Mcp-Method", "tools/call")
                    .header("Mcp-Name", "write_file")
                    .POST(HttpRequest.BodyPublishers.ofString(twice.replace("\"params\":{", "\"params\":{\"_meta\":"
                            + "{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
                            + "\"io.modelcontextprotocol/clientCapabilities\":{}},")))
                    .build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(-32700, McpClient.JSON.readTree(stateless.body()).path("error").path("code").asInt(),
                    stateless.body());
            assertFalse(Files.exists(files.resolve("twice.txt")), "write_file never ran");

            // the same call named once writes: the file above would be there had it run
            JsonNode once = client.request("tools/call", Map.of("name", "write_file", "arguments",
                    Map.of("path", files.resolve("once.txt").toString(), "content", "written")));
            assertFalse(once.path("result").path("isError").asBoolean(), once.toString());
            assertEquals("written", Files.readString(files.resolve("once.txt")));
        }
    }

    @AfterAll
    static void stop() throws Exception {
        server.close();
    }

    @Test
    void aCancellationWithAnObjectForItsRequestIdIsIgnored() throws Exception {
        try (McpClient client = McpClient.connect(server.url(), "abuse", Duration.ofSeconds(10))) {
            for (String requestId : new String[] {"{\"x\":[1]}", "[1,2]", "true", "null", "1.5"}) {
                HttpResponse<String> r = post(client.session(), "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\","
                        + "\"params\":{\"requestId\":" + requestId + "}}");
                assertEquals(202, r.statusCode(), requestId + ": " + r.body());
            }
            assertEquals("{}", client.request("ping", Map.of()).path("result").toString(), "the session still answers");
            Probe.normalCallAnswers(server.url());
        }
        assertFalse(server.log().contains(" ERROR "), server.log());
        assertFalse(server.log().contains("\tat "), server.log());
    }

    @Test
    void anInitializeThatFailsOpensNoSessionAndANullCapabilityIsNotAFailure() throws Exception {
        initializeEdges(server.url());
        // the servlet's path (HTTPS takes it too) sets the session id before the exchange runs
        try (QuiverServer servlet = QuiverServer.start("protocol-abuse-servlet", "core,http,tools-default",
                home -> Files.writeString(home.resolve("etc/io.quiver.transport.http.cfg"), "selectorLane = false\n"))) {
            initializeEdges(servlet.url());
            assertFalse(servlet.log().contains("NullPointerException"), servlet.log());
        }
        // before the fix each null capability was an internal error, logged with its stack trace
        assertFalse(server.log().contains("NullPointerException"), server.log());
    }

    private static void initializeEdges(String url) throws Exception {
        HttpResponse<String> bad = initialize(url, "[]");
        assertEquals(-32602, McpClient.JSON.readTree(bad.body()).path("error").path("code").asInt(), bad.body());
        assertTrue(bad.headers().firstValue("Mcp-Session-Id").isEmpty(), "no session for a failed initialize: "
                + bad.headers().map());

        HttpResponse<String> nulls = initialize(url, "{\"sampling\":null,\"roots\":null}");
        assertEquals(McpClient.VERSION, McpClient.JSON.readTree(nulls.body()).path("result").path("protocolVersion")
                .asString(), nulls.body());
        String session = nulls.headers().firstValue("Mcp-Session-Id").orElseThrow();
        assertEquals(202, post(url, session, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}")
                .statusCode());
        HttpResponse<String> ping = post(url, session, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}");
        assertTrue(ping.body().contains("\"result\":{}"), ping.body());

        HttpResponse<String> stateless = HTTP.send(HttpRequest.newBuilder(URI.create(url))
                .timeout(Duration.ofSeconds(20))
                .header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream")
                .header("MCP-Protocol-Version", "2026-07-28")
                .header("Mcp-Method", "tools/list")
                .POST(HttpRequest.BodyPublishers.ofString("{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/list\","
                        + "\"params\":{\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
                        + "\"io.modelcontextprotocol/clientCapabilities\":{\"elicitation\":null}}}}"))
                .build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, stateless.statusCode(), stateless.body());
        assertTrue(stateless.body().contains("\"tools\":["), stateless.body());
    }

    @Test
    void anIdStillInFlightInTheSessionIsRefused() throws Exception {
        try (McpClient client = McpClient.connect(server.url(), "abuse", Duration.ofSeconds(10))) {
            String call = "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\",\"params\":{\"name\":\"slow_compute\","
                    + "\"arguments\":{\"seconds\":2,\"label\":\"first\"}}}";
            CompletableFuture<String> first = CompletableFuture.supplyAsync(() -> {
                try {
                    return responseOf(HTTP.send(request(client.session(), call).build(),
                            HttpResponse.BodyHandlers.ofInputStream()).body(), 7);
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            Thread.sleep(500);
            HttpResponse<String> again = post(client.session(), call.replace("first", "second"));
            assertEquals(400, again.statusCode(), again.body());
            JsonNode error = McpClient.JSON.readTree(again.body());
            assertEquals(-32600, error.path("error").path("code").asInt());
            assertEquals(7, error.path("id").asInt());
            Probe.normalCallAnswers(server.url());
            String answer = first.get(20, TimeUnit.SECONDS);
            assertTrue(answer.contains("Computed 'first'"), answer);
            assertFalse(answer.contains("second"), "the refused duplicate never ran");
            assertTrue(client.request("tools/call", Map.of("name", "slow_compute", "arguments",
                    Map.of("seconds", 0, "label", "again"))).toString().contains("again"), "the id is free once answered");
        }
    }

    @Test
    void aRequestStateIsGoodForOneRetryAndAnswersCountOnlyWhenAsked() throws Exception {
        JsonNode first = Probe.statelessCall(server.url(), ELICITING, Map.of(), Duration.ofSeconds(10)).path("result");
        assertEquals("input_required", first.path("resultType").asString(), first.toString());
        String state = first.path("requestState").asString();
        Map<String, Object> answer = Map.of("user_name", Map.of("action", "accept", "content", Map.of("name", "Ada")));
        JsonNode done = retry(state, answer).path("result");
        assertEquals("Hello, Ada!", done.path("content").get(0).path("text").asString(), done.toString());

        JsonNode replay = retry(state, Map.of("user_name", Map.of("action", "accept", "content", Map.of("name", "Eve"))));
        assertEquals(-32602, replay.path("error").path("code").asInt(), replay.toString());
        assertEquals("Invalid params: requestState integrity check failed", replay.path("error").path("message").asString());
        assertFalse(replay.toString().contains("Eve"), "the replay never reached the tool");

        JsonNode unasked = Probe.stateless(server.url(), "tools/call", ELICITING, Map.of("name", ELICITING,
                "arguments", Map.of(), "inputResponses", answer), Duration.ofSeconds(10)).path("result");
        assertEquals("input_required", unasked.path("resultType").asString(),
                "an answer sent before the server asked does not count: " + unasked);
        Probe.normalCallAnswers(server.url());
    }

    // -------------------------------------------------------------------------------------------

    private static JsonNode retry(String state, Map<String, Object> answers) throws Exception {
        return Probe.stateless(server.url(), "tools/call", ELICITING, Map.of("name", ELICITING, "arguments", Map.of(),
                "requestState", state, "inputResponses", answers), Duration.ofSeconds(10));
    }

    /** An {@code initialize} declaring the given capabilities (JSON text), without a session id. */
    private static HttpResponse<String> initialize(String url, String capabilities) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(20))
                .header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofString("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\","
                        + "\"params\":{\"protocolVersion\":\"" + McpClient.VERSION + "\",\"capabilities\":" + capabilities
                        + ",\"clientInfo\":{\"name\":\"abuse\",\"version\":\"1\"}}}"))
                .build(), HttpResponse.BodyHandlers.ofString());
    }

    private static HttpResponse<String> post(String session, String body) throws Exception {
        return post(server.url(), session, body);
    }

    private static HttpResponse<String> post(String url, String session, String body) throws Exception {
        return HTTP.send(request(url, session, body).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static HttpRequest.Builder request(String session, String body) {
        return request(server.url(), session, body);
    }

    private static HttpRequest.Builder request(String url, String session, String body) {
        return HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(20))
                .header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream")
                .header("MCP-Protocol-Version", McpClient.VERSION)
                .header("Mcp-Session-Id", session)
                .POST(HttpRequest.BodyPublishers.ofString(body));
    }

    /** The response with an id from an SSE (or JSON) body. */
    private static String responseOf(InputStream body, int id) throws Exception {
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(body, StandardCharsets.UTF_8))) {
            String data;
            while ((data = McpClient.nextData(reader)) != null) {
                if (!data.isBlank() && McpClient.JSON.readTree(data).path("id").asInt(-1) == id) {
                    return data;
                }
            }
        }
        return "";
    }
}
