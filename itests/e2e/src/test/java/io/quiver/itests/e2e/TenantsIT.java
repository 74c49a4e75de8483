package io.quiver.itests.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quiver.itests.client.McpClient;
import io.quiver.itests.client.MessageStream;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import tools.jackson.databind.JsonNode;

/**
 * Two tenants and two projects with different catalogs and grants, set up as an operator would: the
 * bundles stay as they are, {@code etc/io.quiver.scope-*.cfg} files say who sees them. Each caller
 * sees and calls exactly its cascade (project, tenant, everyone's); a token works at its own
 * tenant's endpoint only; a bundle for one tenant is announced to that tenant's sessions only. The
 * witness tool's file shows which calls ran; the audit trail shows every decision with its tenant
 * and project.
 *
 * <p>The catalog here: {@code current_time} for everyone; {@code convert_time} for tenant globex;
 * {@code witness} for tenant acme; {@code greet} for acme's project showcase. Acme's project pilot
 * may not use {@code witness} (a grant).
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class TenantsIT {

    private static final Duration T = Duration.ofSeconds(10);
    private static final Duration EFFECT = Duration.ofSeconds(20);

    private static final String ALICE = Credentials.newApiKey();
    private static final String BOB = Credentials.newApiKey();
    private static final String DAVE = Credentials.newApiKey();

    private static QuiverServer server;
    private static Path witness;

    @BeforeAll
    static void start() throws Exception {
        server = QuiverServer.start("tenants", "core,http,tools-default", home -> {
            Path etc = home.resolve("etc");
            Files.writeString(etc.resolve("io.quiver.auth.apikey-alice.cfg"),
                    Credentials.apiKeyConfig(ALICE, "alice", "acme", "dev", ""));
            Files.writeString(etc.resolve("io.quiver.auth.apikey-bob.cfg"),
                    Credentials.apiKeyConfig(BOB, "bob", "globex", "dev", ""));
            Files.writeString(etc.resolve("io.quiver.auth.apikey-dave.cfg"),
                    Credentials.apiKeyConfig(DAVE, "dave", "default", "dev", ""));
            Files.writeString(etc.resolve("io.quiver.scope-acme.cfg"),
                    "tenants = acme\nbundles = io.quiver.witness-tool, io.quiver.examples.greeting.acme\n");
            Files.writeString(etc.resolve("io.quiver.scope-showcase.cfg"),
                    "tenants = acme\nprojects = showcase\nbundles = io.quiver.examples.greeting\n");
            Files.writeString(etc.resolve("io.quiver.scope-globex.cfg"),
                    "tenants = globex\nbundles = io.quiver.tools.time\nnames = convert_time\n");
            Files.writeString(etc.resolve("io.quiver.permissions.grant-everyone.cfg"), "allow = *\n");
            Files.writeString(etc.resolve("io.quiver.permissions.grant-pilot.cfg"),
                    "tenants = acme\nprojects = pilot\ndeny = tool:witness\n");
            witness = Witness.install(home);
            Files.copy(ToolBundles.exampleJar(), home.resolve("deploy/greeting.jar"));
        });
        long deadline = System.nanoTime() + EFFECT.toNanos();
        while (!tools(ALICE, "acme", "showcase").containsAll(List.of("greet", "witness"))) {
            assertTrue(System.nanoTime() < deadline, "the tool bundles never came:\n" + server.log());
            Thread.sleep(100);
        }
    }

    @AfterAll
    static void stop() throws Exception {
        if (server != null) {
            server.close();
        }
    }

    @Test
    @Order(1)
    void eachTenantAndProjectSeesItsCascadeAndNothingElse() throws Exception {
        assertEquals(List.of("current_time", "witness"), tools(ALICE, "acme", null), "acme as a whole");
        assertEquals(List.of("current_time", "greet", "witness"), tools(ALICE, "acme", "showcase"),
                "showcase: its own greet over acme's witness over everyone's current_time");
        assertEquals(List.of("current_time"), tools(ALICE, "acme", "pilot"), "pilot: witness denied by its grant");
        assertEquals(List.of("convert_time", "current_time"), tools(BOB, "globex", null));
        assertEquals(List.of("convert_time", "current_time"), tools(BOB, "globex", "showcase"),
                "a project of the same name in another tenant is another project");
        assertEquals(List.of("current_time"), tools(DAVE, null, null), "the default tenant at /mcp");
    }

    @Test
    @Order(2)
    void whatIsNotInTheCallersCascadeCannotBeCalledAndAnswersAsAnUnknownTool() throws Exception {
        assertEquals("witnessed by-alice by alice", text(call(ALICE, "acme", null, "witness", "by-alice")));
        assertEquals("witnessed in-showcase by alice", text(call(ALICE, "acme", "showcase", "witness", "in-showcase")));

        JsonNode unknown = call(BOB, "globex", null, "no_such_tool", "x");
        for (JsonNode refused : List.of(
                call(BOB, "globex", null, "witness", "bob-took-acmes"),
                call(DAVE, null, null, "witness", "dave-took-acmes"),
                call(ALICE, "acme", "pilot", "witness", "pilot-denied"))) {
            assertEquals(-32602, refused.path("error").path("code").asInt(), refused.toString());
            assertEquals(unknown.path("error").path("message").asString().replace("no_such_tool", "X"),
                    refused.path("error").path("message").asString().replace("witness", "X"), "no existence oracle");
        }
        JsonNode greet = call(BOB, "globex", null, "greet", "x");
        assertEquals(-32602, greet.path("error").path("code").asInt(), greet.toString());

        String ran = Files.readString(witness);
        for (String note : List.of("bob-took-acmes", "dave-took-acmes", "pilot-denied")) {
            assertFalse(ran.contains(note), "a call outside its caller's cascade ran: " + note + "\n" + ran);
        }

        // the audit trail: every decision, with the tenant and project it was taken in
        JsonNode pilot = awaitAudit(e -> "alice".equals(e.path("subject").asString())
                && "pilot".equals(e.path("project").asString()) && "witness".equals(e.path("tool").asString()));
        assertEquals("acme", pilot.path("tenant").asString(), pilot.toString());
        assertEquals("DENIED", pilot.path("ending").asString(), pilot.toString());
        assertTrue(pilot.path("rule").asString().contains("pilot"), pilot.toString());
        JsonNode showcase = awaitAudit(e -> "alice".equals(e.path("subject").asString())
                && "showcase".equals(e.path("project").asString()) && "witness".equals(e.path("tool").asString()));
        assertEquals("COMPLETED", showcase.path("ending").asString(), showcase.toString());
        JsonNode bobs = awaitAudit(e -> "bob".equals(e.path("subject").asString()) && "witness".equals(e.path("tool").asString()));
        assertEquals("globex", bobs.path("tenant").asString(), bobs.toString());
        assertEquals("INVALID", bobs.path("ending").asString(), "not in bob's catalog: " + bobs);
    }

    @Test
    @Order(3)
    void aTokenWorksAtItsOwnTenantsEndpointOnly() throws Exception {
        for (String[] attempt : new String[][] {{ALICE, "globex"}, {ALICE, null}, {BOB, "acme"}, {DAVE, "acme"}}) {
            HttpResponse<String> r = Probe.statelessExchange(url(attempt[1], null), "tools/call", "witness",
                    Map.of("name", "witness", "arguments", Map.of("note", "wrong-tenant")), Credentials.bearer(attempt[0]), T);
            assertEquals(403, r.statusCode(), attempt[1] + ": " + r.body());
            String challenge = r.headers().firstValue("WWW-Authenticate").orElse("");
            assertTrue(challenge.startsWith("Bearer ") && challenge.contains("resource_metadata=\""), challenge);
            assertTrue(r.body().contains("not " + (attempt[1] == null ? "default" : attempt[1])), r.body());
        }
        assertFalse(Files.readString(witness).contains("wrong-tenant"), "a call at another tenant's endpoint ran");

        HttpResponse<String> noToken = Probe.statelessExchange(url("acme", null), "tools/list", null, Map.of(), Map.of(), T);
        assertEquals(401, noToken.statusCode());
        assertTrue(noToken.headers().firstValue("WWW-Authenticate").orElse("")
                .contains("/.well-known/oauth-protected-resource/t/acme/mcp"), noToken.headers().map().toString());
        HttpResponse<String> badProject = Probe.statelessExchange(url("acme", null) + "?projectId=..", "tools/list", null,
                Map.of(), Credentials.bearer(ALICE), T);
        assertEquals(400, badProject.statusCode(), badProject.body());
        HttpResponse<String> notAnEndpoint = Probe.statelessExchange(server.url().replace("/mcp", "/t/acme/other"),
                "tools/list", null, Map.of(), Credentials.bearer(ALICE), T);
        assertEquals(404, notAnEndpoint.statusCode(), notAnEndpoint.body());
    }

    @Test
    @Order(4)
    void aSessionBelongsToItsProject() throws Exception {
        try (McpClient showcase = McpClient.connect(url("acme", "showcase"), "alice", T, Credentials.bearer(ALICE))) {
            assertTrue(showcase.toolNames().contains("greet"));
            McpClient.Call elsewhere = showcase.at(url("acme", "pilot")).send("tools/list", Map.of());
            try {
                assertEquals(404, elsewhere.stream().status(), "the session is not pilot's");
            } finally {
                elsewhere.stream().close();
            }
            assertTrue(showcase.toolNames().contains("greet"), "and stays showcase's");
        }
    }

    @Test
    @Order(5)
    void aBundleForOneTenantIsAnnouncedToThatTenantsSessionsOnly() throws Exception {
        try (McpClient acme = McpClient.connect(url("acme", null), "alice", T, Credentials.bearer(ALICE));
             McpClient showcase = McpClient.connect(url("acme", "showcase"), "alice", T, Credentials.bearer(ALICE));
             McpClient globex = McpClient.connect(url("globex", null), "bob", T, Credentials.bearer(BOB))) {
            MessageStream acmeStream = acme.openEventStream();
            MessageStream showcaseStream = showcase.openEventStream();
            MessageStream globexStream = globex.openEventStream();

            // acme's new bundle: acme's sessions hear of it, whatever their project
            ToolBundles.renamed(ToolBundles.exampleJar(), server.home().resolve("deploy/greeting-acme.jar"),
                    "io.quiver.examples.greeting.acme", "greet_acme");
            acmeStream.awaitNotification("notifications/tools/list_changed", EFFECT);
            showcaseStream.awaitNotification("notifications/tools/list_changed", EFFECT);
            assertTrue(acme.toolNames().contains("greet_acme"));
            assertTrue(showcase.toolNames().contains("greet_acme"));

            // a bundle for everyone: globex's session hears of that one, and of nothing before it
            ToolBundles.renamed(ToolBundles.exampleJar(), server.home().resolve("deploy/greeting-all.jar"),
                    "io.quiver.examples.greeting.all", "greet_all");
            // one flush tells every session: once acme's has this one, globex's has been sent it too
            acmeStream.await("notifications/tools/list_changed", 2, EFFECT);
            globexStream.awaitNotification("notifications/tools/list_changed", EFFECT);
            assertEquals(1, globexStream.count("notifications/tools/list_changed"),
                    "globex's session heard of acme's bundle: " + globexStream.history());
            List<String> globexTools = globex.toolNames();
            assertTrue(globexTools.contains("greet_all") && !globexTools.contains("greet_acme"), globexTools.toString());
        }
    }

    // -------------------------------------------------------------------------------------------

    /** The endpoint of a tenant ({@code null}: the default one) and project ({@code null}: none). */
    private static String url(String tenant, String project) {
        String base = tenant == null ? server.url() : server.url().replaceFirst("/mcp$", "/t/" + tenant + "/mcp");
        return project == null ? base : base + "?projectId=" + project;
    }

    /** The tools this test scopes, as a caller sees them (the default feature's file tools are everyone's: left out). */
    private static List<String> tools(String key, String tenant, String project) throws Exception {
        return KeyedCalls.toolNames(url(tenant, project), key).stream()
                .filter(List.of("convert_time", "current_time", "greet", "witness")::contains).toList();
    }

    private static JsonNode call(String key, String tenant, String project, String tool, String note) throws Exception {
        return KeyedCalls.call(url(tenant, project), key, tool, Map.of("note", note));
    }

    private static String text(JsonNode response) {
        return KeyedCalls.text(response);
    }

    private static JsonNode awaitAudit(Predicate<JsonNode> match) throws Exception {
        return KeyedCalls.awaitAudit(server.home(), match, EFFECT);
    }
}
