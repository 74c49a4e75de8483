package io.quiver.itests.paxexam;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import io.quiver.api.Tool;
import io.quiver.itests.client.McpClient;
import io.quiver.itests.paxexam.calls.CallProbes;
import io.quiver.itests.paxexam.config.QuiverOptions;
import io.quiver.itests.paxexam.mcp.Endpoint;
import io.quiver.itests.paxexam.mcp.Eventually;
import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import javax.inject.Inject;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.ops4j.pax.exam.Configuration;
import org.ops4j.pax.exam.Option;
import org.ops4j.pax.exam.junit.PaxExam;
import org.ops4j.pax.exam.spi.reactors.ExamReactorStrategy;
import org.ops4j.pax.exam.spi.reactors.PerClass;
import org.osgi.framework.BundleContext;
import org.osgi.framework.FrameworkUtil;
import org.osgi.framework.ServiceRegistration;
import tools.jackson.databind.JsonNode;

/**
 * The call pipeline's extension points as another bundle fills them while the server runs: a call
 * policy decides what a caller sees and calls, a host channel admits, edits, answers, reviews, records
 * and releases, and call listeners hear one event per call. Every "did not run" is proven by a counter
 * the tool would have moved.
 */
@RunWith(PaxExam.class)
@ExamReactorStrategy(PerClass.class)
public class CallSpisIT {

    @Inject
    private BundleContext context;

    @Configuration
    public Option[] configuration() {
        return QuiverOptions.framework(CallSpisIT.class);
    }

    @Test
    public void aPolicyRegisteredAtRuntimeHidesAToolFromTheListAndFromCalls() throws Exception {
        String tool = "itest_policy_hidden";
        AtomicInteger runs = new AtomicInteger();
        ServiceRegistration<?> registration = CallProbes.registerCounting(context, tool, runs);
        try (McpClient client = McpClient.connect(Endpoint.await(context, McpClient.TIMEOUT))) {
            Eventually.until("the tool listed", client::listTools, tools -> tools.containsKey(tool), McpClient.TIMEOUT);

            // ranked above the permissions bundle's policy (ranking 0), which it replaces
            ServiceRegistration<?> policy = CallProbes.registerPolicyHiding(context, tool, 10);
            try {
                assertFalse("a hidden tool is not listed", client.listTools().containsKey(tool));
                JsonNode response = client.request("tools/call", client.toolCall(tool, Map.of("text", "x"), null));
                assertEquals(response.toString(), -32602, response.path("error").path("code").asInt());
                assertEquals("Unknown tool: " + tool, response.path("error").path("message").asString());
                assertEquals("the hidden tool never ran", 0, runs.get());
            } finally {
                policy.unregister();
            }

            assertTrue("listed again once the policy is gone", client.listTools().containsKey(tool));
            JsonNode result = client.result("tools/call", client.toolCall(tool, Map.of("text", "x"), null));
            assertEquals("echo: x", CallProbes.text(result));
            assertEquals(1, runs.get());
        } finally {
            registration.unregister();
        }
    }

    @Test
    public void aHostChannelAdmitsEditsAnswersReviewsRecordsAndReleases() throws Exception {
        String tool = "itest_hosted";
        AtomicInteger runs = new AtomicInteger();
        List<String> host = new CopyOnWriteArrayList<>();
        ServiceRegistration<?> registration = CallProbes.registerCounting(context, tool, runs);
        ServiceRegistration<?> channel = CallProbes.registerHost(context, host);
        try (McpClient client = McpClient.connect(Endpoint.await(context, McpClient.TIMEOUT))) {
            Eventually.until("the tool listed", client::listTools, tools -> tools.containsKey(tool), McpClient.TIMEOUT);

            JsonNode denied = client.result("tools/call", client.toolCall(tool, Map.of("text", "forbidden"), null));
            assertTrue(denied.toString(), denied.path("isError").asBoolean());
            assertTrue(CallProbes.text(denied), CallProbes.text(denied).contains("the user refused"));
            assertEquals("a denied call never runs", 0, runs.get());
            assertEquals(List.of("admit " + tool + " forbidden", "release " + tool), host);

            host.clear();
            assertEquals("echo: edited", CallProbes.text(client.result("tools/call",
                    client.toolCall(tool, Map.of("text", "edit-me"), null))));
            assertEquals(1, runs.get());

            host.clear();
            // this client declared no elicitation: only the host can have answered the question
            JsonNode answered = client.result("tools/call", client.toolCall(tool,
                    Map.of("text", "hi", "confirm", true), null));
            assertEquals("echo: hi (confirmed: accept)", CallProbes.text(answered));
            assertEquals(List.of("admit " + tool + " hi", "answer confirm", "review echo: hi (confirmed: accept)",
                    "record echo: hi (confirmed: accept)", "release " + tool), host);

            host.clear();
            JsonNode reviewed = client.result("tools/call", client.toolCall(tool, Map.of("text", "secret"), null));
            assertEquals("echo: [redacted]", CallProbes.text(reviewed));
            assertEquals("the host records what was delivered", "record echo: [redacted]", host.get(2));
        } finally {
            channel.unregister();
            registration.unregister();
        }
    }

