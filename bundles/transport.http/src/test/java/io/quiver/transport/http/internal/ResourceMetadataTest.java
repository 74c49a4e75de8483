package io.quiver.transport.http.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quiver.api.auth.Authentication;
import io.quiver.lib.config.TypedConfig;
import java.util.List;
import java.util.Map;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The OAuth protected-resource metadata (RFC 9728) a client reads to find where to get a token: there only while the
 * endpoint asks for one, naming the resource the client asked about. Served in a real Jetty, over loopback.
 */
class ResourceMetadataTest {

    private final Gatekeeper gate = new Gatekeeper(false);
    private Server server;
    private int port;

    @BeforeEach
    void start() throws Exception {
        HttpConfig config = TypedConfig.read(HttpConfig.class, Map.of("authorizationServers", "https://auth.example.com",
                "requiredScopes", "mcp:tools,mcp:admin"), null).config();
        gate.configure(config);
        server = new Server();
        ServerConnector connector = new ServerConnector(server);
        connector.setHost("127.0.0.1");
        server.addConnector(connector);
        ServletContextHandler context = new ServletContextHandler("/");
        context.addServlet(new ResourceMetadataServlet(gate, () -> config,
                () -> new RequestGuard(TypedConfig.list(config.allowedHosts()), TypedConfig.list(config.allowedOrigins()))), Gatekeeper.METADATA_PATH + "/*");
        server.setHandler(context);
        server.start();
        port = connector.getLocalPort();
    }

    @AfterEach
    void stop() throws Exception {
        server.stop();
    }

    @Test
    void theMetadataNamesTheResourceItsAuthorizationServersAndScopes() throws Exception {
        gate.authenticators(List.of(token -> Authentication.notMine()));
        try (RawHttp answer = RawHttp.send(port, "GET", Gatekeeper.METADATA_PATH, Map.of(), null)) {
            assertEquals(200, answer.status());
            assertEquals("application/json", answer.header("Content-Type"));
            assertEquals("*", answer.header("Access-Control-Allow-Origin"));
            assertEquals("max-age=300", answer.header("Cache-Control"));
            assertEquals("{\"resource\":\"http://127.0.0.1:" + port + "/mcp\",\"authorization_servers\":"
                    + "[\"https://auth.example.com\"],\"bearer_methods_supported\":[\"header\"],\"scopes_supported\":"
                    + "[\"mcp:admin\",\"mcp:tools\"],\"resource_name\":\"Quiver MCP server\"}", answer.body());
        }
        try (RawHttp answer = RawHttp.send(port, "GET", Gatekeeper.METADATA_PATH + "/t/acme/mcp", Map.of(), null)) {
            assertEquals(200, answer.status());
            String body = answer.body();
            assertEquals("\"resource\":\"http://127.0.0.1:" + port + "/t/acme/mcp\"", body.substring(1, body.indexOf(',')),
                    "the resource asked about");
        }
    }

    /** The resource is named from the Host header: a Host the endpoint does not allow gets 403, as at the endpoint. */
    @Test
    void aForeignHostIsNotNamedAsTheResource() throws Exception {
        gate.authenticators(List.of(token -> Authentication.notMine()));
        try (RawHttp answer = RawHttp.send(port, "GET", Gatekeeper.METADATA_PATH + "/mcp", Map.of("Host", "evil.example"), null)) {
            assertEquals(403, answer.status());
            assertFalse(answer.body().contains("evil.example"), "nothing of the foreign host is named");
        }
        try (RawHttp answer = RawHttp.send(port, "GET", Gatekeeper.METADATA_PATH + "/mcp", Map.of("Host", "localhost:" + port), null)) {
            assertEquals(200, answer.status());
            assertTrue(answer.body().contains("\"resource\":\"http://localhost:" + port + "/mcp\""));
        }
    }

    @Test
    void withoutAuthenticationThereIsNoMetadata() throws Exception {
        try (RawHttp answer = RawHttp.send(port, "GET", Gatekeeper.METADATA_PATH, Map.of(), null)) {
            assertEquals(404, answer.status());
        }
    }
}
