package io.quiver.itests.paxexam;

import static org.junit.Assert.assertEquals;

import io.quiver.itests.client.McpClient;
import io.quiver.itests.client.MessageStream;
import io.quiver.itests.paxexam.config.QuiverOptions;
import io.quiver.itests.paxexam.fixture.FixtureBundles;
import io.quiver.itests.paxexam.mcp.Endpoint;
import io.quiver.itests.paxexam.mcp.Eventually;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
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
import tools.jackson.databind.JsonNode;

/**
 * Updating a tool bundle while one of its calls runs: the call in flight finishes on the old
 * revision, new calls reach the new one, and clients hear one list change, not a burst.
 */
@RunWith(PaxExam.class)
@ExamReactorStrategy(PerClass.class)
public class UpdateSemanticsIT {

    private static final Duration BOUND = Duration.ofSeconds(5);
    private static final String REVISION_CLASS = "io.quiver.itests.paxexam.fixture.RevisionTool";

    @Inject
    private BundleContext context;

    @Configuration
    public Option[] configuration() {
        return QuiverOptions.framework(UpdateSemanticsIT.class);
    }

    private static FixtureBundles.ToolBundle revision(String description) {
        return FixtureBundles.toolBundle("io.quiver.itests.revision", REVISION_CLASS, "itest_revision")
                .description(description);
    }

    @Test
    public void callsInFlightFinishOnTheOldRevisionAndNewCallsReachTheNewOne() throws Exception {
        URI endpoint = Endpoint.await(context, McpClient.TIMEOUT);
        Bundle bundle = context.installBundle("quiver-itest:revision", revision("revision one").build());
        try (McpClient client = McpClient.connect(endpoint)) {
            MessageStream events = client.openEventStream();
            bundle.start();
            Eventually.until("itest_revision listed", client::listTools, t -> t.containsKey("itest_revision"), BOUND);
            // the install's own list change comes first (debounced, so perhaps after the call below
            // started): waited for here, so that only the update's is counted
            Eventually.until("the install's list change", () -> listChanges(events, 0), n -> n >= 1, BOUND);

            McpClient.Call inFlight = client.send("tools/call",
                    client.toolCall("itest_revision", Map.of("millis", 1200), "rev-1"));
            inFlight.stream().awaitNotification("notifications/progress", BOUND);
            int before = events.history().size();

            bundle.update(revision("revision two").build());

            JsonNode old = inFlight.response(BOUND);
            assertEquals(old.toString(), "revision one", old.path("result").path("content").path(0).path("text").asString());
            String fresh = Eventually.until("the new revision answers",
                    () -> client.request("tools/call", client.toolCall("itest_revision", Map.of(), null))
                            .path("result").path("content").path(0).path("text").asString(""),
                    text -> text.equals("revision two"), BOUND);
            assertEquals("revision two", fresh);

            Thread.sleep(1_000);
            assertEquals("one list change for one update: " + events.history(), 1, listChanges(events, before));
        } finally {
            bundle.uninstall();
        }
    }

    /**
     * The {@code tools/list_changed} notifications among the stream's messages from index {@code from}. A loop, not
     * a lambda: a lambda over JsonNode would put Jackson in a method signature JUnit inspects outside the framework,
     * where Jackson is not on the class path.
     */
    private static int listChanges(MessageStream events, int from) {
        var history = events.history();
        int changes = 0;
        for (var message : history.subList(from, history.size())) {
            if ("notifications/tools/list_changed".equals(message.path("method").asString())) {
                changes++;
            }
        }
        return changes;
    }
}
