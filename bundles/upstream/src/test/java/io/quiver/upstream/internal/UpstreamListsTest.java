package io.quiver.upstream.internal;

import static io.quiver.upstream.internal.FakeHttpUpstream.error;
import static io.quiver.upstream.internal.FakeHttpUpstream.reply;
import static io.quiver.upstream.internal.FakeHttpUpstream.result;
import static io.quiver.upstream.internal.FakeHttpUpstream.write;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import com.sun.net.httpserver.HttpExchange;

import io.quiver.api.ClientInfo;
import io.quiver.api.ProtocolError;
import io.quiver.api.RequestContext;
import io.quiver.api.Tool;
import io.quiver.api.completion.Completer;
import io.quiver.api.completion.Completion;
import io.quiver.api.completion.CompletionRequest;
import io.quiver.api.content.ResourceContents;
import io.quiver.api.content.TextContent;
import io.quiver.api.prompt.Prompt;
import io.quiver.api.prompt.PromptArgument;
import io.quiver.api.prompt.PromptRequest;
import io.quiver.api.prompt.PromptResult;
import io.quiver.api.resource.Resource;
import io.quiver.api.resource.ResourceRequest;
import io.quiver.api.resource.ResourceTemplate;
import io.quiver.api.resource.Subscribable;
import io.quiver.lib.config.TypedConfig;
import tools.jackson.databind.JsonNode;

/**
 * An upstream's prompts, resources and resource templates become Quiver services as its lists give them,
 * follow their change notifications and its settings, and pass each request on to the server. The
 * server is a small Streamable HTTP server of the test's own, in a session revision or the stateless one;
 * the framework is a stand-in that keeps what is registered.
 */
class UpstreamListsTest {

    private static final String PROMPTS = "{\"prompts\": [{\"name\": \"greet\", \"title\": \"Greeting\", \"icons\":"
            + " [{\"src\": \"https://example.com/g.png\"}], \"arguments\":"
            + " [{\"name\": \"who\", \"description\": \"whom to greet\", \"required\": true}]}]}";
    private static final String PROMPTS_CHANGED = "{\"prompts\": [{\"name\": \"greet\", \"arguments\":"
            + " [{\"name\": \"who\", \"required\": true}, {\"name\": \"tone\"}]}]}";
    private static final String RESOURCES = "{\"resources\": [{\"uri\": \"a://1\", \"name\": \"one\", \"mimeType\": \"text/plain\","
            + " \"icons\": [{\"src\": \"https://example.com/1.svg\", \"mimeType\": \"image/svg+xml\"}]},"
            + " {\"uri\": \"a://2\"}, {\"uri\": \"a://3\", \"name\": \"three\"}]}";
    private static final String TEMPLATES = "{\"resourceTemplates\": [{\"uriTemplate\": \"a://t/{id}\", \"name\": \"family\"}]}";

    private final FakeFramework framework = new FakeFramework();
    private FakeHttpUpstream server;
    private Upstream upstream;
    private volatile String prompts = PROMPTS;
    /** Whether the server answers resources/templates/list with "method not found", as many do. */
    private volatile boolean noTemplates;
    /** Completed by the test to send the stateless server's prompt list change on its listen stream. */
    private final CompletableFuture<String> announce = new CompletableFuture<>();
    /** Set once the server has a read that waits until its client cancels it. */
    private final AtomicBoolean holding = new AtomicBoolean();
    /**
     * Whether the server offers resource updates: it announces {@code resources.subscribe}, answers a subscription
     * with an update of that URI and of one it was not asked for, and a stateless server's listen stream sends an
     * update of each URI it names.
     */
    private volatile boolean updates;
    /** Whether a stateless server refuses a listen stream that names resources (too many for it, say). */
    private volatile boolean refuseUris;
    /** The tools the server lists. */
    private volatile String tools = "[{\"name\": \"echo\", \"inputSchema\": {\"type\": \"object\"}}]";

    @AfterEach
    void stop() {
        announce.complete(null);
        if (server != null) {
            server.close();
        }
    }

