package io.quiver.core.internal.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quiver.api.CallerIdentity;
import io.quiver.api.call.Decision;
import io.quiver.api.content.ResourceContents;
import io.quiver.api.resource.Resource;
import io.quiver.api.resource.ResourceRequest;
import io.quiver.api.resource.ResourceTemplate;
import io.quiver.api.resource.Subscribable;
import io.quiver.api.transport.Inbound;
import io.quiver.api.transport.MessageSink;
import io.quiver.api.transport.Receipt;
import io.quiver.core.internal.catalog.Catalog;
import io.quiver.core.internal.json.Json;
import io.quiver.core.internal.pipeline.Extensions;
import io.quiver.core.internal.pipeline.ToolLimitsRegistry;
import io.quiver.core.internal.settings.EngineSettings;
import io.quiver.core.internal.wiring.EngineAssembly;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Set;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * What a resource service learns of its subscribers ({@link Subscribable}): the first subscriber of a URI and the
 * last, through sessions and listen streams, as services come and go; and the bound on subscriptions.
 */
class ResourceSubscriptionsTest {

    private static final String INIT = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":"
            + "{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}";
    private static final String META = "\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
            + "\"io.modelcontextprotocol/clientCapabilities\":{}}";

    private final Extensions extensions = new Extensions();
    private final Catalog catalog = new Catalog();
    /** What the services heard, in order: {@code NAME subscribed URI}, {@code NAME unsubscribed URI}. */
    private final List<String> heard = new CopyOnWriteArrayList<>();
    private EngineAssembly assembly;
    private Engine engine;
    private long serviceId = 3000;

    @BeforeEach
    void assemble() {
        assembly = EngineAssembly.of(catalog, EngineSettings.of(Map.of("maxResourceSubscriptions", 3)),
                new ToolLimitsRegistry(), extensions);
        engine = assembly.engine();
    }

    @AfterEach
    void close() {
        assembly.close();
    }

    @Test
    void theServiceThatReadsAUriHearsOfItsFirstSubscriberAndOfItsLast() throws Exception {
        resource("a", "test://a", 0);
        template("t", "test://t/{id}");
        String one = initialize();
        String two = initialize();

        assertEquals(List.of(), heard);
        ok(request(one, "resources/subscribe", "{\"uri\":\"test://a\"}"));
        ok(request(two, "resources/subscribe", "{\"uri\":\"test://a\"}"));
        ok(request(one, "resources/subscribe", "{\"uri\":\"test://a\"}"));
        assertEquals(List.of("a subscribed test://a"), heard, "once, for the first subscriber");

        ok(request(one, "resources/unsubscribe", "{\"uri\":\"test://a\"}"));
        ok(request(one, "resources/unsubscribe", "{\"uri\":\"test://never\"}"));
        assertEquals(List.of("a subscribed test://a"), heard, "another subscriber is left");
        engine.sessions().get(two).close();
        assertEquals(List.of("a subscribed test://a", "a unsubscribed test://a"), heard, "the last one's session ended");

        heard.clear();
        ok(request(one, "resources/subscribe", "{\"uri\":\"test://t/7\"}"));
        ok(request(one, "resources/subscribe", "{\"uri\":\"test://nothing/reads/it\"}"));
        assertEquals(List.of("t subscribed test://t/7"), heard, "a URI of the template goes to the template");
        engine.sessions().get(one).close();
        assertEquals(List.of("t subscribed test://t/7", "t unsubscribed test://t/7"), heard);
    }

    @Test
    void theSubscriptionsFollowTheServiceThatReadsTheUri() throws Exception {
        template("t", "test://{name}");
        String session = initialize();
        ok(request(session, "resources/subscribe", "{\"uri\":\"test://a\"}"));
        assertEquals(List.of("t subscribed test://a"), heard);

        // the counts move on the engine's timer, after the catalog changed
        long first = resource("a", "test://a", 0);
        awaitHeard(List.of("t subscribed test://a", "a subscribed test://a", "t unsubscribed test://a"),
                "a fixed resource is read ahead of any template");
        heard.clear();
        long ahead = resource("b", "test://a", 10);
        awaitHeard(List.of("b subscribed test://a", "a unsubscribed test://a"), "the one ranked ahead reads it now");
        heard.clear();
        unregister(ahead);
        awaitHeard(List.of("a subscribed test://a", "b unsubscribed test://a"), "back to the first");
        heard.clear();
        unregister(first);
        awaitHeard(List.of("t subscribed test://a", "a unsubscribed test://a"), "back to the template");

        // the engine stops: each service hears its subscribers went
        heard.clear();
        assembly.close();
        assertEquals(List.of("t unsubscribed test://a"), heard);
    }

