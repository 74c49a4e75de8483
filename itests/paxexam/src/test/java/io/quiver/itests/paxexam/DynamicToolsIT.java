package io.quiver.itests.paxexam;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import io.quiver.itests.client.McpClient;
import io.quiver.itests.client.MessageStream;
import io.quiver.itests.paxexam.config.QuiverOptions;
import io.quiver.itests.paxexam.mcp.Endpoint;
import io.quiver.itests.paxexam.mcp.ProbeTools;
import java.net.URI;
import java.util.Map;
import javax.inject.Inject;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.ops4j.pax.exam.Configuration;
import org.ops4j.pax.exam.Option;
import org.ops4j.pax.exam.junit.PaxExam;
import org.ops4j.pax.exam.spi.reactors.ExamReactorStrategy;
import org.ops4j.pax.exam.spi.reactors.PerClass;
import org.osgi.framework.BundleContext;
import org.osgi.framework.ServiceRegistration;
import tools.jackson.databind.JsonNode;

/**
 * The catalog is a whiteboard: a {@code Tool} service registered while the server runs is listed
 * to an MCP session over HTTP and announced on its GET stream; unregistered, it is gone, announced
 * again, and calling it is a JSON-RPC invalid-params error.
 */
@RunWith(PaxExam.class)
@ExamReactorStrategy(PerClass.class)
public class DynamicToolsIT {

    private static final String TOOL = "itest_dynamic_echo";
    private static final String DESCRIPTION = "Echoes its 'text' argument (Pax Exam fixture)";
    private static final String LIST_CHANGED = "notifications/tools/list_changed";

    @Inject
    private BundleContext context;

    @Configuration
    public Option[] configuration() {
        return QuiverOptions.framework(DynamicToolsIT.class);
    }

    @Test
    public void toolRegisteredAtRuntimeIsListedAnnouncedAndRemoved() throws Exception {
        URI endpoint = Endpoint.await(context, McpClient.TIMEOUT);
        try (McpClient client = McpClient.connect(endpoint)) {
            MessageStream events = client.openEventStream();
            assertFalse("not registered yet", client.listTools().containsKey(TOOL));
            events.drain();

            ServiceRegistration<?> registration = ProbeTools.registerEcho(context, TOOL, DESCRIPTION);
            try {
                events.awaitNotification(LIST_CHANGED, McpClient.TIMEOUT);

                Map<String, JsonNode> tools = client.listTools();
                assertTrue("tools/list has " + tools.keySet(), tools.containsKey(TOOL));
                assertEquals(DESCRIPTION, tools.get(TOOL).path("description").asString());
                assertTrue("an input schema is always listed", tools.get(TOOL).path("inputSchema").isObject());

                JsonNode result = client.result("tools/call", client.toolCall(TOOL, Map.of("text", "hi"), null));
                assertFalse("isError: " + result, result.path("isError").asBoolean(false));
                assertEquals("echo: hi", result.path("content").path(0).path("text").asString());
            } finally {
                events.drain();
                registration.unregister();
            }

            events.awaitNotification(LIST_CHANGED, McpClient.TIMEOUT);
            assertFalse("unregistered tool still listed", client.listTools().containsKey(TOOL));

            JsonNode response = client.request("tools/call", client.toolCall(TOOL, Map.of("text", "hi"), null));
            assertTrue("expected a JSON-RPC error, got " + response, response.has("error"));
            assertEquals(response.toString(), -32602, response.path("error").path("code").asInt());
        }
    }
}