    @Test
    void promptsResourcesAndTemplatesAreRegisteredAsListedAndEachRequestGoesToTheServer() throws Exception {
        start(false, Map.of());
        await(() -> framework.services(ResourceTemplate.class).containsKey("a://t/{id}"), "the template registered");
        Prompt greet = framework.services(Prompt.class).get("up.greet");
        assertEquals(List.of(new PromptArgument("who", "whom to greet", true)), greet.arguments());
        assertEquals("Greeting", framework.properties(Prompt.class, "up.greet").get("mcp.prompt.title"));
        assertEquals(List.of("https://example.com/g.png"),
                List.of((String[]) framework.properties(Prompt.class, "up.greet").get("mcp.prompt.icons")));
        assertEquals(FakeConnection.JSON.readTree("{\"src\": \"https://example.com/1.svg\", \"mimeType\": \"image/svg+xml\"}"),
                FakeConnection.JSON.readTree(((String[]) framework.properties(Resource.class, "a://1").get("mcp.resource.icons"))[0]),
                "the server's icons, as the catalog reads them");
        assertEquals(List.of("a://1", "a://2", "a://3"), framework.services(Resource.class).keySet().stream().sorted().toList());
        assertEquals("a://2", framework.properties(Resource.class, "a://2").get("mcp.resource.name"),
                "a resource listed without a name is named by its URI");
        assertEquals("text/plain", framework.properties(Resource.class, "a://1").get("mcp.resource.mimeType"));
        assertEquals("up", framework.properties(ResourceTemplate.class, "a://t/{id}").get(ToolProperties.SERVER));

        PromptResult rendered = greet.get(promptRequest(Map.of("who", "Ada")));
        assertEquals("hello Ada", ((TextContent) rendered.messages().get(0).content()).text());
        assertEquals("assistant", rendered.messages().get(0).role());
        ProtocolError refused = assertThrows(ProtocolError.class, () -> greet.get(promptRequest(Map.of("who", "nobody"))));
        assertEquals(-32602, refused.code(), "the server's error, with its code");
        assertEquals("no such person", refused.getMessage());

        List<ResourceContents> one = framework.services(Resource.class).get("a://1").read(resourceRequest("a://1", false));
        assertEquals(List.of(new ResourceContents.Text("a://1", "text/plain", "contents of a://1", Map.of())), one);
        ResourceTemplate family = framework.services(ResourceTemplate.class).get("a://t/{id}");
        assertEquals(List.of(), family.read(resourceRequest("a://t/missing", false)),
                "a resource the server does not have is none here either: Quiver answers its own not-found");
        assertEquals("contents of a://t/7", ((ResourceContents.Text) family.read(resourceRequest("a://t/7", false)).get(0)).text());

        // completions of a prompt's and a template's arguments, asked of the server under its own names
        Completer names = framework.services(Completer.class).get("up.greet");
        assertEquals("ref/prompt", framework.properties(Completer.class, "up.greet").get("mcp.completion.refType"));
        Completion completion = names.complete(completionRequest("who", "A", Map.of("tone", "warm")));
        assertEquals(new Completion(List.of("Ada", "Alan"), 7, true), completion);
        JsonNode asked = server.received.stream().filter(m -> "completion/complete".equals(m.path("method").asString("")))
                .reduce((a, b) -> b).orElseThrow().path("params");
        assertEquals(FakeConnection.JSON.readTree("{\"ref\": {\"type\": \"ref/prompt\", \"name\": \"greet\"}, \"argument\":"
                + " {\"name\": \"who\", \"value\": \"A\"}, \"context\": {\"arguments\": {\"tone\": \"warm\"}}}"), asked);
        Completion ids = framework.services(Completer.class).get("a://t/{id}").complete(completionRequest("id", "", Map.of()));
        assertEquals(List.of("a://t/{id}:id"), ids.values(), "the template's completion, asked by its URI template");

        // a read whose caller cancels it is cancelled at the server too
        ProtocolError cancelled = assertThrows(ProtocolError.class, () -> family.read(resourceRequest("a://t/slow", true)));
        assertEquals("The request was cancelled.", cancelled.getMessage());
        await(() -> server.count("notifications/cancelled") == 1, "the server told of the cancellation");
    }

