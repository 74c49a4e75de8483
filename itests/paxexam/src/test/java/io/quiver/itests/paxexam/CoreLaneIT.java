package io.quiver.itests.paxexam;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.quiver.itests.paxexam.config.QuiverOptions;
import io.quiver.itests.paxexam.mcp.Endpoint;
import io.quiver.itests.paxexam.mcp.Eventually;
import io.quiver.itests.paxexam.mcp.ProbeTools;
import io.quiver.itests.paxexam.mcp.RawHttp;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Hashtable;
import java.util.List;
import javax.inject.Inject;
import org.junit.After;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.ops4j.pax.exam.Configuration;
import org.ops4j.pax.exam.Option;
import org.ops4j.pax.exam.junit.PaxExam;
import org.ops4j.pax.exam.spi.reactors.ExamReactorStrategy;
import org.ops4j.pax.exam.spi.reactors.PerClass;
import org.osgi.framework.BundleContext;
import org.osgi.framework.ServiceRegistration;
import org.osgi.service.cm.ConfigurationAdmin;

/**
 * The core lane ({@code coreLane}, on by default with the selector lane): an MCP POST whose answer waits on
 * nothing is answered by a Jetty core handler ahead of the servlet; what it cannot serve whole (a body that
 * arrives in parts, a tool that may block, a credential an authenticator may wait to check) reaches the servlet
 * with nothing lost, and a caller's request is counted once against its rate.
 * Which of the two served a call is read off the tool's own stack ({@code CoreLane.handle} or
 * {@code McpServlet.service} below it).
 */
@RunWith(PaxExam.class)
@ExamReactorStrategy(PerClass.class)
public class CoreLaneIT {

    private static final Duration BOUND = Duration.ofSeconds(10);
    private static final String TRANSPORT = "io.quiver.transport.http";

    @Inject
    private BundleContext context;

    private final List<ServiceRegistration<?>> registrations = new ArrayList<>();

    @Configuration
    public Option[] configuration() {
        return QuiverOptions.framework(CoreLaneIT.class);
    }

    @After
    public void cleanUp() throws Exception {
        for (ServiceRegistration<?> registration : registrations) {
            registration.unregister();
        }
        registrations.clear();
        coreLane(true);
    }

    @Test
    public void aQuickCallIsAnsweredAheadOfTheServletAndTheSettingSendsItThroughTheServlet() throws Exception {
        URI endpoint = Endpoint.await(context, BOUND);
        register(which("itest_which_quick", false));
        try (Socket socket = RawHttp.connect(endpoint)) {
            assertEquals("core", call(socket, endpoint, "itest_which_quick", false));
            assertEquals("core", call(socket, endpoint, "itest_which_quick", false));
        }
        coreLane(false);
        try (Socket socket = RawHttp.connect(endpoint)) {
            assertEquals("servlet", expect(socket, endpoint, "itest_which_quick", "servlet"));
            assertEquals("servlet", call(socket, endpoint, "itest_which_quick", false));
        }
        coreLane(true);
        try (Socket socket = RawHttp.connect(endpoint)) {
            assertEquals("core", expect(socket, endpoint, "itest_which_quick", "core"));
        }
    }

    @Test
    public void aBodyThatArrivesInPartsIsReadWholeByTheServlet() throws Exception {
        URI endpoint = Endpoint.await(context, BOUND);
        register(which("itest_which_parts", false));
        try (Socket socket = RawHttp.connect(endpoint)) {
            // the first half, which came with the headers, is read ahead of the servlet, which gets it back before
            // the rest: the call is whole (a lost half would be a parse error), and it ran where the servlet runs a
            // request whose body it waited for (the engine's threads), not on the core lane
            assertEquals("elsewhere", call(socket, endpoint, "itest_which_parts", true));
            // and the same connection's next request, whole, is answered ahead of it again
            assertEquals("core", call(socket, endpoint, "itest_which_parts", false));
        }
    }

