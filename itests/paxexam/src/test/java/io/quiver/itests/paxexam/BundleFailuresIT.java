package io.quiver.itests.paxexam;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import io.quiver.itests.client.McpClient;
import io.quiver.itests.client.MessageStream;
import io.quiver.itests.paxexam.config.QuiverOptions;
import io.quiver.itests.paxexam.fixture.FixtureBundles;
import io.quiver.itests.paxexam.mcp.Endpoint;
import io.quiver.itests.paxexam.mcp.Eventually;
import io.quiver.itests.paxexam.mcp.ProbeTools;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import javax.inject.Inject;
import org.junit.After;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.ops4j.pax.exam.Configuration;
import org.ops4j.pax.exam.Option;
import org.ops4j.pax.exam.junit.PaxExam;
import org.ops4j.pax.exam.spi.reactors.ExamReactorStrategy;
import org.ops4j.pax.exam.spi.reactors.PerClass;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.framework.BundleException;
import org.osgi.framework.ServiceRegistration;
import org.osgi.framework.wiring.FrameworkWiring;
import tools.jackson.databind.JsonNode;

/**
 * Tool bundles come and go while the server runs: one stopped in the middle of a call, one that
 * cannot resolve, one whose component cannot activate. None of them may hang or break the engine.
 * The tool bundles are built at test time (see {@link FixtureBundles}).
 */
@RunWith(PaxExam.class)
@ExamReactorStrategy(PerClass.class)
public class BundleFailuresIT {

    /** How long anything that must not hang may take. */
    private static final Duration BOUND = Duration.ofSeconds(5);
    private static final String SLOW_CLASS = "io.quiver.itests.paxexam.fixture.SlowTool";
    private static final String EXPLODING_CLASS = "io.quiver.itests.paxexam.fixture.ExplodingTool";

    @Inject
    private BundleContext context;

    private final List<Bundle> installed = new ArrayList<>();

    @Configuration
    public Option[] configuration() {
        return QuiverOptions.framework(BundleFailuresIT.class);
    }

    @After
    public void uninstallFixtures() {
        for (Bundle bundle : installed) {
            try {
                bundle.uninstall();
            } catch (BundleException | IllegalStateException e) {
                // already gone
            }
        }
        installed.clear();
    }

    @Test
    public void stoppingAToolBundleDuringACallNeitherHangsNorBreaksTheEngine() throws Exception {
        URI endpoint = Endpoint.await(context, McpClient.TIMEOUT);
        Bundle slow = install("quiver-itest:slow-tool", FixtureBundles
                .toolBundle("io.quiver.itests.slowtool", SLOW_CLASS, "itest_slow")
                .description("Sleeps for 'millis' ms (Pax Exam fixture)"));
        slow.start();

        ExecutorService stopper = Executors.newSingleThreadExecutor();
        try (McpClient client = McpClient.connect(endpoint)) {
            Eventually.until("itest_slow listed", client::listTools, tools -> tools.containsKey("itest_slow"), BOUND);
            MessageStream events = client.openEventStream();

            McpClient.Call call = client.send("tools/call",
                    client.toolCall("itest_slow", Map.of("millis", 1500), "slow-1"));
            // The tool reports progress before it sleeps: from here on the call is inside the tool.
            call.stream().awaitNotification("notifications/progress", BOUND);

            long stopStarted = System.nanoTime();
            Future<?> stopping = stopper.submit(() -> {
                slow.stop();
                return null;
            });
            try {
                stopping.get(BOUND.toMillis(), TimeUnit.MILLISECONDS);
            } catch (TimeoutException e) {
                fail("Bundle.stop() of a tool bundle did not return within " + BOUND.toMillis()
                        + " ms while one of its tools was running");
            }
            assertEquals(Bundle.RESOLVED, slow.getState());
            events.awaitNotification("notifications/tools/list_changed", BOUND);

            JsonNode response = call.response(BOUND);
            long tookMs = (System.nanoTime() - stopStarted) / 1_000_000;
            assertTrue("the call ends with a result or a JSON-RPC error: " + response,
                    response.has("result") || response.has("error"));
            System.err.println("[BundleFailuresIT] tools/call after stopping its bundle ended in " + tookMs
                    + " ms with " + response);

            assertTrue("ping after the stop", client.ping());
            Map<String, JsonNode> tools = client.listTools();
            assertFalse("the stopped bundle's tool is still listed: " + tools.keySet(), tools.containsKey("itest_slow"));

            // The engine keeps serving calls, old session and new alike.
            JsonNode again = client.request("tools/call", client.toolCall("itest_slow", Map.of(), null));
            assertEquals(again.toString(), -32602, again.path("error").path("code").asInt());
            try (McpClient fresh = McpClient.connect(endpoint)) {
                assertTrue(fresh.ping());
                assertFalse(fresh.listTools().containsKey("itest_slow"));
            }
        } finally {
            stopper.shutdownNow();
        }
    }