    @Test
    void theServersErrorsKeepTheirDataAndOnesAboutTheExchangeNameTheServer() throws Exception {
        start(false, Map.of());
        await(() -> framework.services(Prompt.class).containsKey("up.greet"), "the prompt registered");
        Prompt greet = framework.services(Prompt.class).get("up.greet");
        ProtocolError refused = assertThrows(ProtocolError.class, () -> greet.get(promptRequest(Map.of("who", "data"))));
        assertEquals(-32602, refused.code());
        assertEquals("who is wrong", refused.getMessage());
        assertEquals(FakeConnection.JSON.readTree("{\"argument\": \"who\", \"allowed\": [\"Ada\"]}"), refused.data(),
                "the error's data passed on");
        ProtocolError exchange = assertThrows(ProtocolError.class, () -> greet.get(promptRequest(Map.of("who", "no-method"))));
        assertEquals(-32603, exchange.code(), "not -32601: the caller's prompts/get exists, the server's did not take it");
        assertEquals("The upstream server up could not take prompts/get: Method not found (-32601)", exchange.getMessage());
    }

    @Test
    void theSettingsLeavePromptsAndResourcesOutOrBoundTheirNumber() throws Exception {
        start(false, Map.of("prompts", false, "resources", false));
        awaitReady();
        assertTrue(framework.services(Tool.class).containsKey("up.echo"));
        assertEquals(Map.of(), framework.services(Prompt.class));
        assertEquals(Map.of(), framework.services(Resource.class));
        assertEquals(Map.of(), framework.services(Completer.class));
        assertEquals(0, server.count("prompts/list") + server.count("resources/list") + server.count("resources/templates/list"),
                "nothing of them was even asked for");
        server.close();

        tools = "[{\"name\": \"echo\", \"inputSchema\": {\"type\": \"object\"}}, {\"name\": \"second\", \"inputSchema\":"
                + " {\"type\": \"object\"}}]";
        start(false, Map.of("maxResources", 2, "maxTools", 1, "maxPrompts", 0));
        awaitReady();
        assertEquals(List.of("a://1", "a://2"), framework.services(Resource.class).keySet().stream().sorted().toList());
        assertEquals(Map.of(), framework.services(ResourceTemplate.class), "the template is beyond maxResources");
        assertEquals(List.of("up.echo"), List.copyOf(framework.services(Tool.class).keySet()), "the first tool alone");
        assertEquals(Map.of(), framework.services(Prompt.class), "no prompt at all");
    }

    @Test
    void aServerWithoutTemplatesStillHasItsResourcesListed() throws Exception {
        noTemplates = true;
        start(false, Map.of());
        await(() -> framework.services(Resource.class).size() == 3, "the resources registered");
        assertEquals(1, server.count("resources/templates/list"));
        assertEquals(Map.of(), framework.services(ResourceTemplate.class));
    }

    @Test
    void aStatelessServersListChangeRelistsThatListAlone() throws Exception {
        start(true, Map.of());
        await(() -> server.count("subscriptions/listen") == 1 && framework.services(Prompt.class).containsKey("up.greet"),
                "listening, the prompt registered");
        JsonNode listen = server.received.stream().filter(m -> "subscriptions/listen".equals(m.path("method").asString("")))
                .findFirst().orElseThrow();
        assertEquals(FakeConnection.JSON.readTree("{\"promptsListChanged\": true, \"resourcesListChanged\": true}"),
                listen.path("params").path("notifications"), "the lists whose changes the server announces; not its tools'");
        Prompt before = framework.services(Prompt.class).get("up.greet");
        awaitReady();
        long resourceLists = server.count("resources/list");
        long toolLists = server.count("tools/list");

        prompts = PROMPTS_CHANGED;
        announce.complete("notifications/prompts/list_changed");
        // registered anew: the old one unregistered, then the new one registered (not null in between)
        await(() -> {
            Prompt now = framework.services(Prompt.class).get("up.greet");
            return now != null && now != before;
        }, "the prompt registered anew");
        Prompt after = framework.services(Prompt.class).get("up.greet");
        assertEquals(List.of(new PromptArgument("who", null, true), new PromptArgument("tone", null, false)), after.arguments());
        assertEquals(null, framework.properties(Prompt.class, "up.greet").get("mcp.prompt.title"), "the title it no longer has");
        Thread.sleep(300); // what a wrong refresh would list next has come by now
        assertEquals(resourceLists, server.count("resources/list"), "the resources were not listed again");
        assertEquals(toolLists, server.count("tools/list"), "nor the tools");

        // what a stateless server answers that a session one would not
        ResourceTemplate family = framework.services(ResourceTemplate.class).get("a://t/{id}");
        assertEquals(List.of(), family.read(resourceRequest("a://t/missing", false)),
                "invalid params, the stateless revision's word for a missing resource, is a missing resource here too");
        ProtocolError asks = assertThrows(ProtocolError.class, () -> after.get(promptRequest(Map.of("who", "ask"))));
        assertTrue(asks.getMessage().contains("asked for input to answer prompts/get"), asks.getMessage());
    }