    @Test
    void anUpdateFromAServiceReachesThoseSubscribedThroughIt() throws Exception {
        // one URI served for two tenants by two services (two instances of one upstream server, say)
        Heard acmes = new Heard("acme's");
        Heard globexs = new Heard("globex's");
        catalog.bindResource(acmes, new HashMap<>(Map.of("mcp.resource.uri", "test://readme", "mcp.resource.name", "readme",
                "service.id", ++serviceId, Catalog.TENANT, "acme")));
        catalog.bindResource(globexs, new HashMap<>(Map.of("mcp.resource.uri", "test://readme", "mcp.resource.name",
                "readme", "service.id", ++serviceId, Catalog.TENANT, "globex")));
        Map<String, Recorder> streams = new LinkedHashMap<>();
        for (String tenant : List.of("acme", "globex")) {
            CallerIdentity caller = new CallerIdentity("someone", tenant, Set.of(), true);
            String session = initialize(caller);
            ok(request(session, caller, "resources/subscribe", "{\"uri\":\"test://readme\"}"));
            Recorder stream = new Recorder();
            engine.session(session).orElseThrow().attach(stream);
            streams.put(tenant, stream);
        }
        assertEquals(List.of("acme's subscribed test://readme", "globex's subscribed test://readme"), heard);
        engine.resourceUpdated("test://readme", acmes);
        assertEquals(1, streams.get("acme").interim.size(), "acme's subscriber hears of acme's copy");
        assertEquals(0, streams.get("globex").interim.size(), "globex's does not: its copy did not change");
    }

    /** Waits until the services heard exactly this (the counts move on the engine's timer). */
    private void awaitHeard(List<String> expected, String what) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (!heard.equals(expected) && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        assertEquals(expected, heard, what);
    }

    @Test
    void aResourceThePolicyHidesHearsOfNoSubscriber() throws Exception {
        extensions.addPolicy((caller, target) -> target.name().equals("test://secret") || target.name().equals("test://t/{id}")
                ? Decision.deny("hidden") : Decision.allow(), 0, 1);
        resource("s", "test://secret", 0);
        template("t", "test://t/{id}");
        String session = initialize();
        ok(request(session, "resources/subscribe", "{\"uri\":\"test://secret\"}"));
        ok(request(session, "resources/subscribe", "{\"uri\":\"test://t/1\"}"));
        assertEquals(List.of(), heard);
    }

    @Test
    void aListenStreamsResourcesAreSubscribedUntilItEnds() throws Exception {
        resource("a", "test://a", 0);
        Receipt.Pending pending = assertInstanceOf(Receipt.Pending.class, engine.receive(bytes(listen(9,
                "[\"test://a\",\"test://b\"]")), new Inbound(null, null, CallerIdentity.ANONYMOUS)));
        Recorder stream = new Recorder();
        pending.exchange().start(stream);
        stream.first.get(5, TimeUnit.SECONDS);
        assertEquals(List.of("a subscribed test://a"), heard);

        engine.resourceUpdated("test://a");
        JsonNode update = Json.MAPPER.readTree(stream.interim.get(1));
        assertEquals("notifications/resources/updated", update.path("method").asString());
        assertEquals("test://a", update.path("params").path("uri").asString());

        pending.exchange().abandon();
        assertEquals(List.of("a subscribed test://a", "a unsubscribed test://a"), heard, "the stream ended");
    }