    @Test
    public void uninstallingAndRefreshingAToolBundleDuringACallEndsTheCallCleanly() throws Exception {
        URI endpoint = Endpoint.await(context, McpClient.TIMEOUT);
        Bundle slow = install("quiver-itest:slow-tool-2", FixtureBundles
                .toolBundle("io.quiver.itests.slowtool2", SLOW_CLASS, "itest_slow_2"));
        slow.start();
        ExecutorService remover = Executors.newSingleThreadExecutor();
        try (McpClient client = McpClient.connect(endpoint)) {
            Eventually.until("itest_slow_2 listed", client::listTools, tools -> tools.containsKey("itest_slow_2"), BOUND);
            McpClient.Call call = client.send("tools/call",
                    client.toolCall("itest_slow_2", Map.of("millis", 1000), "slow-2"));
            call.stream().awaitNotification("notifications/progress", BOUND);

            // What FileInstall does when a jar leaves deploy/: uninstall, then refresh the wiring.
            Future<?> removing = remover.submit(() -> {
                slow.uninstall();
                CountDownLatch refreshed = new CountDownLatch(1);
                context.getBundle(0).adapt(FrameworkWiring.class)
                        .refreshBundles(List.of(slow), event -> refreshed.countDown());
                if (!refreshed.await(BOUND.toMillis(), TimeUnit.MILLISECONDS)) {
                    throw new AssertionError("refresh did not finish");
                }
                return null;
            });
            try {
                removing.get(BOUND.toMillis(), TimeUnit.MILLISECONDS);
            } catch (TimeoutException e) {
                fail("uninstall + refresh of a tool bundle did not finish within " + BOUND.toMillis()
                        + " ms while one of its tools was running");
            }
            JsonNode response = call.response(BOUND);
            System.err.println("[BundleFailuresIT] tools/call after uninstall + refresh of its bundle: " + response);
            assertTrue("the call ends with a result or a JSON-RPC error: " + response,
                    response.has("result") || response.has("error"));
            assertTrue(client.ping());
            assertFalse(client.listTools().containsKey("itest_slow_2"));
        } finally {
            remover.shutdownNow();
        }
    }

    @Test
    public void unresolvableOrFailingToolBundlesHarmNothingElse() throws Exception {
        URI endpoint = Endpoint.await(context, McpClient.TIMEOUT);
        try (McpClient client = McpClient.connect(endpoint)) {
            // A bundle whose Import-Package nothing satisfies: it stays INSTALLED.
            Bundle unresolvable = install("quiver-itest:unresolvable-tool", FixtureBundles
                    .toolBundle("io.quiver.itests.unresolvable", SLOW_CLASS, "itest_unresolvable")
                    .importing("io.quiver.itests.nothing.exports.this;version=\"[9,10)\""));
            try {
                unresolvable.start();
                fail("a bundle with an unsatisfiable Import-Package started");
            } catch (BundleException e) {
                assertEquals(e.toString(), BundleException.RESOLVE_ERROR, e.getType());
            }
            assertEquals(Bundle.INSTALLED, unresolvable.getState());

            // A bundle that resolves and starts, but whose component throws in its constructor.
            System.err.println("[BundleFailuresIT] Expected: SCR and the framework log the failure of the"
                    + " ExplodingTool component below (IllegalStateException, 'Service factory returned null').");
            Bundle exploding = install("quiver-itest:exploding-tool", FixtureBundles
                    .toolBundle("io.quiver.itests.exploding", EXPLODING_CLASS, "itest_exploding"));
            exploding.start();
            assertEquals(Bundle.ACTIVE, exploding.getState());

            // A healthy tool registered after both still arrives, and the engine answers.
            ServiceRegistration<?> healthy = ProbeTools.registerEcho(context, "itest_healthy", "Still works");
            try {
                Map<String, JsonNode> tools = Eventually.until("itest_healthy listed", client::listTools,
                        t -> t.containsKey("itest_healthy"), BOUND);
                assertFalse("unresolvable tool listed", tools.containsKey("itest_unresolvable"));
                assertFalse("a tool whose component cannot activate is listed", tools.containsKey("itest_exploding"));
                assertTrue(client.ping());
                JsonNode result = client.result("tools/call",
                        client.toolCall("itest_healthy", Map.of("text", "ok"), null));
                assertEquals("echo: ok", result.path("content").path(0).path("text").asString());

                JsonNode exploded = client.request("tools/call", client.toolCall("itest_exploding", Map.of(), null));
                assertEquals(exploded.toString(), -32602, exploded.path("error").path("code").asInt());
            } finally {
                healthy.unregister();
            }

            // The Quiver bundles themselves are untouched.
            for (Bundle bundle : context.getBundles()) {
                String name = bundle.getSymbolicName();
                if (name != null && name.startsWith("io.quiver.") && !name.startsWith("io.quiver.itests.")) {
                    assertEquals(name + " state", Bundle.ACTIVE, bundle.getState());
                }
            }
            try (McpClient fresh = McpClient.connect(endpoint)) {
                assertTrue(fresh.ping());
            }
        }
    }

    private Bundle install(String location, FixtureBundles.ToolBundle bundle) throws Exception {
        Bundle b = context.installBundle(location, bundle.build());
        installed.add(b);
        return b;
    }
}