    @Test
    void turningPromptsOnWhileAStatelessServerRunsListsThemAndListensForTheirChanges() throws Exception {
        start(true, Map.of("prompts", false));
        awaitReady();
        await(() -> server.count("subscriptions/listen") == 1, "listening");
        assertEquals(FakeConnection.JSON.readTree("{\"resourcesListChanged\": true}"), listens().get(0));
        assertEquals(Map.of(), framework.services(Prompt.class));

        upstream.reconfigure(TypedConfig.of(UpstreamConfig.class, Map.of("startupTimeoutMs", 5000L, "prompts", true)));
        await(() -> framework.services(Prompt.class).containsKey("up.greet"), "the prompt registered");
        await(() -> server.count("subscriptions/listen") == 2, "listening again");
        assertEquals(FakeConnection.JSON.readTree("{\"promptsListChanged\": true, \"resourcesListChanged\": true}"),
                listens().get(1), "the stream now asks for the prompts' changes too");

        upstream.reconfigure(TypedConfig.of(UpstreamConfig.class, Map.of("startupTimeoutMs", 5000L, "prompts", false)));
        await(() -> framework.services(Prompt.class).isEmpty(), "the prompt gone");
        await(() -> server.count("subscriptions/listen") == 3, "listening once more");
        assertEquals(FakeConnection.JSON.readTree("{\"resourcesListChanged\": true}"), listens().get(2));
    }

    @Test
    void aSessionServerIsAskedForTheUpdatesOfWhatQuiversClientsSubscribeTo() throws Exception {
        updates = true;
        start(false, Map.of());
        awaitReady();
        Subscribable one = (Subscribable) framework.services(Resource.class).get("a://1");
        Subscribable family = (Subscribable) framework.services(ResourceTemplate.class).get("a://t/{id}");

        one.subscribed("a://1");
        await(() -> framework.updates.contains("a://1"), "the update passed on");
        assertEquals(List.of("a://1"), uris("resources/subscribe"));
        family.subscribed("a://t/5");
        await(() -> uris("resources/subscribe").size() == 2, "a URI of the template subscribed to");
        assertEquals(List.of("a://1", "a://t/5"), uris("resources/subscribe"));
        await(() -> framework.updates.size() == 2, "its update passed on");
        Thread.sleep(200); // a wrongly passed update would be here by now
        assertEquals(List.of("a://1", "a://t/5"), framework.updates,
                "the updates of the URIs subscribed to; not b://elsewhere, which the server announced unasked");

        one.unsubscribed("a://1");
        await(() -> uris("resources/unsubscribe").size() == 1, "unsubscribed");
        assertEquals(List.of("a://1"), uris("resources/unsubscribe"));
        assertEquals(2, server.count("resources/subscribe"), "and nothing subscribed again");
    }

