package io.quiver.itests.paxexam;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.quiver.itests.paxexam.config.QuiverOptions;
import io.quiver.itests.paxexam.mcp.Endpoint;
import io.quiver.itests.paxexam.mcp.Eventually;
import io.quiver.itests.paxexam.mcp.ProbeTools;
import io.quiver.itests.paxexam.mcp.RawHttp;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Hashtable;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
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
        assertEquals("servlet", expect(endpoint, "itest_which_quick", "servlet"));
        try (Socket socket = RawHttp.connect(endpoint)) {
            assertEquals("servlet", call(socket, endpoint, "itest_which_quick", false));
            assertEquals("servlet", call(socket, endpoint, "itest_which_quick", false));
        }
        coreLane(true);
        assertEquals("core", expect(endpoint, "itest_which_quick", "core"));
    }

    @Test
    public void aBodyThatArrivesAfterItsHeadersIsWaitedForAheadOfTheServlet() throws Exception {
        URI endpoint = Endpoint.await(context, BOUND);
        register(which("itest_which_parts", false));
        register(which("itest_which_parts_blocking", true));
        try (Socket socket = RawHttp.connect(endpoint)) {
            // half of the body with the headers, the rest 300 ms later: read as it arrives, whole (a lost half would
            // be a parse error), and answered on the core lane
            assertEquals("core", call(socket, endpoint, "itest_which_parts", true));
            // the headers alone first, as Java's HttpClient writes them, the whole body 300 ms later
            assertEquals("core", call(socket, endpoint, "itest_which_parts", 0, null));
            // a tool that may block, its body waited for the same way, is handed to the servlet from there and runs
            // on a thread the servlet hands it to, its body whole
            assertEquals("elsewhere", call(socket, endpoint, "itest_which_parts_blocking", 0, null));
            // and the same connection's next request, whole, is answered ahead of the servlet again
            assertEquals("core", call(socket, endpoint, "itest_which_parts", false));
        }
        // the JDK's own client, which writes a POST's headers and body apart (the official Java SDK's transport)
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        for (int i = 0; i < 3; i++) {
            HttpResponse<String> answer = client.send(HttpRequest.newBuilder(endpoint)
                    .header("Content-Type", "application/json").header("Accept", "application/json, text/event-stream")
                    .header("MCP-Protocol-Version", "2026-07-28").header("Mcp-Method", "tools/call")
                    .header("Mcp-Name", "itest_which_parts")
                    .POST(HttpRequest.BodyPublishers.ofString(callBody("itest_which_parts"))).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(answer.body(), 200, answer.statusCode());
            assertTrue(answer.body(), answer.body().contains("\"text\":\"core\""));
        }
    }

    @Test
    public void aBodyThatDoesNotArriveInTimeIsAnswered408AndNothingRuns() throws Exception {
        URI endpoint = Endpoint.await(context, BOUND);
        AtomicInteger ran = new AtomicInteger();
        register(ProbeTools.registerCounting(context, "itest_core_counted", ran)); // which calls it until it is listed
        int listed = ran.get();
        settings("bodyTimeoutMs", "700");
        byte[] body = callBody("itest_core_counted").getBytes(StandardCharsets.UTF_8);
        // the setting takes a moment to apply: until then, a body that stops halfway is not answered within 2 s
        Eventually.until("bodyTimeoutMs applied", () -> halfABody(endpoint, body, false), answer -> !answer.isEmpty(), BOUND);
        String answer = halfABody(endpoint, body, true);
        assertTrue(answer, answer.startsWith("HTTP/1.1 408"));
        assertTrue(answer, answer.contains("did not arrive within 700 ms"));
        assertTrue(answer, answer.toLowerCase(Locale.ROOT).contains("connection: close"));
        // a client that goes away halfway through its body
        try (Socket socket = RawHttp.connect(endpoint)) {
            OutputStream out = socket.getOutputStream();
            out.write(head(endpoint, "itest_core_counted", body.length).getBytes(StandardCharsets.US_ASCII));
            out.write(body, 0, 10);
            out.flush();
        }
        Thread.sleep(1_000); // past the deadline of the client that went away
        // none of those ran the tool; the next whole call runs it once, answered on the core lane
        try (Socket socket = RawHttp.connect(endpoint)) {
            assertEquals("core", call(socket, endpoint, "itest_core_counted", false));
        }
        assertEquals(listed + 1, ran.get());
        // the default back, in place before the next test (which sends bodies in parts 300 ms apart)
        settings("bodyTimeoutMs", "30000");
        Eventually.until("bodyTimeoutMs back", () -> halfABody(endpoint, body, false), String::isEmpty, BOUND);
    }

    @Test
    public void aBodyThatDoesNotArriveInTimeCountsAgainstItsCallersRate() throws Exception {
        URI endpoint = Endpoint.await(context, BOUND);
        AtomicInteger ran = new AtomicInteger();
        register(ProbeTools.registerCounting(context, "itest_core_counted", ran));
        Hashtable<String, Object> settings = new Hashtable<>();
        settings.put("subjectRequestsPerSecond", "0.01");
        settings.put("subjectBurst", "2");
        settings.put("bodyTimeoutMs", "500");
        applied(endpoint, settings, "http://slow.example", "itest_core_counted");
        ServiceRegistration<?> authenticator = ProbeTools.registerAuthenticator(context, "slow-token", true);
        try {
            Eventually.until("credentials asked for", () -> callOnce(endpoint, "itest_core_counted", null),
                    answer -> answer.startsWith("HTTP/1.1 401"), BOUND);
            byte[] body = callBody("itest_core_counted").getBytes(StandardCharsets.UTF_8);
            int before = ran.get();
            // two bodies that stop halfway, as the servlet counts every request it reads: the burst of two is spent
            for (int i = 0; i < 2; i++) {
                String answer = halfABody(endpoint, body, false, "slow-token");
                assertTrue(answer, answer.startsWith("HTTP/1.1 408"));
            }
            String third = callOnce(endpoint, "itest_core_counted", "slow-token");
            assertTrue(third, third.startsWith("HTTP/1.1 429"));
            assertEquals(before, ran.get());
        } finally {
            authenticator.unregister();
        }
    }

    /**
     * Sends the headers of a call and half its body on a new connection: the answer (its status, Connection header
     * and body), or empty when none came within 2 s. {@code rest}: once answered, the rest of the body is sent too late, and the connection must be closed
     * without another answer.
     */
    private static String halfABody(URI endpoint, byte[] body, boolean rest) throws Exception {
        return halfABody(endpoint, body, rest, null);
    }

    /** The same with a bearer credential (null: none). */
    private static String halfABody(URI endpoint, byte[] body, boolean rest, String bearer) throws Exception {
        try (Socket socket = RawHttp.connect(endpoint)) {
            socket.setSoTimeout(2_000);
            OutputStream out = socket.getOutputStream();
            out.write(head(endpoint, "itest_core_counted", body.length, bearer).getBytes(StandardCharsets.US_ASCII));
            out.write(body, 0, body.length / 2);
            out.flush();
            String answer;
            try {
                RawHttp.Head head = RawHttp.readHead(socket.getInputStream());
                answer = head.status() + "\nConnection: " + head.header("Connection") + "\n"
                        + RawHttp.readBody(socket.getInputStream(), head);
            } catch (SocketTimeoutException e) {
                return "";
            }
            if (rest) {
                try {
                    out.write(body, body.length / 2, body.length - body.length / 2);
                    out.flush();
                } catch (IOException closed) {
                    // closed by the server already, as it should be
                }
                int next;
                try {
                    next = socket.getInputStream().read();
                } catch (SocketException reset) {
                    next = -1; // the rest arrived after the server closed: reset, as closed as it gets
                }
                assertEquals(-1, next);
            }
            return answer;
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
        try {
            // until the authenticator shows, a refusal may close the connection: each attempt on a new one
            assertEquals("servlet", Eventually.until("credentials checked off the lane",
                    () -> callOnce(endpoint, "itest_which_guarded", "core-lane-token"), "servlet"::equals, BOUND));
        } finally {
            waiting.unregister();
        }
        assertEquals("core", expect(endpoint, "itest_which_guarded", "core"));
    }

    @Test
    public void aCallersRequestRateCountsEachRequestOnceWhicheverPathServesIt() throws Exception {
        URI endpoint = Endpoint.await(context, BOUND);
        register(which("itest_which_counted", false));
        register(which("itest_which_counted_blocking", true));
        Hashtable<String, Object> settings = new Hashtable<>();
        settings.put("subjectRequestsPerSecond", "0.01");
        settings.put("subjectBurst", "4");
        applied(endpoint, settings, "http://counted.example", "itest_which_counted");
        ServiceRegistration<?> authenticator = ProbeTools.registerAuthenticator(context, "counted-token", true);
        try {
            try (Socket socket = RawHttp.connect(endpoint)) {
                // the authenticator has arrived once a call without the token is refused
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
     * {@code inParts}: the body is written in two parts 300 ms apart, the first with the headers.
     */
    private static String call(Socket socket, URI endpoint, String tool, boolean inParts) throws Exception {
        return call(socket, endpoint, tool, inParts, null);
    }

    /** The same with a bearer credential (null: none). */
    private static String call(Socket socket, URI endpoint, String tool, boolean inParts, String bearer) throws Exception {
        return call(socket, endpoint, tool, inParts ? -2 : -1, bearer);
    }

    /**
     * The same, with {@code withHeaders} bytes of the body in the headers' write and the rest 300 ms later: -1 all of
     * it (one write), -2 half of it.
     */
    private static String call(Socket socket, URI endpoint, String tool, int withHeaders, String bearer) throws Exception {
        byte[] body = callBody(tool).getBytes(StandardCharsets.UTF_8);
        String head = head(endpoint, tool, body.length, bearer);
        OutputStream out = socket.getOutputStream();
        ByteArrayOutputStream first = new ByteArrayOutputStream();
        first.write(head.getBytes(StandardCharsets.US_ASCII));
        // in one write: the headers with the whole body, or with a part of it
        int part = withHeaders == -1 ? body.length : withHeaders == -2 ? body.length / 2 : withHeaders;
        first.write(body, 0, part);
        out.write(first.toByteArray());
        out.flush();
        if (part < body.length) {
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

    /** A stateless tools/call of {@code tool}, without arguments. */
    private static String callBody(String tool) {
        return "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"" + tool
                + "\",\"arguments\":{},\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
                + "\"io.modelcontextprotocol/clientCapabilities\":{},"
                + "\"io.modelcontextprotocol/clientInfo\":{\"name\":\"core-lane\",\"version\":\"1\"}}}}";
    }

    private static String head(URI endpoint, String tool, int length) {
        return head(endpoint, tool, length, null);
    }

    /** The head of a POST of {@link #callBody} of {@code length} bytes. */
    private static String head(URI endpoint, String tool, int length, String bearer) {
        return "POST " + endpoint.getRawPath() + " HTTP/1.1\r\nHost: " + endpoint.getHost() + ":" + endpoint.getPort()
                + "\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n"
                + (bearer == null ? "" : "Authorization: Bearer " + bearer + "\r\n")
                + "MCP-Protocol-Version: 2026-07-28\r\nMcp-Method: tools/call\r\nMcp-Name: " + tool
                + "\r\nContent-Length: " + length + "\r\n\r\n";
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

    /**
     * Sets the transport's configuration to {@code settings} and an {@code allowedOrigins} of {@code origin}, and
     * waits until a call of {@code tool} from that origin passes (403 before): the settings are applied together,
     * so the others then hold too.
     */
    private void applied(URI endpoint, Hashtable<String, Object> settings, String origin, String tool) throws Exception {
        settings.put("allowedOrigins", new String[] {origin});
        ConfigurationAdmin admin = context.getService(context.getServiceReference(ConfigurationAdmin.class));
        admin.getConfiguration(TRANSPORT, "?").update(settings);
        Eventually.until("settings applied", () -> {
            try (Socket socket = RawHttp.connect(endpoint)) {
                RawHttp.send(socket, endpoint, "POST", Map.of("Content-Type", "application/json",
                        "Accept", "application/json, text/event-stream", "Origin", origin,
                        "MCP-Protocol-Version", "2026-07-28", "Mcp-Method", "tools/call", "Mcp-Name", tool),
                        callBody(tool));
                return RawHttp.readResponse(socket.getInputStream());
            }
        }, answer -> !answer.startsWith("HTTP/1.1 403"), BOUND);
    }

    /** Sets {@code coreLane}; {@link #expect} waits until it shows. */
    private void coreLane(boolean on) throws Exception {
        settings("coreLane", Boolean.toString(on));
    }

    /** The transport's configuration: this one setting, the others their defaults. */
    private void settings(String name, String value) throws Exception {
        ConfigurationAdmin admin = context.getService(context.getServiceReference(ConfigurationAdmin.class));
        Hashtable<String, Object> settings = new Hashtable<>();
        settings.put(name, value);
        admin.getConfiguration(TRANSPORT, "?").update(settings);
    }

    /** Calls the tool until what serves it is {@code which} (a setting takes a moment): the last answer. */
    private static String expect(URI endpoint, String tool, String which) throws Exception {
        return Eventually.until(which + " serves " + tool, () -> callOnce(endpoint, tool, null), which::equals, BOUND);
    }

    /** {@link #call} on a connection of its own (a refusal meanwhile may close one). */
    private static String callOnce(URI endpoint, String tool, String bearer) throws Exception {
        try (Socket socket = RawHttp.connect(endpoint)) {
            return call(socket, endpoint, tool, false, bearer);
        }
    }
}
