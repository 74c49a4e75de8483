package io.quiver.itests.paxexam;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.quiver.itests.client.McpClient;
import io.quiver.itests.paxexam.config.QuiverOptions;
import io.quiver.itests.paxexam.mcp.Endpoint;
import io.quiver.itests.paxexam.mcp.Eventually;
import io.quiver.itests.paxexam.mcp.ProbeTools;
import io.quiver.itests.paxexam.mcp.RawHttp;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Hashtable;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
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
 * in a real framework ({@code selectorLane}, on by default): when the transport stops, or the setting
 * turns it off, Felix's connector serves the same port again, and back; a call that may block runs on
 * a call thread while its connection is read on the lane, and blocking calls get more call threads.
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

    /** Turns the lane on and waits until the endpoint serves on it: the endpoint. */
    private URI onTheLane() throws Exception {
        lane(true);
        URI endpoint = Endpoint.await(context, BOUND);
        assertServed(endpoint, "lane");
        return endpoint;
    }

    /** Turns the lane on or off ({@code selectorLane}, on by default) and waits until it is so. */
    private void lane(boolean on) throws Exception {
        ConfigurationAdmin admin = context.getService(context.getServiceReference(ConfigurationAdmin.class));
        Hashtable<String, Object> settings = new Hashtable<>();
        settings.put("selectorLane", Boolean.toString(on));
        admin.getConfiguration(TRANSPORT, "?").update(settings);
        Eventually.until("the lane " + (on ? "offered" : "withdrawn"), this::laneOffered, offered -> offered == on, BOUND);
    }

    @Test
    public void whenTheTransportStopsFelixServesItsPortAgainAndTheLaneComesBackWithIt() throws Exception {
        lane(true);
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
    public void aBlockingCallRunsOnACallThreadWhileItsConnectionStaysOnTheLane() throws Exception {
        URI endpoint = onTheLane();
        ServiceRegistration<?> quick = ProbeTools.registerWhere(context, "itest_where_quick");
        ServiceRegistration<?> blocking = ProbeTools.registerWhere(context, "itest_where_blocking", true);
        try (Socket socket = RawHttp.connect(endpoint)) {
            // one keep-alive connection, each request whole in one write, its answer read before the next
            assertEquals("lane", where(socket, endpoint, "itest_where_quick"));
            for (int round = 0; round < 3; round++) {
                assertEquals("a blocking tool runs on a call thread", "call", where(socket, endpoint, "itest_where_blocking"));
                assertEquals("the connection's next request is read and served on the lane", "lane",
                        where(socket, endpoint, "itest_where_quick"));
                assertEquals("call", where(socket, endpoint, "itest_where_blocking"));
                assertEquals("call", where(socket, endpoint, "itest_where_blocking"));
                assertEquals("lane", where(socket, endpoint, "itest_where_quick"));
            }
        } finally {
            quick.unregister();
            blocking.unregister();
        }
    }

    @Test
    public void aCredentialIsCheckedOnTheLaneWhenEveryAuthenticatorChecksWithoutWaiting() throws Exception {
        URI endpoint = onTheLane();
        ServiceRegistration<?> quick = ProbeTools.registerWhere(context, "itest_where_quick");
        ServiceRegistration<?> keys = ProbeTools.registerAuthenticator(context, "itest-key", true);
        try {
            try (Socket socket = RawHttp.connect(endpoint)) {
                assertEquals("lane", where(socket, endpoint, "itest_where_quick", "itest-key"));
                assertEquals("a wrong credential is refused on the lane as anywhere", "401",
                        where(socket, endpoint, "itest_where_quick", "another-key").substring(9, 12));
            }
            ServiceRegistration<?> remote = ProbeTools.registerAuthenticator(context, "itest-token", false);
            try (Socket socket = RawHttp.connect(endpoint)) {
                assertEquals("one authenticator whose checks may wait sends every credential to the pool", "pool",
                        where(socket, endpoint, "itest_where_quick", "itest-key"));
                assertEquals("pool", where(socket, endpoint, "itest_where_quick", "itest-key"));
            } finally {
                remote.unregister();
            }
            try (Socket socket = RawHttp.connect(endpoint)) {
                assertEquals("lane", where(socket, endpoint, "itest_where_quick", "itest-key"));
            }
        } finally {
            keys.unregister();
            quick.unregister();
        }
        assertServed(endpoint, "lane"); // no credential needed again
    }

    /**
     * Calls of a tool that blocks get threads beyond the call pool's few core ones: twelve calls that can
     * only answer once all twelve run at once (the pool keeps four on this machine) all answer "met".
     */
    @Test
    public void blockingCallsThatWaitOnEachOtherAllGetAThread() throws Exception {
        URI endpoint = onTheLane();
        int calls = 12;
        ServiceRegistration<?> tool = ProbeTools.registerRendezvous(context, "itest_rendezvous", calls);
        ExecutorService clients = Executors.newFixedThreadPool(calls);
        try {
            List<Future<String>> answers = new ArrayList<>();
            for (int i = 0; i < calls; i++) {
                answers.add(clients.submit(() -> {
                    try (McpClient client = McpClient.connect(endpoint.toString(), "rendezvous", Duration.ofSeconds(45))) {
                        return client.callTool("itest_rendezvous", Map.of()).path("result").path("content").path(0)
                                .path("text").asString("?");
                    }
                }));
            }
            for (Future<String> answer : answers) {
                assertEquals("met", answer.get(60, TimeUnit.SECONDS));
            }
        } finally {
            clients.shutdownNow();
            tool.unregister();
        }
    }

    private static String where(Socket socket, URI endpoint, String tool) throws Exception {
        return where(socket, endpoint, tool, null);
    }

    /**
     * The same with a bearer credential (null: none): "lane", "call" or "pool", else the whole answer (its status
     * line first).
     */
    private static String where(Socket socket, URI endpoint, String tool, String bearer) throws Exception {
        String body = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"" + tool
                + "\",\"arguments\":{},\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
                + "\"io.modelcontextprotocol/clientCapabilities\":{},"
                + "\"io.modelcontextprotocol/clientInfo\":{\"name\":\"route\",\"version\":\"1\"}}}}";
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("Content-Type", "application/json");
        headers.put("Accept", "application/json, text/event-stream");
        if (bearer != null) {
            headers.put("Authorization", "Bearer " + bearer);
        }
        headers.put("MCP-Protocol-Version", "2026-07-28");
        headers.put("Mcp-Method", "tools/call");
        headers.put("Mcp-Name", tool);
        RawHttp.send(socket, endpoint, "POST", headers, body);
        String answer = RawHttp.readResponse(socket.getInputStream());
        for (String where : new String[] {"lane", "call", "pool"}) {
            if (answer.contains("\"text\":\"" + where + "\"")) {
                return where;
            }
        }
        return answer;
    }

    @Test
    public void theSettingTurnsTheLaneOffAndOnWithoutMovingThePort() throws Exception {
        lane(true);
        URI endpoint = Endpoint.await(context, BOUND);
        assertServed(endpoint, "lane");
        lane(false);
        assertServed(endpoint, "pool");
        lane(true);
        assertEquals(endpoint, Endpoint.await(context, BOUND));
        assertServed(endpoint, "lane");
    }

    @Test
    public void aNonBlockingToolTalkingToAClientThatDoesNotReadHoldsOnlyThatClient() throws Exception {
        lane(true);
        URI endpoint = Endpoint.await(context, BOUND);
        // 4,000 progress messages of 2 KB each (8 MB), then the answer
        ServiceRegistration<?> chatty = ProbeTools.registerChatty(context, "itest_chatty", 4000, 2048);
        try (McpClient reader = McpClient.connect(endpoint); McpClient other = McpClient.connect(endpoint);
                Socket deaf = new Socket()) {
            Eventually.until("itest_chatty listed", reader::toolNames, names -> names.contains("itest_chatty"), BOUND);
            // the same session's call, sent raw and never read: 8 MB of progress for a client whose
            // receive buffer holds a few KB
            String body = "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\",\"params\":{\"name\":"
                    + "\"itest_chatty\",\"arguments\":{},\"_meta\":{\"progressToken\":\"p\"}}}";
            byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
            deaf.setReceiveBufferSize(1024);
            deaf.connect(new InetSocketAddress(endpoint.getHost(), endpoint.getPort()));
            OutputStream out = deaf.getOutputStream();
            out.write(("POST " + endpoint.getPath() + " HTTP/1.1\r\nHost: " + endpoint.getHost() + ":" + endpoint.getPort()
                    + "\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n"
                    + "MCP-Protocol-Version: 2025-11-25\r\nMcp-Session-Id: " + reader.session() + "\r\nContent-Length: "
                    + bytes.length + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            out.write(bytes);
            out.flush();
            Thread.sleep(1_000);
            for (int i = 0; i < 5; i++) {
                long t0 = System.nanoTime();
                assertTrue(other.ping());
                assertTrue(other.request("tools/list", null).path("result").path("tools").isArray());
                long ms = (System.nanoTime() - t0) / 1_000_000;
                assertTrue("another client's requests answer meanwhile, took " + ms + " ms", ms < 2_000);
            }
        } finally {
            chatty.unregister();
        }
    }

    @Test
    public void aNonBlockingToolNotifyingASubscriberThatDoesNotReadHoldsOnlyThatSubscriber() throws Exception {
        lane(true);
        URI endpoint = Endpoint.await(context, BOUND);
        // 40,000 notifications/resources/updated (about 4 MB of SSE) for one subscriber that never reads;
        // the call may run on the lane or (its body read apart from its headers) on the engine's threads:
        // either way the announcing thread must not wait on that subscriber
        ServiceRegistration<?> announcer = ProbeTools.registerAnnouncer(context, "itest_announcer", "itest://watched", 40_000);
        try (McpClient subscriber = McpClient.connect(endpoint); McpClient other = McpClient.connect(endpoint);
                Socket deaf = new Socket()) {
            subscriber.request("resources/subscribe", Map.of("uri", "itest://watched"));
            deaf.setReceiveBufferSize(1024);
            deaf.connect(new InetSocketAddress(endpoint.getHost(), endpoint.getPort()));
            OutputStream out = deaf.getOutputStream();
            out.write(("GET " + endpoint.getPath() + " HTTP/1.1\r\nHost: " + endpoint.getHost() + ":" + endpoint.getPort()
                    + "\r\nAccept: text/event-stream\r\nMCP-Protocol-Version: 2025-11-25\r\nMcp-Session-Id: "
                    + subscriber.session() + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            out.flush();
            Thread.sleep(500); // the subscriber's stream is open
            announcesPromptly(other, "itest_announcer");
        } finally {
            announcer.unregister();
        }
    }

    @Test
    public void aBlockingToolNotifyingAListenStreamThatDoesNotReadHoldsOnlyThatStream() throws Exception {
        lane(true);
        URI endpoint = Endpoint.await(context, BOUND);
        // 40,000 notifications/resources/updated (about 4 MB of SSE) from a blocking tool (a call thread) to a
        // 2026-07-28 subscriptions/listen stream that never reads: the call thread must not wait on it
        ServiceRegistration<?> announcer = ProbeTools.registerAnnouncer(context, "itest_listen_announcer",
                "itest://listened", 40_000, true);
        try (McpClient other = McpClient.connect(endpoint); Socket deaf = new Socket()) {
            deaf.setReceiveBufferSize(1024);
            deaf.connect(new InetSocketAddress(endpoint.getHost(), endpoint.getPort()));
            byte[] body = ("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"subscriptions/listen\",\"params\":{\"notifications\":"
                    + "{\"resourceSubscriptions\":[\"itest://listened\"]},\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":"
                    + "\"2026-07-28\",\"io.modelcontextprotocol/clientCapabilities\":{},\"io.modelcontextprotocol/clientInfo\":"
                    + "{\"name\":\"deaf\",\"version\":\"1\"}}}}").getBytes(StandardCharsets.UTF_8);
            OutputStream out = deaf.getOutputStream();
            out.write(("POST " + endpoint.getRawPath() + " HTTP/1.1\r\nHost: " + endpoint.getHost() + ":" + endpoint.getPort()
                    + "\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n"
                    + "MCP-Protocol-Version: 2026-07-28\r\nMcp-Method: subscriptions/listen\r\nContent-Length: "
                    + body.length + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            out.write(body);
            out.flush();
            Thread.sleep(500); // the listen stream is open
            announcesPromptly(other, "itest_listen_announcer");
        } finally {
            announcer.unregister();
        }
    }

    /** {@code other} calls the announcing tool once it is listed: the call and five pings answer within 5 s. */
    private static void announcesPromptly(McpClient other, String tool) throws Exception {
        Eventually.until(tool + " listed", other::toolNames, names -> names.contains(tool), BOUND);
        long t0 = System.nanoTime();
        assertEquals("announced", other.callTool(tool, Map.of()).path("result").path("content").path(0)
                .path("text").asString(""));
        for (int i = 0; i < 5; i++) {
            assertTrue(other.ping());
        }
        long ms = (System.nanoTime() - t0) / 1_000_000;
        assertTrue("the announcing call and five pings answered while the subscriber read nothing: " + ms + " ms",
                ms < 5_000);
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
            Bundle owner = reference.getBundle(); // null once the service is gone
            if (owner != null && TRANSPORT.equals(owner.getSymbolicName())) {
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