    @Test
    void aServerWithoutResourceUpdatesIsNotAskedForThem() throws Exception {
        start(false, Map.of());
        awaitReady();
        ((Subscribable) framework.services(Resource.class).get("a://1")).subscribed("a://1");
        Thread.sleep(300); // a subscription would have been sent by now
        assertEquals(0, server.count("resources/subscribe"), "it does not declare resources.subscribe");
    }

    @Test
    void aStatelessServerIsAskedForTheUpdatesOnItsListenStream() throws Exception {
        updates = true;
        start(true, Map.of());
        awaitReady();
        await(() -> server.count("subscriptions/listen") == 1, "listening");
        assertEquals(FakeConnection.JSON.readTree("{\"promptsListChanged\": true, \"resourcesListChanged\": true}"),
                listens().get(0));

        Subscribable one = (Subscribable) framework.services(Resource.class).get("a://1");
        one.subscribed("a://1");
        await(() -> server.count("subscriptions/listen") == 2, "listening again");
        assertEquals(FakeConnection.JSON.readTree("{\"promptsListChanged\": true, \"resourcesListChanged\": true,"
                + " \"resourceSubscriptions\": [\"a://1\"]}"), listens().get(1), "the stream names the URI subscribed to");
        await(() -> framework.updates.contains("a://1"), "the update heard on the stream passed on");
        assertEquals(0, server.count("resources/subscribe"), "a stateless revision has no resources/subscribe");

        one.unsubscribed("a://1");
        await(() -> server.count("subscriptions/listen") == 3, "listening once more");
        assertEquals(FakeConnection.JSON.readTree("{\"promptsListChanged\": true, \"resourcesListChanged\": true}"),
                listens().get(2), "without the URI");
    }

    @Test
    void aStartThatFailsOnceItsToolsAreRegisteringTakesBackWhatItRegistered() throws Exception {
        tools = "[{\"name\": \"echo\", \"inputSchema\": {\"type\": \"object\"}}, {\"name\": \"second\", \"inputSchema\":"
                + " {\"type\": \"object\"}}]";
        framework.refused = "up.second"; // the framework refuses the second tool, as it does while the bundle stops
        start(false, Map.of("restart", "never"));
        await(() -> upstream.status().state() == Upstream.State.FAILED, "the start failed");
        assertTrue(framework.journal.contains("register Tool up.echo"), framework.journal.toString());
        assertTrue(framework.journal.contains("unregister Tool up.echo"), "the first tool taken back: " + framework.journal);
        assertEquals(Map.of(), framework.services(Tool.class));
    }

    @Test
    void aStatelessServerThatRefusesTheResourcesIsStillAskedForItsListChanges() throws Exception {
        updates = true;
        refuseUris = true;
        start(true, Map.of());
        awaitReady();
        await(() -> server.count("subscriptions/listen") == 1, "listening");
        ((Subscribable) framework.services(Resource.class).get("a://1")).subscribed("a://1");
        await(() -> server.count("subscriptions/listen") == 3, "refused with the URI, then listening without it");
        assertTrue(listens().get(1).has("resourceSubscriptions"), listens().toString());
        assertEquals(FakeConnection.JSON.readTree("{\"promptsListChanged\": true, \"resourcesListChanged\": true}"),
                listens().get(2), "the list changes are still asked for");
        ((Subscribable) framework.services(Resource.class).get("a://1")).subscribed("a://2");
        Thread.sleep(300); // another stream would be open by now
        assertEquals(3, server.count("subscriptions/listen"), "the server is not asked for resources again");
    }

    /** The URIs of the requests of a method the server received, in order. */
    private List<String> uris(String method) {
        return server.received.stream().filter(m -> method.equals(m.path("method").asString("")))
                .map(m -> m.path("params").path("uri").asString("")).toList();
    }

    /** The filters of the subscriptions/listen requests the server received, in order. */
    private List<JsonNode> listens() {
        return server.received.stream().filter(m -> "subscriptions/listen".equals(m.path("method").asString("")))
                .map(m -> m.path("params").path("notifications")).toList();
    }

    // --------------------------------------------------------------------------------------------

    private void start(boolean stateless, Map<String, Object> settings) throws IOException {
        server = FakeHttpUpstream.start((exchange, message) -> serve(exchange, message, stateless));
        upstream = server.upstream(framework, settings);
    }

