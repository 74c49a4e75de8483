package io.quiver.itests.paxexam;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.quiver.api.operator.CatalogEntry;
import io.quiver.api.operator.McpOperator;
import io.quiver.itests.client.McpClient;
import io.quiver.itests.paxexam.config.QuiverOptions;
import io.quiver.itests.paxexam.fixture.FixtureBundles;
import io.quiver.itests.paxexam.mcp.Endpoint;
import io.quiver.itests.paxexam.mcp.Eventually;
import io.quiver.itests.paxexam.mcp.ProbeTools;
import java.net.URI;
import java.time.Duration;
import java.util.Hashtable;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import javax.inject.Inject;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.ops4j.pax.exam.Configuration;
import org.ops4j.pax.exam.Option;
import org.ops4j.pax.exam.junit.PaxExam;
import org.ops4j.pax.exam.spi.reactors.ExamReactorStrategy;
import org.ops4j.pax.exam.spi.reactors.PerClass;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.framework.ServiceReference;
import org.osgi.framework.ServiceRegistration;
import org.osgi.service.cm.ConfigurationAdmin;

/**
 * Tools from different bundles share names by ranking, and a blocked tool is stopped at its
 * configured timeout while other tools keep answering.
 */
@RunWith(PaxExam.class)
@ExamReactorStrategy(PerClass.class)
public class IsolationIT {

    private static final Duration BOUND = Duration.ofSeconds(5);
    private static final String REVISION_CLASS = "io.quiver.itests.paxexam.fixture.RevisionTool";

    @Inject
    private BundleContext context;

    @Configuration
    public Option[] configuration() {
        return QuiverOptions.framework(IsolationIT.class);
    }

    private String answer(McpClient client, String tool) throws Exception {
        return client.request("tools/call", client.toolCall(tool, Map.of(), null))
                .path("result").path("content").path(0).path("text").asString("");
    }

    @Test
    public void theHigherRankedBundleWinsAndTheLoserIsPromotedWhenItLeaves() throws Exception {
        URI endpoint = Endpoint.await(context, McpClient.TIMEOUT);
        Bundle low = context.installBundle("quiver-itest:shadow-low", FixtureBundles
                .toolBundle("io.quiver.itests.shadow.low", REVISION_CLASS, "itest_shared").description("low").ranking(0)
                .build());
        Bundle high = context.installBundle("quiver-itest:shadow-high", FixtureBundles
                .toolBundle("io.quiver.itests.shadow.high", REVISION_CLASS, "itest_shared").description("high").ranking(10)
                .build());
        try (McpClient client = McpClient.connect(endpoint)) {
            low.start();
            Eventually.until("the only provider answers", () -> answer(client, "itest_shared"), "low"::equals, BOUND);
            high.start();
            Eventually.until("the higher ranking wins", () -> answer(client, "itest_shared"), "high"::equals, BOUND);
            assertEquals("one listing for the name", 1,
                    client.listTools().keySet().stream().filter("itest_shared"::equals).count());
            String shadowed = Eventually.until("the loser is shadowed", this::shadowedNames, s -> s.contains("itest_shared"),
                    BOUND);
            assertTrue(shadowed, shadowed.contains("itest_shared"));

            high.uninstall();
            Eventually.until("the loser is promoted", () -> answer(client, "itest_shared"), "low"::equals, BOUND);
            assertEquals("", shadowedNames());
        } finally {
            low.uninstall();
            if (high.getState() != Bundle.UNINSTALLED) {
                high.uninstall();
            }
        }
    }

    /** The shadowed tool names, through the operator service. */
    private String shadowedNames() {
        ServiceReference<?> ref = context.getServiceReference("io.quiver.api.operator.McpOperator");
        Object operator = context.getService(ref);
        try {
            return String.valueOf(((McpOperator) operator).shadowed().stream()
                    .map(CatalogEntry::name).reduce("", (a, b) -> a + b + " ")).trim();
        } finally {
            context.ungetService(ref);
        }
    }

    @Test
    public void aBlockedToolTimesOutAtItsConfiguredLimitWhileOthersAnswer() throws Exception {
        URI endpoint = Endpoint.await(context, McpClient.TIMEOUT);
        ConfigurationAdmin cm = context.getService(context.getServiceReference(ConfigurationAdmin.class));
        org.osgi.service.cm.Configuration limits = cm.getFactoryConfiguration("io.quiver.core.tool", "blocked", "?");
        Hashtable<String, Object> props = new Hashtable<>();
        props.put("tool", "itest_blocked");
        props.put("timeoutMs", 700L);
        limits.update(props);
        AtomicInteger interrupted = new AtomicInteger();
        ServiceRegistration<?> blocked = ProbeTools.registerBlocking(context, "itest_blocked", interrupted);
        ServiceRegistration<?> echo = ProbeTools.registerEcho(context, "itest_echo_iso", "echo (isolation)");
        try (McpClient client = McpClient.connect(endpoint)) {
            Eventually.until("both listed", client::listTools,
                    t -> t.containsKey("itest_blocked") && t.containsKey("itest_echo_iso"), BOUND);
            Eventually.until("the limits configuration is active",
                    () -> context.getServiceReferences("io.quiver.core.internal.wiring.ToolLimitsComponent",
                            "(tool=itest_blocked)") != null, Boolean::booleanValue, BOUND);
            long started = System.nanoTime();
            McpClient.Call call = client.send("tools/call", client.toolCall("itest_blocked", Map.of(), null));
            String quick = client.request("tools/call", client.toolCall("itest_echo_iso", Map.of("text", "hi"), null))
                    .path("result").path("content").path(0).path("text").asString("");
            assertEquals("others answer while one tool is blocked", "echo: hi", quick);
            var response = call.response(BOUND);
            long tookMs = (System.nanoTime() - started) / 1_000_000;
            assertTrue(response.toString(), response.path("result").path("isError").asBoolean());
            assertTrue(response.toString(), response.path("result").path("content").path(0).path("text").asString("")
                    .contains("timed out after 700 ms"));
            assertTrue("stopped near its 700 ms limit, not the 60 s default: " + tookMs, tookMs < 4_000);
            Eventually.until("the blocked thread is interrupted", interrupted::get, n -> n == 1, BOUND);
            assertTrue(client.ping());
        } finally {
            blocked.unregister();
            echo.unregister();
            limits.delete();
        }
    }
}
