package io.quiver.itests.paxexam;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.quiver.itests.client.McpClient;
import io.quiver.itests.paxexam.config.QuiverOptions;
import io.quiver.itests.paxexam.mcp.Endpoint;
import io.quiver.itests.paxexam.mcp.Eventually;
import io.quiver.itests.paxexam.mcp.ProbeTools;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Hashtable;
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
import org.osgi.framework.InvalidSyntaxException;
import org.osgi.framework.ServiceReference;
import org.osgi.framework.ServiceRegistration;
import org.osgi.service.cm.ConfigurationAdmin;

/**
 * The selector lane (the HTTP transport's connector in place of Felix HTTP's own, on the same port)
 * in a real framework: it is there with the default settings, and when the transport stops, or the
 * setting turns it off, Felix's connector serves the same port again, and back.
 */
@RunWith(PaxExam.class)
@ExamReactorStrategy(PerClass.class)
public class SelectorLaneIT {

    private static final Duration BOUND = Duration.ofSeconds(10);
    private static final String CONNECTOR_FACTORY = "org.apache.felix.http.jetty.ConnectorFactory";
    private static final String TRANSPORT = "io.quiver.transport.http";

    @Inject
    private BundleContext context;

    @Configuration
    public Option[] configuration() {
        return QuiverOptions.framework(SelectorLaneIT.class);
    }

    @Test
    public void whenTheTransportStopsFelixServesItsPortAgainAndTheLaneComesBackWithIt() throws Exception {
        URI endpoint = Endpoint.await(context, BOUND);
        assertTrue("the transport offers its connector to Felix HTTP", laneOffered());
        assertServed(endpoint, "lane");
        Bundle transport = bundle(TRANSPORT);
        transport.stop();
        try {
            assertEquals("Felix's connector answers on the same port (no MCP servlet now)", 404,
                    (int) Eventually.until("the port answers again", () -> status(endpoint), s -> s > 0, BOUND));
        } finally {
            transport.start();
        }
        URI again = Endpoint.await(context, BOUND);
        assertEquals(endpoint, again);
        assertTrue(laneOffered());
        assertServed(again, "lane");
    }

    @Test
    public void theSettingTurnsTheLaneOffAndOnWithoutMovingThePort() throws Exception {
        URI endpoint = Endpoint.await(context, BOUND);
        ConfigurationAdmin admin = context.getService(context.getServiceReference(ConfigurationAdmin.class));
        org.osgi.service.cm.Configuration settings = admin.getConfiguration(TRANSPORT, "?");
        Hashtable<String, Object> off = new Hashtable<>();
        off.put("selectorLane", "false");
        settings.update(off);
        try {
            Eventually.until("the lane withdrawn", this::laneOffered, offered -> !offered, BOUND);
            assertServed(endpoint, "pool");
        } finally {
            settings.delete();
        }
        Eventually.until("the lane offered again", this::laneOffered, offered -> offered, BOUND);
        assertEquals(endpoint, Endpoint.await(context, BOUND));
        assertServed(endpoint, "lane");
    }

    /**
     * A session opens at the endpoint and a non-blocking tool answers from {@code where} it is expected
     * to run: {@code lane} (the thread that read the request) or {@code pool}. Retried while the port
     * changes hands.
     */
    private void assertServed(URI endpoint, String where) throws Exception {
        ServiceRegistration<?> tool = ProbeTools.registerWhere(context, "itest_where");
        try {
            String answer = Eventually.until("MCP served at " + endpoint, () -> {
                try (McpClient client = McpClient.connect(endpoint)) {
                    return client.ping() ? client.callTool("itest_where", Map.of()).path("result").path("content").path(0)
                            .path("text").asString("?") : "no ping";
                } catch (Exception e) {
                    return e.toString();
                }
            }, text -> text.equals(where), BOUND);
            assertEquals(where, answer);
        } finally {
            tool.unregister();
        }
    }

    private boolean laneOffered() throws InvalidSyntaxException {
        ServiceReference<?>[] offered = context.getServiceReferences(CONNECTOR_FACTORY, null);
        if (offered == null) {
            return false;
        }
        for (ServiceReference<?> reference : offered) {
            if (TRANSPORT.equals(reference.getBundle().getSymbolicName())) {
                return true;
            }
        }
        return false;
    }

    /** The HTTP status of a GET, or -1 while nothing listens. */
    private static int status(URI endpoint) {
        try {
            return HttpClient.newHttpClient().send(HttpRequest.newBuilder(endpoint).timeout(Duration.ofSeconds(2))
                    .header("Accept", "text/event-stream").GET().build(), HttpResponse.BodyHandlers.discarding())
                    .statusCode();
        } catch (Exception e) {
            return -1;
        }
    }

    private Bundle bundle(String symbolicName) {
        for (Bundle bundle : context.getBundles()) {
            if (symbolicName.equals(bundle.getSymbolicName())) {
                return bundle;
            }
        }
        throw new AssertionError("No bundle " + symbolicName);
    }
}