    /** Until the server is ready: its tools, prompts and resources all listed (or left out). */
    private void awaitReady() throws InterruptedException {
        await(() -> upstream.status().state() == Upstream.State.READY, "the server ready");
    }

    private void serve(HttpExchange exchange, JsonNode message, boolean stateless) throws Exception {
        String complete = stateless ? "\"resultType\": \"complete\", " : "";
        JsonNode params = message.path("params");
        switch (message.path("method").asString("")) {
            case "server/discover" -> {
                if (stateless) {
                    result(exchange, message, "{" + complete + "\"supportedVersions\": [\"2026-07-28\"], \"capabilities\":"
                            + " {\"tools\": {}, \"prompts\": {\"listChanged\": true}, \"resources\": {\"listChanged\": true"
                            + (updates ? ", \"subscribe\": true" : "") + "}},"
                            + " \"serverInfo\": {\"name\": \"up\", \"version\": \"1\"}}");
                } else {
                    reply(exchange, 400, "{\"jsonrpc\": \"2.0\", \"id\": null, \"error\": {\"code\": -32000, \"message\": \"no session\"}}");
                }
            }
            case "initialize" -> result(exchange, message, "{\"protocolVersion\": \"2025-11-25\", \"capabilities\": {\"tools\": {},"
                    + " \"prompts\": {}, \"resources\": {" + (updates ? "\"subscribe\": true" : "") + "}, \"completions\": {}},"
                    + " \"serverInfo\": {\"name\": \"up\", \"version\": \"1\"}}");
            case "resources/subscribe" -> {
                // the answer's stream carries an update of the URI, and one of a URI nobody subscribed to
                exchange.getResponseHeaders().add("Content-Type", "text/event-stream");
                exchange.sendResponseHeaders(200, 0);
                write(exchange.getResponseBody(), "{\"jsonrpc\": \"2.0\", \"method\": \"notifications/resources/updated\","
                        + " \"params\": {\"uri\": \"b://elsewhere\"}}");
                write(exchange.getResponseBody(), "{\"jsonrpc\": \"2.0\", \"method\": \"notifications/resources/updated\","
                        + " \"params\": {\"uri\": \"" + params.path("uri").asString() + "\"}}");
                write(exchange.getResponseBody(), "{\"jsonrpc\": \"2.0\", \"id\": " + message.get("id") + ", \"result\": {}}");
            }
            case "completion/complete" -> {
                JsonNode ref = params.path("ref");
                result(exchange, message, ref.path("type").asString().equals("ref/prompt")
                        ? "{\"completion\": {\"values\": [\"Ada\", \"Alan\"], \"total\": 7, \"hasMore\": true}}"
                        : "{\"completion\": {\"values\": [\"" + ref.path("uri").asString() + ":"
                                + params.path("argument").path("name").asString() + "\"]}}");
            }
            case "tools/list" -> result(exchange, message, "{" + complete + "\"tools\": " + tools + "}");
            case "prompts/list" -> result(exchange, message, prompts.replaceFirst("\\{", "{" + complete));
            case "resources/list" -> result(exchange, message, RESOURCES.replaceFirst("\\{", "{" + complete));
            case "resources/templates/list" -> {
                if (noTemplates) {
                    error(exchange, message, -32601, "Method not found");
                } else {
                    result(exchange, message, TEMPLATES.replaceFirst("\\{", "{" + complete));
                }
            }
            case "prompts/get" -> {
                String who = params.path("arguments").path("who").asString("");
                if (who.equals("nobody")) {
                    error(exchange, message, -32602, "no such person");
                } else if (who.equals("data")) {
                    reply(exchange, 200, "{\"jsonrpc\": \"2.0\", \"id\": " + message.get("id") + ", \"error\": {\"code\": -32602,"
                            + " \"message\": \"who is wrong\", \"data\": {\"argument\": \"who\", \"allowed\": [\"Ada\"]}}}");
                } else if (who.equals("no-method")) {
                    error(exchange, message, -32601, "Method not found");
                } else if (who.equals("ask") && stateless) {
                    result(exchange, message, "{\"resultType\": \"input_required\", \"requestState\": \"s\","
                            + " \"inputRequests\": {\"tone\": {\"method\": \"elicitation/create\", \"params\":"
                            + " {\"message\": \"Which tone?\", \"requestedSchema\": {\"type\": \"object\"}}}}}");
                } else {
                    result(exchange, message, "{" + complete + "\"messages\": [{\"role\": \"assistant\", \"content\":"
                            + " {\"type\": \"text\", \"text\": \"hello " + who + "\"}}]}");
                }
            }
            case "resources/read" -> {
                String uri = params.path("uri").asString("");
                if (uri.endsWith("/missing")) {
                    error(exchange, message, stateless ? ProxyResource.INVALID_PARAMS : ProxyResource.RESOURCE_NOT_FOUND,
                            "Resource not found");
                } else if (uri.endsWith("/slow")) {
                    holding.set(true);
                    Thread.sleep(3_000); // until the client has given up; its answer then goes nowhere
                    error(exchange, message, -32603, "too late");
                } else {
                    result(exchange, message, "{" + complete + "\"contents\": [{\"uri\": \"" + uri + "\", \"mimeType\":"
                            + " \"text/plain\", \"text\": \"contents of " + uri + "\"}]}");
                }
            }
            case "subscriptions/listen" -> {
                if (refuseUris && params.path("notifications").has("resourceSubscriptions")) {
                    error(exchange, message, -32602, "too many resource subscriptions");
                    return;
                }
                exchange.getResponseHeaders().add("Content-Type", "text/event-stream");
                exchange.sendResponseHeaders(200, 0);
                if (updates) {
                    for (JsonNode uri : params.path("notifications").path("resourceSubscriptions")) {
                        write(exchange.getResponseBody(), "{\"jsonrpc\": \"2.0\", \"method\":"
                                + " \"notifications/resources/updated\", \"params\": {\"uri\": \"" + uri.asString() + "\"}}");
                    }
                    Thread.sleep(5_000); // open until cancelled (or the test ends)
                    return;
                }
                String method = announce.get(10, TimeUnit.SECONDS);
                if (method != null) {
                    write(exchange.getResponseBody(), "{\"jsonrpc\": \"2.0\", \"method\": \"" + method + "\"}");
                    announce.get(10, TimeUnit.SECONDS);
                    Thread.sleep(2_000); // the stream stays open while the test looks
                }
            }
            default -> exchange.sendResponseHeaders(202, -1);
        }
    }