    @Test
    public void aHostChannelFromABundleTheEmbedderDidNotAllowIsIgnored() throws Exception {
        String tool = "itest_unhosted";
        AtomicInteger runs = new AtomicInteger();
        List<String> host = new CopyOnWriteArrayList<>();
        ServiceRegistration<?> registration = CallProbes.registerCounting(context, tool, runs);
        // a bundle other than the probe (allowed by QuiverOptions) registers a host that would deny everything
        BundleContext other = FrameworkUtil.getBundle(Tool.class).getBundleContext();
        ServiceRegistration<?> rogue = CallProbes.registerHost(other, host);
        try (McpClient client = McpClient.connect(Endpoint.await(context, McpClient.TIMEOUT))) {
            Eventually.until("the tool listed", client::listTools, tools -> tools.containsKey(tool), McpClient.TIMEOUT);
            JsonNode result = client.result("tools/call", client.toolCall(tool, Map.of("text", "forbidden"), null));
            assertEquals("echo: forbidden", CallProbes.text(result));
            assertEquals("the call ran as if no host were there", 1, runs.get());
            assertEquals("the ignored host was never asked", List.of(), host);
        } finally {
            rogue.unregister();
            registration.unregister();
        }
    }

    @Test
    public void listenersHearOneEventPerCallWithItsDecisions() throws Exception {
        String tool = "itest_listened";
        AtomicInteger runs = new AtomicInteger();
        List<String> events = new CopyOnWriteArrayList<>();
        AtomicInteger hiddenRuns = new AtomicInteger();
        ServiceRegistration<?> registration = CallProbes.registerCounting(context, tool, runs);
        ServiceRegistration<?> hidden = CallProbes.registerCounting(context, "itest_listened_hidden", hiddenRuns);
        try (McpClient client = McpClient.connect(Endpoint.await(context, McpClient.TIMEOUT))) {
            Eventually.until("the tools listed", client::listTools, tools -> tools.containsKey(tool)
                    && tools.containsKey("itest_listened_hidden"), McpClient.TIMEOUT);
            client.result("tools/call", client.toolCall(tool, Map.of("text", "unheard"), null));

            ServiceRegistration<?> listener = CallProbes.registerListener(context, events);
            ServiceRegistration<?> policy = CallProbes.registerPolicyHiding(context, "itest_listened_hidden", 10);
            try {
                client.result("tools/call", client.toolCall(tool, Map.of("text", "a"), null));
                client.request("tools/call", client.toolCall("itest_no_such_tool", Map.of(), null));
                client.request("tools/call", client.toolCall("itest_listened_hidden", Map.of(), null));
                Eventually.until("three events", () -> List.copyOf(events), e -> e.size() >= 3, McpClient.TIMEOUT);
                assertEquals(List.of(tool + " COMPLETED [authorize+]", "itest_no_such_tool INVALID [resolve-]",
                        "itest_listened_hidden DENIED [authorize-]"), events);
                assertEquals(0, hiddenRuns.get());
            } finally {
                policy.unregister();
                listener.unregister();
            }
            client.result("tools/call", client.toolCall(tool, Map.of("text", "after"), null));
            assertEquals("no event after the listener left", 3, events.size());
            assertEquals(3, runs.get());
        } finally {
            hidden.unregister();
            registration.unregister();
        }
    }
}