    @Test
    public void aToolThatMayBlockIsHandedToTheServletWithItsBodyAlreadyRead() throws Exception {
        URI endpoint = Endpoint.await(context, BOUND);
        register(which("itest_which_blocking", true));
        register(which("itest_which_quick_too", false));
        try (Socket socket = RawHttp.connect(endpoint)) {
            for (int i = 0; i < 3; i++) {
                assertEquals("elsewhere", call(socket, endpoint, "itest_which_blocking", false));
                assertEquals("core", call(socket, endpoint, "itest_which_quick_too", false));
            }
        }
    }

    @Test
    public void aCredentialIsCheckedAheadOfTheServletWhenEveryAuthenticatorChecksWithoutWaiting() throws Exception {
        URI endpoint = Endpoint.await(context, BOUND);
        register(which("itest_which_guarded", false));
        ServiceRegistration<?> authenticator = ProbeTools.registerAuthenticator(context, "core-lane-token", true);
        try {
            try (Socket socket = RawHttp.connect(endpoint)) {
                String refused = Eventually.until("credentials asked for",
                        () -> call(socket, endpoint, "itest_which_guarded", false, null),
                        answer -> answer.startsWith("HTTP/1.1 401"), BOUND);
                assertTrue(refused, refused.contains("Unauthorized"));
            }
            try (Socket socket = RawHttp.connect(endpoint)) {
                assertEquals("core", call(socket, endpoint, "itest_which_guarded", false, "core-lane-token"));
                String wrong = call(socket, endpoint, "itest_which_guarded", false, "not-the-token");
                assertTrue("a token no authenticator accepts gets the servlet's 401: " + wrong, wrong.startsWith("HTTP/1.1 401"));
            }
        } finally {
            authenticator.unregister();
        }
        // an authenticator that may wait (a remote key set) keeps credentials off the lane: the servlet checks them
        ServiceRegistration<?> waiting = ProbeTools.registerAuthenticator(context, "core-lane-token", false);
        try (Socket socket = RawHttp.connect(endpoint)) {
            assertEquals("servlet", Eventually.until("credentials checked off the lane",
                    () -> call(socket, endpoint, "itest_which_guarded", false, "core-lane-token"), "servlet"::equals, BOUND));
        } finally {
            waiting.unregister();
        }
        try (Socket socket = RawHttp.connect(endpoint)) {
            assertEquals("core", expect(socket, endpoint, "itest_which_guarded", "core"));
        }
    }

    @Test
    public void aCallersRequestRateCountsEachRequestOnceWhicheverPathServesIt() throws Exception {
        URI endpoint = Endpoint.await(context, BOUND);
        register(which("itest_which_counted", false));
        register(which("itest_which_counted_blocking", true));
        ConfigurationAdmin admin = context.getService(context.getServiceReference(ConfigurationAdmin.class));
        Hashtable<String, Object> settings = new Hashtable<>();
        settings.put("subjectRequestsPerSecond", "0.01");
        settings.put("subjectBurst", "4");
        admin.getConfiguration(TRANSPORT, "?").update(settings);
        ServiceRegistration<?> authenticator = ProbeTools.registerAuthenticator(context, "counted-token", true);
        try {
            try (Socket socket = RawHttp.connect(endpoint)) {
                // the settings and the authenticator have arrived once a call without the token is refused
                Eventually.until("credentials asked for", () -> call(socket, endpoint, "itest_which_counted", false, null),
                        answer -> answer.startsWith("HTTP/1.1 401"), BOUND);
            }
            try (Socket socket = RawHttp.connect(endpoint)) {
                // four requests of the burst: two answered ahead of the servlet, two handed to it (counted there
                // again, the fourth would be refused)
                assertEquals("core", call(socket, endpoint, "itest_which_counted", false, "counted-token"));
                assertEquals("elsewhere", call(socket, endpoint, "itest_which_counted_blocking", false, "counted-token"));
                assertEquals("core", call(socket, endpoint, "itest_which_counted", false, "counted-token"));
                assertEquals("elsewhere", call(socket, endpoint, "itest_which_counted_blocking", false, "counted-token"));
                String fifth = call(socket, endpoint, "itest_which_counted", false, "counted-token");
                assertTrue(fifth, fifth.startsWith("HTTP/1.1 429"));
                assertTrue(fifth, fifth.contains("Too Many Requests"));
            }
        } finally {
            authenticator.unregister();
        }
    }