    /**
     * A stream whose client left ends its subscriptions as a notification is written to it, holding the stream's
     * monitor, while a service told of its first subscriber reports an update to that stream at once. The services
     * were told under the subscriptions' monitor, which the ending stream waited for: both threads hung for good.
     */
    @Test
    void aServiceThatReportsAsItIsSubscribedAndAStreamThatEndsAsItIsWrittenToDoNotWaitForEachOther() throws Exception {
        resource("a", "test://a", 0);
        CountDownLatch writing = new CountDownLatch(1);
        CountDownLatch told = new CountDownLatch(1);
        catalog.bindResource(new Heard("b") {
            @Override
            public void subscribed(String uri) {
                super.subscribed(uri);
                await(writing);
                told.countDown();
                engine.resourceUpdated("test://a"); // a service that reports its state to its first subscriber
            }
        }, new HashMap<>(Map.of("mcp.resource.uri", "test://b", "mcp.resource.name", "b", "service.id", ++serviceId)));
        Receipt.Pending gone = assertInstanceOf(Receipt.Pending.class, engine.receive(bytes(listen(9, "[\"test://a\"]")),
                new Inbound(null, null, CallerIdentity.ANONYMOUS)));
        AtomicBoolean left = new AtomicBoolean();
        Recorder leaving = new Recorder() {
            @Override
            public void send(byte[] message) {
                super.send(message);
                if (interim.size() == 2 && left.compareAndSet(false, true)) { // the first update: its client left
                    writing.countDown();
                    await(told);
                    gone.exchange().abandon(); // as the HTTP transport does for a stream it could not write to
                }
            }
        };
        gone.exchange().start(leaving);
        leaving.first.get(5, TimeUnit.SECONDS);

        Thread updating = new Thread(() -> engine.resourceUpdated("test://a"), "updating");
        Thread subscribing = new Thread(() -> {
            Receipt.Pending other = (Receipt.Pending) engine.receive(bytes(listen(10, "[\"test://b\"]")),
                    new Inbound(null, null, CallerIdentity.ANONYMOUS));
            other.exchange().start(new Recorder());
        }, "subscribing");
        updating.setDaemon(true);
        subscribing.setDaemon(true);
        updating.start();
        subscribing.start();
        updating.join(10_000);
        subscribing.join(10_000);
        assertFalse(updating.isAlive() || subscribing.isAlive(), () -> "the two threads hang: "
                + Arrays.toString(ManagementFactory.getThreadMXBean().dumpAllThreads(true, true)));
        assertTrue(heard.containsAll(List.of("a subscribed test://a", "b subscribed test://b", "a unsubscribed test://a")),
                heard::toString);
        assertTrue(leaving.done.isDone(), "the stream that lost its client ended");
    }

