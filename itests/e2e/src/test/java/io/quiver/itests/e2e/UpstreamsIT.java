package io.quiver.itests.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import io.quiver.itests.client.McpClient;
import io.quiver.itests.client.MessageStream;
import tools.jackson.databind.JsonNode;

/**
 * Third-party MCP servers behind Quiver, as a user configures them in {@code etc/mcp-servers.json}:
 * {@code @modelcontextprotocol/server-everything} over stdio and over Streamable HTTP,
 * {@code @modelcontextprotocol/server-filesystem} over stdio (both pinned in {@code upstreams/package.json}),
 * a small fixture server of this test tree ({@code upstreams/fixture-server.mjs}: a slow tool that counts
 * its runs in a witness file, a tool answering with Quiver's Outcome envelope, one echoing its {@code _meta}),
 * a server on the official Python SDK ({@code upstreams/python/time_server.py}, the SDK pinned in its
 * {@code requirements.txt}, installed by the build into a virtual environment) and three broken servers. Results through Quiver are compared with the same calls made directly.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class UpstreamsIT {

    private static final Duration T = Duration.ofSeconds(20);
    private static final Path UPSTREAMS = EverythingHttp.UPSTREAMS;
    private static final Path EVERYTHING = EverythingHttp.EVERYTHING;
    private static final Path FILESYSTEM = UPSTREAMS.resolve("node_modules/@modelcontextprotocol/server-filesystem/dist/index.js");
    private static final Path FIXTURE = UPSTREAMS.resolve("fixture-server.mjs");
    private static final String PYTHON = System.getProperty("python.upstream.python");
    private static final String PYTHON_SERVER = System.getProperty("python.upstream.server");
    /** In every upstream's command line, so the test finds (and counts) exactly this run's processes. */
    private static final String RUN = "--quiver-test-run=" + UUID.randomUUID();

    private static EverythingHttp everythingHttp;
    private static String everythingHttpUrl;
    private static QuiverServer server;
    private static Path files;
    private static Path witness;
    private static Path pythonWitness;

    @BeforeAll
    static void start() throws Exception {
        everythingHttp = EverythingHttp.start(RUN);
        everythingHttpUrl = everythingHttp.url();

        server = QuiverServer.start("upstreams", "core,http,tools-default,admin", home -> {
            files = Files.createDirectories(home.resolve("files"));
            Files.writeString(files.resolve("notes.txt"), "first line\nsecond line\nthird line\n");
            Files.createDirectories(files.resolve("sub"));
            Files.writeString(files.resolve("sub/data.json"), "{\"a\": 1}\n");
            witness = home.resolve("witness.txt");
            Files.writeString(witness, "");
            pythonWitness = home.resolve("python-witness.txt");
            writeServers(home, servers(true));
            Files.writeString(home.resolve("etc/io.quiver.upstream-fixture.cfg"), "backoffMs = 300\n");
            Files.writeString(home.resolve("etc/io.quiver.upstream-team.cfg"), "instances = per-tenant\ntenants = acme, globex\n");
            for (String broken : List.of("garbage", "silent", "exits")) {
                // long enough for node to start on a loaded machine; the one that exits has more still:
                // its exit, not the startup timeout, must be what ends each of its starts
                Files.writeString(home.resolve("etc/io.quiver.upstream-" + broken + ".cfg"), "startupTimeoutMs = "
                        + (broken.equals("exits") ? 30_000 : 4000) + "\nbackoffMs = 200\nmaxRestarts = 2\n");
            }
        });
    }

    /** The servers of the first file; {@code withFilesystem} false drops server-filesystem and adds fixture2. */
    private static Map<String, Object> servers(boolean withFilesystem) {
        Map<String, Object> s = new LinkedHashMap<>();
        s.put("everything", Map.of("command", "node", "args", List.of(EVERYTHING.toString(), "stdio", RUN)));
        s.put("everything-http", Map.of("type", "http", "url", everythingHttpUrl));
        if (withFilesystem) {
            s.put("fs", Map.of("command", "node", "args", List.of(FILESYSTEM.toString(), files.toString(), RUN)));
        } else {
            s.put("fixture2", Map.of("command", "node", "args", List.of(FIXTURE.toString(), RUN, "--server=fixture2")));
        }
        s.put("python", Map.of("command", PYTHON, "args", List.of(PYTHON_SERVER, RUN), "env",
                Map.of("WITNESS", pythonWitness.toString())));
        s.put("fixture", Map.of("command", "node", "args", List.of(FIXTURE.toString(), RUN, "--server=fixture"),
                "env", Map.of("WITNESS", "${QUIVER_TEST_WITNESS:-" + witness + "}")));
        s.put("team", Map.of("command", "node", "args", List.of(FIXTURE.toString(), RUN, "--server=team",
                "--tenant={tenant}")));
        s.put("garbage", Map.of("command", "node", "args", List.of(FIXTURE.toString(), RUN, "--server=garbage"), "env",
                Map.of("FIXTURE_MODE", "garbage")));
        s.put("silent", Map.of("command", "node", "args", List.of(FIXTURE.toString(), RUN, "--server=silent"), "env",
                Map.of("FIXTURE_MODE", "silent")));
        s.put("exits", Map.of("command", "node", "args", List.of(FIXTURE.toString(), RUN, "--server=exits"), "env",
                Map.of("FIXTURE_MODE", "exit")));
        return s;
    }

    private static void writeServers(Path home, Map<String, Object> servers) throws IOException {
        Path file = home.resolve("etc/mcp-servers.json");
        Path temp = home.resolve("etc/.mcp-servers.json.tmp");
        Files.writeString(temp, McpClient.JSON.writeValueAsString(Map.of("mcpServers", servers)));
        Files.move(temp, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
    }

    @AfterAll
    static void stop() throws Exception {
        try {
            if (server != null) {
                server.close();
            }
        } finally {
            if (everythingHttp != null) {
                everythingHttp.close();
            }
        }
    }

    @Test
    @Order(1)
    void upstreamToolsAppearPrefixedAndAnswerAsTheServersDo() throws Exception {
        try (McpClient client = McpClient.connect(server.url(), "upstreams-it", T)) {
            Map<String, JsonNode> tools = awaitTools(client, List.of("everything.echo", "everything-http.echo",
                    "fs.read_text_file", "fixture.slow", "fixture.meta"));
            assertEquals("object", tools.get("everything.echo").path("inputSchema").path("type").asString());
            assertEquals("Echoes back the input string", tools.get("everything.echo").path("description").asString());
            assertEquals("{\"type\":\"object\",\"properties\":{}}", tools.get("fixture.meta").get("inputSchema").toString(),
                    "an upstream schema without a type is listed with the minimal wrapper");
            assertTrue(tools.keySet().stream().noneMatch(n -> n.startsWith("garbage.") || n.startsWith("silent.")
                    || n.startsWith("exits.")), tools.keySet().toString());
            assertTrue(tools.containsKey("current_time"), "Quiver's own tools are still there");

            try (Direct everything = Direct.start("node", EVERYTHING.toString(), "stdio", RUN);
                    Direct fs = Direct.start("node", FILESYSTEM.toString(), files.toString(), RUN)) {
                for (Map.Entry<String, Map<String, Object>> call : Map.<String, Map<String, Object>>of(
                        "echo", Map.of("message", "through Quiver"),
                        "get-sum", Map.of("a", 2, "b", 40),
                        "get-structured-content", Map.of("location", "Chicago"),
                        "get-annotated-message", Map.of("messageType", "error", "includeImage", true),
                        "get-tiny-image", Map.of()).entrySet()) {
                    JsonNode direct = everything.call(call.getKey(), call.getValue());
                    for (String prefix : List.of("everything.", "everything-http.")) {
                        JsonNode via = client.callTool(prefix + call.getKey(), call.getValue()).path("result");
                        assertSameResult(direct, via, prefix + call.getKey());
                    }
                }
                for (Map.Entry<String, Map<String, Object>> call : Map.<String, Map<String, Object>>of(
                        "read_text_file", Map.of("path", files.resolve("notes.txt").toString(), "head", 2),
                        "list_directory", Map.of("path", files.toString()),
                        "search_files", Map.of("path", files.toString(), "pattern", "*.json"),
                        "list_allowed_directories", Map.of()).entrySet()) {
                    assertSameResult(fs.call(call.getKey(), call.getValue()),
                            client.callTool("fs." + call.getKey(), call.getValue()).path("result"), "fs." + call.getKey());
                }
                // what the reference refuses, it refuses through Quiver too
                Map<String, Object> escape = Map.of("path", files.resolve("../etc/mcp-servers.json").toString());
                JsonNode refused = client.callTool("fs.read_text_file", escape).path("result");
                assertTrue(refused.path("isError").asBoolean(), refused.toString());
                assertSameResult(fs.call("read_text_file", escape), refused, "fs escape");
            }
            try (Direct fixture = Direct.start("node", FIXTURE.toString(), RUN, "--server=direct")) {
                JsonNode blocksTool = fixture.listTools().stream().filter(t -> t.path("name").asString().equals("blocks"))
                        .findFirst().orElseThrow();
                assertEquals(3, blocksTool.path("icons").size(), blocksTool.toString());
                assertEquals(blocksTool.path("icons"), client.listTools().get("fixture.blocks").path("icons"),
                        "icons listed as the server lists them, with their MIME types, sizes and themes");
                // every content type, annotations and each block's _meta, to a session client and a stateless one
                JsonNode direct = fixture.call("blocks", Map.of());
                assertEquals(6, direct.path("content").size(), direct.toString());
                for (JsonNode via : List.of(client.callTool("fixture.blocks", Map.of()).path("result"),
                        stateless("fixture.blocks", Map.of(), Map.of(), null, null).path("result"))) {
                    assertSameResult(direct, via, "fixture.blocks");
                    assertEquals("abc", via.path("_meta").path("example.com/trace").asString(), via.toString());
                }
            }
            JsonNode bad = client.callTool("everything.get-sum", Map.of("a", "two")).path("result");
            assertTrue(bad.path("isError").asBoolean() && bad.path("content").get(0).path("text").asString()
                    .startsWith("Invalid arguments for tool everything.get-sum"),
                    "Quiver checks the arguments against the upstream's schema: " + bad);
        }
    }

    @Test
    @Order(2)
    void upstreamPromptsAndResourcesAreServedAsTheServersServeThem() throws Exception {
        try (McpClient client = McpClient.connect(server.url(), "upstreams-it", T);
                Direct everything = Direct.start("node", EVERYTHING.toString(), "stdio", RUN)) {
            awaitTools(client, List.of("everything.echo", "everything-http.echo"));
            // prompts: named as the tools are, with the arguments the server lists, over stdio and over HTTP
            Map<String, JsonNode> direct = byKey(everything.request("prompts/list", Map.of()).path("prompts"), "name");
            Map<String, JsonNode> prompts = byKey(listAll(client, "prompts/list", "prompts"), "name");
            assertTrue(direct.keySet().containsAll(List.of("simple-prompt", "args-prompt", "resource-prompt")), direct.toString());
            for (String prefix : List.of("everything.", "everything-http.")) {
                for (JsonNode prompt : direct.values()) {
                    JsonNode via = prompts.get(prefix + prompt.path("name").asString());
                    assertTrue(via != null, prefix + prompt.path("name") + " listed: " + prompts.keySet());
                    assertEquals(prompt.has("arguments") ? prompt.get("arguments") : McpClient.JSON.createArrayNode(),
                            via.path("arguments"), via.toString());
                    assertEquals(prompt.path("title"), via.path("title"), via.toString());
                    assertEquals(prompt.path("description"), via.path("description"), via.toString());
                }
                for (Map.Entry<String, Map<String, String>> get : Map.<String, Map<String, String>>of(
                        "simple-prompt", Map.of(),
                        "args-prompt", Map.of("city", "Paris", "state", "Texas"),
                        "resource-prompt", Map.of("resourceType", "Text", "resourceId", "2")).entrySet()) {
                    JsonNode expected = everything.request("prompts/get", Map.of("name", get.getKey(), "arguments", get.getValue()));
                    JsonNode via = client.result("prompts/get", Map.of("name", prefix + get.getKey(), "arguments", get.getValue()));
                    assertEquals(withoutTimes(expected.path("messages")), withoutTimes(via.path("messages")),
                            prefix + get.getKey() + ": " + via);
                }
                // the server's own refusal comes back with its code and message
                JsonNode refused = client.request("prompts/get", Map.of("name", prefix + "resource-prompt", "arguments",
                        Map.of("resourceType", "Bogus", "resourceId", "2")));
                JsonNode expected = everything.request("prompts/get", Map.of("name", "resource-prompt", "arguments",
                        Map.of("resourceType", "Bogus", "resourceId", "2")));
                assertEquals(expected.path("error").path("code"), refused.path("error").path("code"), refused.toString());
                assertEquals(expected.path("error").path("message"), refused.path("error").path("message"), refused.toString());
                // a required argument missing: Quiver's own check, as for its own prompts
                JsonNode missing = client.request("prompts/get", Map.of("name", prefix + "args-prompt", "arguments", Map.of()));
                assertEquals(-32602, missing.path("error").path("code").asInt(), missing.toString());
            }
            // completions of a prompt's arguments (the second narrowed by the first) and of a template's
            for (Map<String, Object> complete : List.<Map<String, Object>>of(
                    Map.of("ref", Map.of("type", "ref/prompt", "name", "completable-prompt"),
                            "argument", Map.of("name", "department", "value", "E")),
                    Map.of("ref", Map.of("type", "ref/prompt", "name", "completable-prompt"),
                            "argument", Map.of("name", "name", "value", ""),
                            "context", Map.of("arguments", Map.of("department", "Engineering"))),
                    Map.of("ref", Map.of("type", "ref/resource", "uri", "demo://resource/dynamic/text/{resourceId}"),
                            "argument", Map.of("name", "resourceId", "value", "1")))) {
                JsonNode expected = everything.request("completion/complete", complete).path("completion");
                assertFalse(expected.path("values").isEmpty(), expected.toString());
                Map<String, Object> viaQuiver = new LinkedHashMap<>(complete);
                @SuppressWarnings("unchecked")
                Map<String, Object> ref = new LinkedHashMap<>((Map<String, Object>) complete.get("ref"));
                if (ref.containsKey("name")) {
                    ref.put("name", "everything." + ref.get("name"));
                }
                viaQuiver.put("ref", ref);
                JsonNode via = client.result("completion/complete", viaQuiver).path("completion");
                assertEquals(expected.path("values"), via.path("values"), complete + ": " + via);
            }

            // resources and templates under the server's own URIs (both servers list the same: the first serves them)
            Map<String, JsonNode> resources = byKey(listAll(client, "resources/list", "resources"), "uri");
            Map<String, JsonNode> templates = byKey(listAll(client, "resources/templates/list", "resourceTemplates"), "uriTemplate");
            List<JsonNode> directResources = new ArrayList<>();
            everything.request("resources/list", Map.of()).path("resources").forEach(directResources::add);
            assertFalse(directResources.isEmpty());
            for (JsonNode resource : directResources) {
                String uri = resource.path("uri").asString();
                JsonNode via = resources.get(uri);
                assertTrue(via != null, uri + " listed: " + resources.keySet());
                assertEquals(resource.path("name"), via.path("name"));
                assertEquals(resource.path("mimeType"), via.path("mimeType"));
                assertEquals(everything.request("resources/read", Map.of("uri", uri)).path("contents"),
                        client.result("resources/read", Map.of("uri", uri)).path("contents"), uri);
            }
            everything.request("resources/templates/list", Map.of()).path("resourceTemplates").forEach(t ->
                    assertTrue(templates.containsKey(t.path("uriTemplate").asString()), t + " listed: " + templates.keySet()));
            for (String uri : List.of("demo://resource/dynamic/text/3", "demo://resource/dynamic/blob/4")) {
                assertEquals(withoutTimes(everything.request("resources/read", Map.of("uri", uri)).path("contents")),
                        withoutTimes(client.result("resources/read", Map.of("uri", uri)).path("contents")), uri);
            }

            // a resource the server adds: its list change reaches Quiver's clients, and the resource is read through Quiver
            MessageStream stream = client.openEventStream();
            String name = "upstreams-it-" + UUID.randomUUID() + ".gz";
            JsonNode link = client.callTool("everything.gzip-file-as-resource", Map.of("name", name, "data",
                    "data:text/plain,through%20Quiver", "outputType", "resourceLink")).path("result");
            String uri = link.path("content").get(0).path("uri").asString();
            assertTrue(uri.endsWith(name), link.toString());
            stream.awaitNotification("notifications/resources/list_changed", T);
            await(() -> {
                try {
                    return byKey(listAll(client, "resources/list", "resources"), "uri").containsKey(uri);
                } catch (Exception e) {
                    return false;
                }
            }, T, uri + " listed");
            JsonNode read = client.result("resources/read", Map.of("uri", uri)).path("contents").get(0);
            assertEquals("application/gzip", read.path("mimeType").asString(), read.toString());
            try (java.util.zip.GZIPInputStream gunzip = new java.util.zip.GZIPInputStream(new java.io.ByteArrayInputStream(
                    java.util.Base64.getDecoder().decode(read.path("blob").asString())))) {
                assertEquals("through Quiver", new String(gunzip.readAllBytes(), StandardCharsets.UTF_8));
            }

            // a subscription through Quiver reaches the server that serves the URI (the server sends updates every 5 s
            // once its tool turns them on): they come through until the client unsubscribes
            String watched = directResources.get(0).path("uri").asString();
            client.result("resources/subscribe", Map.of("uri", watched));
            for (String prefix : List.of("everything.", "everything-http.")) {
                client.callTool(prefix + "toggle-subscriber-updates", Map.of());
            }
            stream.await("an update of " + watched, m -> "notifications/resources/updated".equals(m.path("method").asString(""))
                    && watched.equals(m.path("params").path("uri").asString("")), T);
            client.result("resources/unsubscribe", Map.of("uri", watched));
            Thread.sleep(1_000); // an update sent before the unsubscription arrived may still come
            int updates = stream.count("notifications/resources/updated");
            Thread.sleep(5_500); // the server's next round of updates
            assertEquals(updates, stream.count("notifications/resources/updated"), "no update after the unsubscription");
            for (String prefix : List.of("everything.", "everything-http.")) {
                client.callTool(prefix + "toggle-subscriber-updates", Map.of()); // off again
            }
        }
    }

    /** Every page of a list method's items. */
    private static List<JsonNode> listAll(McpClient client, String method, String member) throws Exception {
        List<JsonNode> items = new ArrayList<>();
        String cursor = null;
        do {
            JsonNode result = client.result(method, cursor == null ? Map.of() : Map.of("cursor", cursor));
            result.path(member).forEach(items::add);
            cursor = result.path("nextCursor").isString() ? result.path("nextCursor").asString() : null;
        } while (cursor != null);
        return items;
    }

    private static Map<String, JsonNode> byKey(Iterable<JsonNode> items, String key) {
        Map<String, JsonNode> out = new LinkedHashMap<>();
        items.forEach(item -> out.putIfAbsent(item.path(key).asString(), item));
        return out;
    }

    /**
     * The JSON with the time of day server-everything writes into each dynamic resource taken out, blobs decoded
     * first (its dynamic blobs are text too).
     */
    private static String withoutTimes(JsonNode node) {
        JsonNode copy = node.deepCopy();
        for (JsonNode item : copy) {
            if (item.path("blob").isString() && item instanceof tools.jackson.databind.node.ObjectNode o) {
                o.put("blob", new String(java.util.Base64.getDecoder().decode(item.path("blob").asString()), StandardCharsets.UTF_8));
            }
        }
        return copy.toString().replaceAll("created at [0-9:.]+([\\s\\u202f\\u00a0]*[AaPp]\\.?[Mm]\\.?)?", "created at TIME");
    }

    @Test
    @Order(3)
    void aServerOnThePythonSdkAnswersThroughQuiverAsItDoesDirectly() throws Exception {
        try (McpClient client = McpClient.connect(server.url(), "upstreams-it", T);
                Direct direct = Direct.start(PYTHON, PYTHON_SERVER, RUN)) {
            Map<String, JsonNode> tools = awaitTools(client, List.of("python.convert_time", "python.count"));
            assertTrue(log().matches("(?s).*Upstream python is ready \\(pid \\d+, protocol 2026-07-28, 2 tools\\).*"),
                    "the Python SDK offers the stateless revision over stdio, and Quiver takes it:\n" + log());
            for (JsonNode tool : direct.listTools()) {
                JsonNode via = tools.get("python." + tool.path("name").asString());
                assertEquals(tool.path("inputSchema"), via.path("inputSchema"), via.toString());
                assertEquals(tool.path("outputSchema"), via.path("outputSchema"), via.toString());
                assertEquals(tool.path("description"), via.path("description"), via.toString());
            }
            for (Map<String, Object> arguments : List.<Map<String, Object>>of(
                    Map.of("source_timezone", "Europe/Paris", "time", "09:30", "target_timezone", "America/New_York"),
                    Map.of("source_timezone", "Asia/Kolkata", "time", "23:45", "target_timezone", "Pacific/Chatham",
                            "date", "2026-12-24"),
                    Map.of("source_timezone", "Mars/Olympus_Mons", "time", "12:00", "target_timezone", "UTC"))) {
                assertSameResult(direct.call("convert_time", arguments),
                        client.callTool("python.convert_time", arguments).path("result"), "python " + arguments);
            }
            JsonNode converted = client.callTool("python.convert_time", Map.of("source_timezone", "Europe/Paris", "time",
                    "09:30", "target_timezone", "America/New_York")).path("result");
            assertEquals("2026-06-01T03:30:00-04:00", converted.path("structuredContent").path("target").asString(),
                    converted.toString());
            JsonNode unknown = client.callTool("python.convert_time", Map.of("source_timezone", "Mars/Olympus_Mons",
                    "time", "12:00", "target_timezone", "UTC")).path("result");
            assertTrue(unknown.path("isError").asBoolean(), "the SDK's own error comes back as one: " + unknown);

            McpClient.Call call = client.send("tools/call", client.toolCall("python.count", Map.of("steps", 3, "ms", 50,
                    "label", "progress"), "tok-py"));
            JsonNode response = call.response(T);
            assertEquals("counted to 3", response.path("result").path("structuredContent").path("result").asString(),
                    response.toString());
            List<JsonNode> progress = call.stream().history().stream()
                    .filter(m -> "notifications/progress".equals(m.path("method").asString(""))).toList();
            assertEquals(3, progress.size(), call.stream().history().toString());
            assertEquals("tok-py", progress.get(2).path("params").path("progressToken").asString());
            assertEquals("step 3", progress.get(2).path("params").path("message").asString(), progress.toString());

            McpClient.Call slow = client.send("tools/call", client.toolCall("python.count", Map.of("steps", 100, "ms", 100,
                    "label", "cancel-me"), "tok-py-2"));
            slow.stream().awaitNotification("notifications/progress", T);
            client.notify("notifications/cancelled", Map.of("requestId", slow.id(), "reason", "test"));
            await(() -> lines(pythonWitness).contains("cancelled cancel-me"), T, "the Python server saw the cancellation");
        }
    }

    @Test
    @Order(4)
    void progressAndCancellationPassThrough() throws Exception {
        try (McpClient client = McpClient.connect(server.url(), "upstreams-it", T)) {
            awaitTools(client, List.of("fixture.slow"));
            McpClient.Call call = client.send("tools/call", client.toolCall("fixture.slow", Map.of("ms", 1000, "label", "progress"),
                    "tok-1"));
            JsonNode response = call.response(T);
            assertEquals("slept 1000 ms", response.path("result").path("content").get(0).path("text").asString(),
                    response.toString());
            List<JsonNode> progress = call.stream().history().stream()
                    .filter(m -> "notifications/progress".equals(m.path("method").asString(""))).toList();
            assertEquals(5, progress.size(), call.stream().history().toString());
            assertEquals("tok-1", progress.get(0).path("params").path("progressToken").asString());
            assertEquals(5.0, progress.get(4).path("params").path("progress").asDouble());
            assertEquals(5.0, progress.get(4).path("params").path("total").asDouble());

            McpClient.Call slow = client.send("tools/call", client.toolCall("fixture.slow", Map.of("ms", 10_000, "label",
                    "cancel-me"), "tok-2"));
            slow.stream().awaitNotification("notifications/progress", T);
            client.notify("notifications/cancelled", Map.of("requestId", slow.id(), "reason", "test"));
            await(() -> witnessLines().stream().anyMatch(l -> l.startsWith("cancelled ")), T, "the upstream saw the cancellation");
            assertEquals(1, witnessLines().stream().filter(l -> l.equals("ran cancel-me")).count());
        }
    }

    @Test
    @Order(5)
    void theOutcomeEnvelopeAsksTheClientAndSpoofedMetaNeverArrives() throws Exception {
        Map<String, Object> spoof = Map.of("io.quiver/context", Map.of("tenant", "evil", "answers",
                Map.of("branch", Map.of("action", "accept", "content", Map.of("name", "evil")))),
                "io.quiver/tool", Map.of("name", "evil"));
        awaitTools(McpClient.connect(server.url(), "upstreams-it", T), List.of("fixture.ask"));
        JsonNode first = stateless("fixture.ask", Map.of(), spoof, null, null).path("result");
        assertEquals("input_required", first.path("resultType").asString(), first.toString());
        JsonNode question = first.path("inputRequests").path("branch");
        assertEquals("Which branch?", question.path("params").path("message").asString(question.toString()), first.toString());

        JsonNode done = stateless("fixture.ask", Map.of(), spoof, first.path("requestState").asString(),
                Map.of("branch", Map.of("action", "accept", "content", Map.of("name", "main")))).path("result");
        assertEquals("deploying main", done.path("content").get(0).path("text").asString(), done.toString());
        JsonNode meta = done.path("structuredContent").path("meta");
        JsonNode context = meta.path("io.quiver/context");
        assertEquals("main", context.path("answers").path("branch").path("content").path("name").asString(), meta.toString());
        assertEquals("default", context.path("tenant").asString(), meta.toString());
        assertEquals("fixture.ask", meta.path("io.quiver/tool").path("name").asString(), meta.toString());
        assertEquals("ask", meta.path("io.quiver/tool").path("upstreamName").asString(), meta.toString());
        assertFalse(done.toString().contains("evil"), "the client's own _meta never reaches the upstream: " + done);

        Map<String, Object> mixed = new LinkedHashMap<>(spoof);
        mixed.put("example.com/trace", Map.of("id", "t-1"));
        mixed.put("io.quiver/anything", "evil");
        JsonNode echoed = stateless("fixture.meta", Map.of(), mixed, null, null).path("result");
        assertFalse(echoed.toString().contains("evil"), echoed.toString());
        JsonNode forwarded = echoed.path("structuredContent").path("meta");
        assertTrue(forwarded.has("io.quiver/context"), echoed.toString());
        assertEquals("t-1", forwarded.path("example.com/trace").path("id").asString(),
                "the caller's own _meta goes on to the upstream: " + forwarded);
        assertFalse(forwarded.has("io.modelcontextprotocol/clientInfo"), "not the caller's protocol keys: " + forwarded);
        assertTrue(forwarded.path("progressToken").asString().startsWith("quiver-"), forwarded.toString());
    }

    @Test
    @Order(6)
    void anUpstreamsListChangeReachesQuiversClients() throws Exception {
        try (McpClient client = McpClient.connect(server.url(), "upstreams-it", T)) {
            awaitTools(client, List.of("fixture.grow"));
            MessageStream stream = client.openEventStream();
            JsonNode added = client.callTool("fixture.grow", Map.of()).path("result");
            String name = added.path("content").get(0).path("text").asString().replace("added ", "");
            assertTrue(name.startsWith("grown-"), added.toString());
            stream.awaitNotification("notifications/tools/list_changed", T);
            awaitTools(client, List.of("fixture." + name));
            assertEquals(name + " answers", client.callTool("fixture." + name, Map.of()).path("result").path("content")
                    .get(0).path("text").asString());
        }
    }

    @Test
    @Order(7)
    void aPerTenantServerRunsOnceForEachTenantAndOnlyItsTenantSeesIt() throws Exception {
        String base = server.url().substring(0, server.url().length() - "/mcp".length());
        for (String tenant : List.of("acme", "globex")) {
            try (McpClient client = McpClient.connect(base + "/t/" + tenant + "/mcp", "upstreams-it", T)) {
                awaitTools(client, List.of("team.meta", "team.slow"));
                JsonNode meta = client.callTool("team.meta", Map.of()).path("result").path("structuredContent").path("meta");
                assertEquals(tenant, meta.path("io.quiver/context").path("tenant").asString(), meta.toString());
                assertEquals("team@" + tenant, meta.path("io.quiver/tool").path("server").asString(), meta.toString());
            }
            assertEquals(1, processes(FIXTURE).stream().filter(p -> p.info().commandLine().orElse("")
                    .contains("--tenant=" + tenant)).count(), "one process for " + tenant);
        }
        try (McpClient client = McpClient.connect(server.url(), "upstreams-it", T)) {
            assertTrue(client.toolNames().stream().noneMatch(n -> n.startsWith("team.")),
                    "the default tenant sees neither instance");
        }
    }

    @Test
    @Order(8)
    void brokenUpstreamsAreReportedAndRetriedWithinTheirPolicy() throws Exception {
        await(() -> log().contains("Upstream exits failed and is not started again")
                && log().contains("Upstream silent failed and is not started again")
                && log().contains("Upstream garbage failed and is not started again"), Duration.ofSeconds(60),
                "the three broken servers were given up after their restarts");
        String log = log();
        assertTrue(log.contains("Upstream exits: could not start: the process exited with status 3"), log);
        assertTrue(log.contains("Upstream silent: could not start: no answer to initialize within startupTimeoutMs (4000 ms)"),
                log);
        assertTrue(log.contains("Upstream garbage wrote a line that is not a JSON-RPC message on stdout"), log);
        assertEquals(2, log.lines().filter(l -> l.contains("Upstream exits: could not start") && l.contains("starting it again"))
                .count(), "restarted twice (maxRestarts = 2), then given up");
        assertTrue(log.contains("[exits] fixture: exiting at once"), "its stderr reached the log");
        Probe.normalCallAnswers(server.url());

        try (McpClient client = McpClient.connect(server.url(), "operator", T)) {
            Map<String, JsonNode> byName = new LinkedHashMap<>();
            client.callTool("upstreams_list", Map.of()).path("result").path("structuredContent").path("upstreams")
                    .forEach(u -> byName.put(u.path("name").asString(), u));
            assertEquals(List.of("everything", "everything-http", "exits", "fixture", "fs", "garbage", "python", "silent",
                    "team@acme", "team@globex"),
                    List.copyOf(byName.keySet()));
            JsonNode everything = byName.get("everything");
            assertEquals("ready", everything.path("state").asString(), everything.toString());
            assertEquals("stdio", everything.path("kind").asString());
            assertTrue(everything.path("connection").asString().matches("pid \\d+"), everything.toString());
            assertTrue(everything.path("tools").asInt() >= 10, everything.toString());
            assertEquals(4, everything.path("prompts").asInt(), everything.toString());
            assertTrue(everything.path("resources").asInt() >= 9, "its 7 resources and 2 templates: " + everything);
            assertEquals(0, byName.get("python").path("resources").asInt(), byName.get("python").toString());
            assertEquals("2025-11-25", everything.path("protocol").asString(), everything.toString());
            assertEquals("2026-07-28", byName.get("python").path("protocol").asString(), byName.get("python").toString());
            assertEquals("http", byName.get("everything-http").path("kind").asString());
            assertEquals(everythingHttpUrl, byName.get("everything-http").path("connection").asString());
            JsonNode exits = byName.get("exits");
            assertEquals("failed", exits.path("state").asString(), exits.toString());
            assertEquals(2, exits.path("restarts").asInt(), exits.toString());
            assertTrue(exits.path("protocol").isMissingNode() || exits.path("protocol").isNull(), exits.toString());
            assertTrue(exits.path("lastError").asString().contains("exited with status 3"), exits.toString());
            assertTrue(exits.path("stderrTail").isMissingNode() || exits.path("stderrTail").isNull(),
                    "the stderr tail only when asked for by name");
            JsonNode one = client.callTool("upstreams_list", Map.of("name", "exits")).path("result")
                    .path("structuredContent").path("upstreams").get(0);
            assertTrue(one.path("stderrTail").toString().contains("fixture: exiting at once"), one.toString());
            assertEquals("etc/mcp-servers.json", one.path("declaredIn").asString());
            String problems = client.callTool("problems_list", Map.of()).path("result").path("content").get(0).path("text")
                    .asString();
            assertTrue(problems.contains("upstream silent: failed: ") && problems.contains("upstream garbage: failed: "),
                    problems);
        }
    }

    @Test
    @Order(9)
    void aKilledUpstreamEndsItsCallWithoutRerunningItAndComesBack() throws Exception {
        try (McpClient client = McpClient.connect(server.url(), "upstreams-it", T)) {
            awaitTools(client, List.of("fixture.slow"));
            MessageStream sessionStream = client.openEventStream();
            MessageStream listen = client.listenForToolChanges();
            listen.await("the listen acknowledgement", m -> true, T);
            long fixturePid = upstreamPid(FIXTURE, null);
            McpClient.Call call = client.send("tools/call", client.toolCall("fixture.slow", Map.of("ms", 60_000, "label", "killed"),
                    null));
            await(() -> witnessLines().contains("ran killed"), T, "the call reached the upstream");
            ProcessHandle.of(fixturePid).orElseThrow().destroyForcibly();

            JsonNode response = call.response(T);
            assertTrue(response.path("result").path("isError").asBoolean(), response.toString());
            assertTrue(response.path("result").path("content").get(0).path("text").asString()
                    .contains("stopped before it answered"), response.toString());
            sessionStream.awaitNotification("notifications/tools/list_changed", T);
            listen.await("a list change", m -> "notifications/tools/list_changed".equals(m.path("method").asString("")), T);

            await(() -> names(client).contains("fixture.slow") && upstreamPid(FIXTURE, fixturePid) > 0, T,
                    "the fixture is back after its restart");
            await(() -> sessionStream.count("notifications/tools/list_changed") >= 2
                    && listen.count("notifications/tools/list_changed") >= 2, T, "both streams heard the tools come back");
            JsonNode again = client.callTool("fixture.slow", Map.of("ms", 10, "label", "after")).path("result");
            assertEquals("slept 10 ms", again.path("content").get(0).path("text").asString(), again.toString());
            assertEquals(1, witnessLines().stream().filter("ran killed"::equals).count(),
                    "the killed call was not sent again: " + witnessLines());
        }
    }

    @Test
    @Order(10)
    void editingTheFileStartsAndStopsServersAndLeavesTheOthersRunning() throws Exception {
        try (McpClient client = McpClient.connect(server.url(), "upstreams-it", T)) {
            awaitTools(client, List.of("fs.read_text_file", "everything.echo"));
            long everythingPid = upstreamPid(EVERYTHING, null);
            writeServers(server.home(), servers(false));
            await(() -> names(client).contains("fixture2.slow") && names(client).stream().noneMatch(n -> n.startsWith("fs.")),
                    T, "fixture2 added and fs removed");
            assertTrue(ProcessHandle.of(everythingPid).map(ProcessHandle::isAlive).orElse(false),
                    "the untouched server keeps its process");
            assertEquals(everythingPid, upstreamPid(EVERYTHING, null));
            await(() -> processes(FILESYSTEM).isEmpty(), T, "the removed server's process ended");
            assertEquals("slept 5 ms", client.callTool("fixture2.slow", Map.of("ms", 5)).path("result").path("content").get(0)
                    .path("text").asString());
        }
    }

    @Test
    @Order(11)
    void noChildOutlivesQuiverEvenWhenItIsKilled() throws Exception {
        assertFalse(processes(FIXTURE).isEmpty());
        assertFalse(processes(Path.of(PYTHON_SERVER)).isEmpty());
        ProcessHandle.of(server.pid()).orElseThrow().destroyForcibly();
        assertTrue(server.awaitExit(20) != 0);
        await(() -> processes(FIXTURE).isEmpty() && processes(Path.of(PYTHON_SERVER)).isEmpty() && processes(EVERYTHING).stream()
                .noneMatch(p -> p.info().commandLine().orElse("").contains(" stdio ")), T,
                "every stdio upstream saw its stdin end and exited");
    }

    // -------------------------------------------------------------------------------------------

    /** JSON equality where 1 and 1.0 are the same number, as they are in JSON. */
    private static final java.util.Comparator<JsonNode> SAME_NUMBER = (a, b) -> a.isNumber() && b.isNumber()
            ? Double.compare(a.asDouble(), b.asDouble()) : a.equals(b) ? 0 : 1;

    /** Content and structured content equal (Quiver may add nothing but an explicit {@code isError: false}). */
    private static void assertSameResult(JsonNode direct, JsonNode via, String what) {
        assertTrue(direct.path("content").equals(SAME_NUMBER, via.path("content")),
                what + " content: " + direct.path("content") + " directly, " + via.path("content") + " through Quiver");
        assertTrue(direct.path("structuredContent").equals(SAME_NUMBER, via.path("structuredContent")),
                what + " structuredContent: " + direct.path("structuredContent") + " directly, " + via.path("structuredContent"));
        assertEquals(direct.path("isError").asBoolean(false), via.path("isError").asBoolean(false), what + " isError");
    }

    private static Map<String, JsonNode> awaitTools(McpClient client, List<String> names) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        Map<String, JsonNode> tools = client.listTools();
        while (!tools.keySet().containsAll(names) && System.nanoTime() < deadline) {
            Thread.sleep(100);
            tools = client.listTools();
        }
        assertTrue(tools.keySet().containsAll(names), "tools " + names + " missing from " + tools.keySet() + "\n" + log());
        return tools;
    }

    private static List<String> names(McpClient client) {
        try {
            return client.toolNames();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static void await(BooleanSupplier condition, Duration limit, String what) throws Exception {
        Await.until(condition::getAsBoolean, limit, () -> what + "\n" + log());
    }

    private static List<String> witnessLines() {
        return lines(witness);
    }

    private static List<String> lines(Path file) {
        try {
            return Files.readAllLines(file);
        } catch (IOException e) {
            return List.of();
        }
    }

    private static String log() {
        try {
            return server.log();
        } catch (IOException e) {
            return "";
        }
    }

    /** This run's processes of a script. */
    private static List<ProcessHandle> processes(Path script) {
        return ProcessHandle.allProcesses().filter(p -> {
            String line = p.info().commandLine().orElse("");
            return line.contains(script.toString()) && line.contains(RUN);
        }).toList();
    }

    /**
     * The pid of Quiver's child running a script (not {@code except}), or -1: server-everything's stdio
     * instance, or the fixture declared as {@code fixture}.
     */
    private static long upstreamPid(Path script, Long except) {
        Optional<ProcessHandle> found = ProcessHandle.of(server.pid()).orElseThrow().children().filter(p -> {
            String line = p.info().commandLine().orElse("");
            return line.contains(script.toString())
                    && (script == EVERYTHING ? line.contains(" stdio ") : line.endsWith(" --server=fixture"))
                    && p.isAlive() && (except == null || p.pid() != except);
        }).findFirst();
        return found.map(ProcessHandle::pid).orElse(-1L);
    }

    /** A 2026-07-28 {@code tools/call} with {@code _meta} of the client's own besides the required. */
    private static JsonNode stateless(String tool, Map<String, Object> arguments, Map<String, Object> extraMeta,
            String requestState, Map<String, Object> answers) throws Exception {
        Map<String, Object> meta = new LinkedHashMap<>(extraMeta);
        meta.put("io.modelcontextprotocol/protocolVersion", "2026-07-28");
        meta.put("io.modelcontextprotocol/clientCapabilities", Map.of("elicitation", Map.of()));
        meta.put("io.modelcontextprotocol/clientInfo", Map.of("name", "upstreams-it", "version", "1"));
        Map<String, Object> params = new LinkedHashMap<>();
        params.put("name", tool);
        params.put("arguments", arguments);
        params.put("_meta", meta);
        if (requestState != null) {
            params.put("requestState", requestState);
            params.put("inputResponses", answers);
        }
        HttpRequest request = HttpRequest.newBuilder(URI.create(server.url())).timeout(T)
                .header("Content-Type", "application/json").header("Accept", "application/json, text/event-stream")
                .header("MCP-Protocol-Version", "2026-07-28").header("Mcp-Method", "tools/call").header("Mcp-Name", tool)
                .POST(HttpRequest.BodyPublishers.ofString(McpClient.JSON.writeValueAsString(Map.of("jsonrpc", "2.0", "id", 7,
                        "method", "tools/call", "params", params)))).build();
        HttpResponse<String> response = HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofString());
        assertEquals(200, response.statusCode(), response.body());
        return McpClient.JSON.readTree(response.body());
    }

    /** The same server, spoken to directly over stdio: the reference each result through Quiver is compared with. */
    static final class Direct implements AutoCloseable {
        private final Process process;
        private final OutputStream in;
        private final BlockingQueue<JsonNode> messages = new LinkedBlockingQueue<>();
        private int ids;

        private Direct(Process process) {
            this.process = process;
            this.in = process.getOutputStream();
            CompletableFuture.runAsync(() -> {
                try (BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(),
                        StandardCharsets.UTF_8))) {
                    String line;
                    while ((line = out.readLine()) != null) {
                        if (line.startsWith("{")) {
                            messages.add(McpClient.JSON.readTree(line));
                        }
                    }
                } catch (IOException e) {
                    // ended
                }
            });
        }

        static Direct start(String... command) throws Exception {
            Direct d = new Direct(new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD).start());
            d.request("initialize", Map.of("protocolVersion", "2025-11-25", "capabilities", Map.of(), "clientInfo",
                    Map.of("name", "direct", "version", "1")));
            d.send(Map.of("jsonrpc", "2.0", "method", "notifications/initialized"));
            return d;
        }

        List<JsonNode> listTools() throws Exception {
            List<JsonNode> tools = new ArrayList<>();
            request("tools/list", Map.of()).path("tools").forEach(tools::add);
            return tools;
        }

        JsonNode call(String tool, Map<String, Object> arguments) throws Exception {
            return request("tools/call", Map.of("name", tool, "arguments", arguments));
        }

        private JsonNode request(String method, Object params) throws Exception {
            int id = ++ids;
            send(Map.of("jsonrpc", "2.0", "id", id, "method", method, "params", params));
            long deadline = System.nanoTime() + T.toNanos();
            List<JsonNode> others = new ArrayList<>();
            while (System.nanoTime() < deadline) {
                JsonNode m = messages.poll(100, TimeUnit.MILLISECONDS);
                if (m != null && m.path("id").asInt(-1) == id) {
                    return m.has("result") ? m.get("result") : m;
                } else if (m != null) {
                    others.add(m);
                }
            }
            throw new AssertionError("no answer to " + method + " from " + process.info().commandLine().orElse("?")
                    + "; other messages: " + others);
        }

        private void send(Map<String, ?> message) throws IOException {
            in.write((McpClient.JSON.writeValueAsString(message) + "\n").getBytes(StandardCharsets.UTF_8));
            in.flush();
        }

        @Override
        public void close() throws Exception {
            in.close();
            if (!process.waitFor(5, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        }
    }
}