    /**
     * A stateless tools/call on {@code socket}: "core" or "servlet" (what served it), else the whole answer.
     * {@code inParts}: the body is written in two parts 300 ms apart.
     */
    private static String call(Socket socket, URI endpoint, String tool, boolean inParts) throws Exception {
        return call(socket, endpoint, tool, inParts, null);
    }

    /** The same with a bearer credential (null: none). */
    private static String call(Socket socket, URI endpoint, String tool, boolean inParts, String bearer) throws Exception {
        byte[] body = ("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"" + tool
                + "\",\"arguments\":{},\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
                + "\"io.modelcontextprotocol/clientCapabilities\":{},"
                + "\"io.modelcontextprotocol/clientInfo\":{\"name\":\"core-lane\",\"version\":\"1\"}}}}")
                .getBytes(StandardCharsets.UTF_8);
        String head = "POST " + endpoint.getRawPath() + " HTTP/1.1\r\nHost: " + endpoint.getHost() + ":" + endpoint.getPort()
                + "\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n"
                + (bearer == null ? "" : "Authorization: Bearer " + bearer + "\r\n")
                + "MCP-Protocol-Version: 2026-07-28\r\nMcp-Method: tools/call\r\nMcp-Name: " + tool
                + "\r\nContent-Length: " + body.length + "\r\n\r\n";
        OutputStream out = socket.getOutputStream();
        ByteArrayOutputStream first = new ByteArrayOutputStream();
        first.write(head.getBytes(StandardCharsets.US_ASCII));
        // in one write: the headers with the whole body, or with its first half
        int part = inParts ? body.length / 2 : body.length;
        first.write(body, 0, part);
        out.write(first.toByteArray());
        out.flush();
        if (inParts) {
            Thread.sleep(300);
            out.write(body, part, body.length - part);
            out.flush();
        }
        String answer = RawHttp.readResponse(socket.getInputStream());
        for (String which : new String[] {"core", "servlet", "elsewhere"}) {
            if (answer.contains("\"text\":\"" + which + "\"")) {
                return which;
            }
        }
        return answer;
    }

    private ServiceRegistration<?> which(String name, boolean blocking) {
        return ProbeTools.registerWhich(context, name, blocking);
    }

    /** Keeps the tool's registration until the test ends, and waits until a call reaches it. */
    private void register(ServiceRegistration<?> registration) throws Exception {
        registrations.add(registration);
        String name = (String) registration.getReference().getProperty("mcp.tool.name");
        URI endpoint = Endpoint.await(context, BOUND);
        try (Socket socket = RawHttp.connect(endpoint)) {
            Eventually.until(name + " listed", () -> call(socket, endpoint, name, false),
                    answer -> !answer.startsWith("HTTP/"), BOUND);
        }
    }

    /** Sets {@code coreLane}; {@link #expect} waits until it shows. */
    private void coreLane(boolean on) throws Exception {
        ConfigurationAdmin admin = context.getService(context.getServiceReference(ConfigurationAdmin.class));
        Hashtable<String, Object> settings = new Hashtable<>();
        settings.put("coreLane", Boolean.toString(on));
        admin.getConfiguration(TRANSPORT, "?").update(settings);
    }

    /** Calls the tool until what serves it is {@code which} (a setting takes a moment): the last answer. */
    private static String expect(Socket socket, URI endpoint, String tool, String which) throws Exception {
        return Eventually.until(which + " serves " + tool, () -> call(socket, endpoint, tool, false), which::equals, BOUND);
    }
}
