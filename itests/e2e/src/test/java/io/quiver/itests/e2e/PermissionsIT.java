package io.quiver.itests.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quiver.itests.client.McpClient;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.jar.Attributes;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * Grants from {@code etc/} decide what each authenticated caller sees and calls, with one decision
 * for both: a denied tool is absent from {@code tools/list} and answers exactly as an unknown tool
 * does; deny wins; the admin tools need the admin role; a bundle that could change the trust
 * boundary needs the operator role to be installed; and a grant removed while a call runs lets that
 * call finish and denies the next. The witness tool's file shows which calls ran.
 */
class PermissionsIT {

    private static final Duration T = Duration.ofSeconds(10);
    private static final Duration EFFECT = Duration.ofSeconds(20);

    private static final String ALICE = Credentials.newApiKey();
    private static final String BOB = Credentials.newApiKey();
    private static final String ROOT = Credentials.newApiKey();
    private static final String OPS = Credentials.newApiKey();
    private static final String CAROL = Credentials.newApiKey();

    private static QuiverServer server;
    private static Path witness;
    private static Path installable;

    @BeforeAll
    static void start() throws Exception {
        server = QuiverServer.start("permissions", "core,http,tools-default,admin,conformance", home -> {
            Path etc = home.resolve("etc");
            Files.writeString(etc.resolve("io.quiver.auth.apikey-alice.cfg"), Credentials.apiKeyConfig(ALICE, "alice", "dev", ""));
            Files.writeString(etc.resolve("io.quiver.auth.apikey-bob.cfg"), Credentials.apiKeyConfig(BOB, "bob", "support", ""));
            Files.writeString(etc.resolve("io.quiver.auth.apikey-root.cfg"), Credentials.apiKeyConfig(ROOT, "root", "admin", ""));
            Files.writeString(etc.resolve("io.quiver.auth.apikey-ops.cfg"), Credentials.apiKeyConfig(OPS, "ops", "admin, operator", ""));
            Files.writeString(etc.resolve("io.quiver.permissions.grant-devs.cfg"),
                    "roles = dev\nallow = tool:witness, tool:*_time\ndeny = tool:convert_time\n");
            Files.writeString(etc.resolve("io.quiver.permissions.grant-support.cfg"), "roles = support\nallow = tool:*\n");
            Files.writeString(etc.resolve("io.quiver.permissions.grant-admins.cfg"), "roles = admin\nallow = *\n");
            Files.writeString(etc.resolve("io.quiver.auth.apikey-carol.cfg"), Credentials.apiKeyConfig(CAROL, "carol", "reader", ""));
            Files.writeString(etc.resolve("io.quiver.permissions.grant-readers.cfg"),
                    "roles = reader\nallow = *\ndeny = resource:test://template/*\n");
            installable = Files.createDirectories(home.resolve("installable"));
            Files.writeString(etc.resolve("io.quiver.tools.admin.cfg"), "allowedRoots = "
                    + installable.toAbsolutePath().toString().replace('\\', '/') + "\n");
            witness = Witness.install(home);
        });
        long deadline = System.nanoTime() + EFFECT.toNanos();
        while (!tools(ROOT).contains("witness")) {
            assertTrue(System.nanoTime() < deadline, "the witness tool never came:\n" + server.log());
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
    void eachCallerSeesAndCallsExactlyWhatItsGrantsAllow() throws Exception {
        assertEquals(List.of("current_time", "witness"), tools(ALICE), "devs: *_time and witness, convert_time denied");
        List<String> bob = tools(BOB);
        assertTrue(bob.containsAll(List.of("convert_time", "current_time", "witness")), bob.toString());
        assertFalse(bob.contains("bundle_install") || bob.contains("bundles_list"), "admin tools need the admin role: " + bob);
        assertTrue(tools(ROOT).containsAll(List.of("bundle_install", "bundles_list", "convert_time")), tools(ROOT).toString());

        // a denied tool answers exactly what a tool that does not exist answers: no existence oracle
        JsonNode denied = call(ALICE, "convert_time", Map.of("source_timezone", "UTC", "time", "12:00",
                "target_timezone", "UTC"));
        JsonNode unknown = call(ALICE, "no_such_tool", Map.of());
        assertEquals(-32602, denied.path("error").path("code").asInt(), denied.toString());
        assertEquals(unknown.path("error").path("code").asInt(), denied.path("error").path("code").asInt());
        assertEquals(unknown.path("error").path("message").asString().replace("no_such_tool", "X"),
                denied.path("error").path("message").asString().replace("convert_time", "X"));
        JsonNode adminByBob = call(BOB, "bundles_list", Map.of());
        assertEquals(-32602, adminByBob.path("error").path("code").asInt(), adminByBob.toString());

        assertEquals("witnessed by-alice by alice", text(call(ALICE, "witness", Map.of("note", "by-alice"))));
        assertTrue(Files.readString(witness).contains("by-alice by alice"));

        // the audit trail has the denial with its rule, and the call that ran, and no credential
        JsonNode deniedLine = KeyedCalls.awaitAudit(server.home(), e -> "alice".equals(e.path("subject").asString())
                && "convert_time".equals(e.path("tool").asString()), EFFECT);
        JsonNode ranLine = KeyedCalls.awaitAudit(server.home(), e -> "alice".equals(e.path("subject").asString())
                && "witness".equals(e.path("tool").asString()), EFFECT);
        assertEquals("DENIED", deniedLine.path("ending").asString(), deniedLine.toString());
        assertTrue(deniedLine.path("rule").asString().contains("devs"), deniedLine.toString());
        assertEquals("COMPLETED", ranLine.path("ending").asString(), ranLine.toString());
        assertTrue(ranLine.path("argumentsDigest").asString().startsWith("sha256:"), ranLine.toString());
        String trail = Files.readString(server.home().resolve("audit/calls.jsonl"));
        assertFalse(trail.contains(ALICE) || trail.contains("by-alice"), "a credential or an argument reached the audit trail");
    }

    @Test
    void aDeniedResourceUriIsNotReadThroughATemplateEither() throws Exception {
        // test://template/{id}/data is a template of the conformance feature: before, only the template was checked
        JsonNode denied = read(CAROL, "test://template/7/data");
        JsonNode unknown = read(CAROL, "test://nothing/here");
        assertFalse(denied.has("result"), denied.toString());
        assertEquals(unknown.path("error").path("code").asInt(), denied.path("error").path("code").asInt(),
                "a denied URI answers as one that does not exist: " + denied);
        assertTrue(read(CAROL, "test://static-text").has("result"), "what the grant allows is read");
        assertTrue(read(ROOT, "test://template/7/data").has("result"), "the template serves whom it may");
    }

    @Test
    void aBundleThatCouldChangeTheTrustBoundaryNeedsTheOperatorRole() throws Exception {
        Path jar = emptyBundle("policy.jar", "evil.policy", "Import-Package", "io.quiver.api.call");
        JsonNode refused = call(ROOT, "bundle_install", Map.of("location", jar.toAbsolutePath().toString()));
        assertTrue(refused.path("result").path("isError").asBoolean(), refused.toString());
        assertTrue(text(refused).contains("operator"), refused.toString());
        assertFalse(call(ROOT, "bundles_list", Map.of()).toString().contains("evil.policy"), "it was not installed");

        // the same reach without importing the package: requiring the bundle that exports it (Configuration Admin,
        // running in this server) let an admin plant an operator's API key before
        Path required = emptyBundle("requires.jar", "evil.requires", "Require-Bundle", "org.apache.felix.configadmin");
        JsonNode alsoRefused = call(ROOT, "bundle_install", Map.of("location", required.toAbsolutePath().toString()));
        assertTrue(alsoRefused.path("result").path("isError").asBoolean(), alsoRefused.toString());
        assertTrue(text(alsoRefused).contains("org.osgi.service.cm (Require-Bundle org.apache.felix.configadmin)"),
                alsoRefused.toString());
        assertFalse(call(ROOT, "bundles_list", Map.of()).toString().contains("evil.requires"), "it was not installed");

        JsonNode installed = call(OPS, "bundle_install", Map.of("location", jar.toAbsolutePath().toString()));
        assertFalse(installed.path("result").path("isError").asBoolean(), installed.toString());
        assertTrue(call(ROOT, "bundles_list", Map.of()).toString().contains("evil.policy"), "the operator may");
    }

    /** A bundle of no classes, whose manifest has one header besides its name. */
    private Path emptyBundle(String file, String symbolicName, String header, String value) throws IOException {
        Path jar = installable.resolve(file);
        Manifest manifest = new Manifest();
        manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        manifest.getMainAttributes().putValue("Bundle-ManifestVersion", "2");
        manifest.getMainAttributes().putValue("Bundle-SymbolicName", symbolicName);
        manifest.getMainAttributes().putValue(header, value);
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar), manifest)) {
            out.flush();
        }
        return jar;
    }

    @Test
    void aGrantChangedWhileAClientIsConnectedTellsItThatItsToolsChanged() throws Exception {
        // before, the lists changed silently: a client kept offering a tool it could no longer call
        Path grant = server.home().resolve("etc/io.quiver.permissions.grant-support.cfg");
        String saved = Files.readString(grant);
        try (McpClient bob = McpClient.connect(server.url(), "bob", T, Credentials.bearer(BOB))) {
            io.quiver.itests.client.MessageStream stream = bob.openEventStream();
            Files.writeString(grant, saved + "deny = tool:witness\n");
            stream.await("notifications/tools/list_changed", 1, EFFECT);
            long deadline = System.nanoTime() + EFFECT.toNanos();
            while (tools(BOB).contains("witness")) {
                assertTrue(System.nanoTime() < deadline, "the new deny never applied");
                Thread.sleep(100);
            }
            Files.writeString(grant, saved);
            stream.await("notifications/tools/list_changed", 2, EFFECT);
        } finally {
            Files.writeString(grant, saved);
            long back = System.nanoTime() + EFFECT.toNanos();
            while (!tools(BOB).contains("witness") && System.nanoTime() < back) {
                Thread.sleep(100);
            }
        }
    }

    @Test
    void aGrantRemovedDuringACallLetsItFinishAndDeniesTheNext() throws Exception {
        Path grant = server.home().resolve("etc/io.quiver.permissions.grant-support.cfg");
        CompletableFuture<JsonNode> slow = CompletableFuture.supplyAsync(() -> {
            try {
                return call(BOB, "witness", Map.of("note", "slow", "sleepMs", 3000));
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        long deadline = System.nanoTime() + EFFECT.toNanos();
        while (!(Files.exists(witness) && Files.readString(witness).contains("started slow by bob"))) {
            assertTrue(System.nanoTime() < deadline, "the slow call never started");
            Thread.sleep(20);
        }
        String saved = Files.readString(grant);
        Files.delete(grant);
        try {
            while (tools(BOB).contains("witness")) {
                assertTrue(System.nanoTime() < deadline, "the removed grant still applies");
                Thread.sleep(100);
            }
            assertEquals("witnessed slow by bob", text(slow.get()), "the call in progress ended normally");
            JsonNode next = call(BOB, "witness", Map.of("note", "after-removal"));
            assertEquals(-32602, next.path("error").path("code").asInt(), next.toString());
            assertFalse(Files.readString(witness).contains("after-removal"), "the denied call ran");
        } finally {
            Files.writeString(grant, saved);
            long back = System.nanoTime() + EFFECT.toNanos();
            while (!tools(BOB).contains("witness") && System.nanoTime() < back) {
                Thread.sleep(100);
            }
        }
    }

    // -------------------------------------------------------------------------------------------

    private static List<String> tools(String key) throws Exception {
        return KeyedCalls.toolNames(server.url(), key);
    }

    private static JsonNode call(String key, String tool, Map<String, Object> arguments) throws Exception {
        return KeyedCalls.call(server.url(), key, tool, arguments);
    }

    private static JsonNode read(String key, String uri) throws Exception {
        HttpResponse<String> r = Probe.statelessExchange(server.url(), "resources/read", uri, Map.of("uri", uri),
                Credentials.bearer(key), T);
        assertEquals(200, r.statusCode(), r.body());
        return McpClient.JSON.readTree(r.body());
    }

    private static String text(JsonNode response) {
        return KeyedCalls.text(response);
    }
}