    private static void await(CountDownLatch latch) {
        try {
            if (!latch.await(5, TimeUnit.SECONDS)) {
                throw new IllegalStateException("the other thread never came");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    @Test
    void anUpdateReachesOnlySubscribersWhoCouldReadTheResource() throws Exception {
        catalog.bindResource(new Heard("plan"), new HashMap<>(Map.of("mcp.resource.uri", "test://acme/plan",
                "mcp.resource.name", "plan", "service.id", ++serviceId, Catalog.TENANT, "acme")));
        extensions.addPolicy((caller, target) -> caller.subject().equals("mallory") ? Decision.deny("no")
                : Decision.allow(), 0, 1);
        CallerIdentity acme = new CallerIdentity("alice", "acme", Set.of(), true);
        CallerIdentity globex = new CallerIdentity("bob", "globex", Set.of(), true);
        CallerIdentity hidden = new CallerIdentity("mallory", "acme", Set.of(), true);
        Map<CallerIdentity, Recorder> streams = new LinkedHashMap<>();
        for (CallerIdentity caller : List.of(acme, globex, hidden)) {
            String session = initialize(caller);
            ok(request(session, caller, "resources/subscribe", "{\"uri\":\"test://acme/plan\"}"));
            Recorder stream = new Recorder();
            engine.session(session).orElseThrow().attach(stream);
            streams.put(caller, stream);
        }
        Map<CallerIdentity, Recorder> listening = new LinkedHashMap<>();
        for (CallerIdentity caller : List.of(acme, globex)) {
            Recorder stream = new Recorder();
            assertInstanceOf(Receipt.Pending.class, engine.receive(bytes(listen(9, "[\"test://acme/plan\"]")),
                    new Inbound(null, null, caller))).exchange().start(stream);
            stream.first.get(5, TimeUnit.SECONDS);
            listening.put(caller, stream);
        }

        engine.resourceUpdated("test://acme/plan");
        // (a stream may also carry the list change of the resource's registration: only updates are counted)
        assertEquals(1, updates(streams.get(acme)), "acme's session hears of it");
        assertEquals(0, updates(streams.get(globex)), "another tenant's session does not, though it subscribed");
        assertEquals(0, updates(streams.get(hidden)), "nor a caller the policy hides the resource from");
        assertEquals(1, updates(listening.get(acme)), "acme's listen stream hears of it");
        assertEquals(0, updates(listening.get(globex)), "globex's does not");
        assertEquals(List.of("plan subscribed test://acme/plan"), heard, "counted for acme's subscribers only");
    }

    @Test
    void subscriptionsAreBoundedPerSessionAndPerListenStream() throws Exception {
        String session = initialize();
        for (String uri : List.of("test://1", "test://2", "test://3")) {
            ok(request(session, "resources/subscribe", "{\"uri\":\"" + uri + "\"}"));
        }
        ok(request(session, "resources/subscribe", "{\"uri\":\"test://3\"}")); // one it has: no new subscription
        JsonNode refused = request(session, "resources/subscribe", "{\"uri\":\"test://4\"}");
        assertEquals(-32602, refused.path("error").path("code").asInt(), refused.toString());
        assertTrue(refused.path("error").path("message").asString().contains("maxResourceSubscriptions"), refused.toString());
        ok(request(session, "resources/unsubscribe", "{\"uri\":\"test://1\"}"));
        ok(request(session, "resources/subscribe", "{\"uri\":\"test://4\"}"));

        Receipt receipt = engine.receive(bytes(listen(10, "[\"test://1\",\"test://2\",\"test://3\",\"test://4\"]")),
                new Inbound(null, null, CallerIdentity.ANONYMOUS));
        Recorder stream = new Recorder();
        assertInstanceOf(Receipt.Pending.class, receipt).exchange().start(stream);
        JsonNode error = Json.MAPPER.readTree(stream.done.get(5, TimeUnit.SECONDS)).path("error");
        assertEquals(-32602, error.path("code").asInt(), error.toString());
        assertTrue(error.path("message").asString().contains("maxResourceSubscriptions"), error.toString());
        assertEquals(0, stream.interim.size(), "no acknowledgement: the stream was not opened");
    }

    @Test
    void aDeniedUriIsReadAndHeardOfByNoServiceFixedOrTemplate() throws Exception {
        resource("fixed", "test://f", 0);
        template("t", "test://{x}");
        extensions.addPolicy((caller, target) -> target.kind() == io.quiver.api.call.Target.Kind.RESOURCE
                && (target.name().equals("test://f") || target.name().startsWith("test://secret")) ? Decision.deny("no")
                        : Decision.allow(), 0, 1);
        String session = initialize();
        JsonNode open = request(session, "resources/read", "{\"uri\":\"test://open\"}");
        assertEquals("t", open.path("result").path("contents").path(0).path("text").asString(), open.toString());
        for (String denied : List.of("test://secret1", "test://f")) {
            // before, the template served both: a denied fixed resource fell through to it, and its reads were
            // checked against the template alone
            JsonNode refused = request(session, "resources/read", "{\"uri\":\"" + denied + "\"}");
            assertEquals(-32002, refused.path("error").path("code").asInt(), denied + ": " + refused);
            ok(request(session, "resources/subscribe", "{\"uri\":\"" + denied + "\"}"));
        }
        assertEquals(List.of(), heard, "no service hears of a subscription to a URI the caller may not read");
        ok(request(session, "resources/subscribe", "{\"uri\":\"test://open\"}"));
        assertEquals(List.of("t subscribed test://open"), heard);
    }

    @Test
    void aLongUriAndWhatAllSubscriptionsHoldAreBounded() throws Exception {
        assembly.close();
        // each subscription holds its URI's length and 100 bytes: two of test://N fit in 250, not three
        assembly = EngineAssembly.of(catalog, EngineSettings.of(Map.of("maxResourceUriLength", 20,
                "maxResourceSubscriptionBytes", 250)), new ToolLimitsRegistry(), extensions);
        engine = assembly.engine();
        String session = initialize();
        JsonNode tooLong = request(session, "resources/subscribe", "{\"uri\":\"test://" + "a".repeat(14) + "\"}");
        assertEquals(-32602, tooLong.path("error").path("code").asInt(), tooLong.toString());
        assertTrue(tooLong.path("error").path("message").asString().contains("maxResourceUriLength"), tooLong.toString());
        ok(request(session, "resources/subscribe", "{\"uri\":\"test://" + "a".repeat(13) + "\"}")); // 20: the most
        ok(request(session, "resources/subscribe", "{\"uri\":\"test://1\"}"));

        String other = initialize();
        JsonNode busy = request(other, "resources/subscribe", "{\"uri\":\"test://2\"}");
        assertEquals(-32000, busy.path("error").path("code").asInt(), "another session meets the server's bound: " + busy);
        assertTrue(busy.path("error").path("message").asString().contains("maxResourceSubscriptionBytes"), busy.toString());
        Recorder refusedStream = new Recorder();
        assertInstanceOf(Receipt.Pending.class, engine.receive(bytes(listen(11, "[\"test://2\"]")),
                new Inbound(null, null, CallerIdentity.ANONYMOUS))).exchange().start(refusedStream);
        JsonNode error = Json.MAPPER.readTree(refusedStream.done.get(5, TimeUnit.SECONDS)).path("error");
        assertEquals(-32000, error.path("code").asInt(), "and so does a listen stream: " + error);
        assertEquals(0, refusedStream.interim.size(), "which is not opened");
        Recorder longStream = new Recorder();
        assertInstanceOf(Receipt.Pending.class, engine.receive(bytes(listen(12, "[\"test://" + "b".repeat(14) + "\"]")),
                new Inbound(null, null, CallerIdentity.ANONYMOUS))).exchange().start(longStream);
        assertEquals(-32602, Json.MAPPER.readTree(longStream.done.get(5, TimeUnit.SECONDS)).path("error").path("code")
                .asInt(), "a listen stream naming a long URI is refused");

        ok(request(session, "resources/unsubscribe", "{\"uri\":\"test://1\"}"));
        ok(request(other, "resources/subscribe", "{\"uri\":\"test://2\"}")); // room again
        assertEquals(-32000, request(other, "resources/subscribe", "{\"uri\":\"test://3\"}").path("error").path("code")
                .asInt());
        engine.session(session).orElseThrow().close();
        ok(request(other, "resources/subscribe", "{\"uri\":\"test://3\"}")); // the closed session's went with it
    }

    // -------------------------------------------------------------------------------------------

    /** A resource service that notes what it hears as {@code name}; its service id. */
    private long resource(String name, String uri, int ranking) {
        long id = ++serviceId;
        catalog.bindResource(new Heard(name), new HashMap<>(Map.of("mcp.resource.uri", uri, "mcp.resource.name", name,
                "service.id", id, "service.ranking", ranking)));
        return id;
    }

    private void template(String name, String uriTemplate) {
        catalog.bindTemplate(new Heard(name), new HashMap<>(Map.of("mcp.template.uriTemplate", uriTemplate,
                "mcp.template.name", name, "service.id", ++serviceId)));
    }

    private void unregister(long id) {
        catalog.unbindResource(Map.of("service.id", id));
    }

    /** A resource and template that notes its subscribers. */
    private class Heard implements Resource, ResourceTemplate, Subscribable {
        private final String name;

        Heard(String name) {
            this.name = name;
        }

        @Override
        public List<ResourceContents> read(ResourceRequest request) {
            return List.of(new ResourceContents.Text(request.uri(), "text/plain", name, Map.of()));
        }

        @Override
        public void subscribed(String uri) {
            heard.add(name + " subscribed " + uri);
        }

        @Override
        public void unsubscribed(String uri) {
            heard.add(name + " unsubscribed " + uri);
        }
    }

    private String initialize() {
        return initialize(CallerIdentity.ANONYMOUS);
    }

    private String initialize(CallerIdentity caller) {
        Receipt.Pending pending = assertInstanceOf(Receipt.Pending.class, engine.receive(bytes(INIT),
                new Inbound(null, null, caller)));
        Recorder answer = new Recorder();
        pending.exchange().start(answer);
        answer.done.join();
        return pending.session().id();
    }

    private JsonNode request(String session, String method, String params) throws Exception {
        return request(session, CallerIdentity.ANONYMOUS, method, params);
    }

    private JsonNode request(String session, CallerIdentity caller, String method, String params) throws Exception {
        Receipt.Pending pending = assertInstanceOf(Receipt.Pending.class, engine.receive(bytes("{\"jsonrpc\":\"2.0\",\"id\":"
                + ++serviceId + ",\"method\":\"" + method + "\",\"params\":" + params + "}"),
                new Inbound(session, null, caller)));
        Recorder answer = new Recorder();
        pending.exchange().start(answer);
        return Json.MAPPER.readTree(answer.done.get(5, TimeUnit.SECONDS));
    }

    /** The {@code notifications/resources/updated} a stream carried. */
    private static long updates(Recorder stream) {
        return stream.interim.stream().filter(m -> "notifications/resources/updated".equals(
                Json.MAPPER.readTree(m).path("method").asString())).count();
    }

    private static void ok(JsonNode answer) {
        assertTrue(answer.has("result"), answer.toString());
    }

    private static String listen(int id, String uris) {
        return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"subscriptions/listen\",\"params\":"
                + "{\"notifications\":{\"resourceSubscriptions\":" + uris + "}," + META + "}}";
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static class Recorder implements MessageSink {
        final List<byte[]> interim = new CopyOnWriteArrayList<>();
        final CompletableFuture<byte[]> first = new CompletableFuture<>();
        final CompletableFuture<byte[]> done = new CompletableFuture<>();

        @Override
        public void send(byte[] message) {
            interim.add(message);
            first.complete(message);
        }

        @Override
        public void complete(byte[] response) {
            done.complete(response);
        }
    }
}