    private static void await(BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("not within 10 s: " + what);
            }
            Thread.sleep(20);
        }
    }

    private PromptRequest promptRequest(Map<String, String> arguments) {
        RequestContext context = context(() -> false);
        return new PromptRequest() {
            @Override
            public String name() {
                return "up.greet";
            }

            @Override
            public Map<String, String> arguments() {
                return arguments;
            }

            @Override
            public RequestContext context() {
                return context;
            }
        };
    }

    /** A read; {@code cancelled}: its caller cancels it once the server holds it. */
    private ResourceRequest resourceRequest(String uri, boolean cancelled) {
        RequestContext context = context(() -> cancelled && holding.get());
        return new ResourceRequest() {
            @Override
            public String uri() {
                return uri;
            }

            @Override
            public Map<String, String> variables() {
                return Map.of();
            }

            @Override
            public RequestContext context() {
                return context;
            }
        };
    }

    private static CompletionRequest completionRequest(String argument, String value, Map<String, String> resolved) {
        RequestContext context = context(() -> false);
        return new CompletionRequest() {
            @Override
            public String argument() {
                return argument;
            }

            @Override
            public String value() {
                return value;
            }

            @Override
            public Map<String, String> resolvedArguments() {
                return resolved;
            }

            @Override
            public RequestContext context() {
                return context;
            }
        };
    }

    private static RequestContext context(BooleanSupplier cancelled) {
        return new FakeContext("inv-1", new ClientInfo("test", "1", Map.of()), "2025-11-25", cancelled);
    }
}
