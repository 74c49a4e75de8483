package io.quiver.itests.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.PlainJWT;
import com.nimbusds.jwt.SignedJWT;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.spec.McpSchema;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * The authentication boundary over real HTTP with real signed tokens: every forged, stale or
 * misdirected credential is refused with 401 and the {@code WWW-Authenticate} challenge that names
 * the protected-resource metadata, and the witness tool's file proves none of those calls ran, while
 * the same call with a good JWT or API key does run (and is witnessed). Also: the metadata itself,
 * missing scopes (403), a session that belongs to another subject (404), the Origin check with a
 * good token, a revoked API key, and the official Java and TypeScript SDK clients with a static
 * Authorization header (as Claude Code's {@code headers} sends it) and without one.
 */
class AuthenticationIT {

    private static final String RESOURCE = "https://mcp.quiver.test/mcp";
    private static final String METADATA = "https://mcp.quiver.test/.well-known/oauth-protected-resource/mcp";
    private static final String ISSUER = "https://issuer.quiver.test";
    private static final String SCOPE = "mcp:tools";
    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();

    private static RSAKey signingKey;
    private static String apiKey;
    private static String revokedKey;
    private static QuiverServer server;
    private static Path witness;

    @BeforeAll
    static void start() throws Exception {
        signingKey = new RSAKeyGenerator(2048).keyID("good").generate();
        apiKey = newApiKey();
        revokedKey = newApiKey();
        String publicKeyPem = "-----BEGIN PUBLIC KEY-----\n" + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII))
                .encodeToString(signingKey.toRSAPublicKey().getEncoded()) + "\n-----END PUBLIC KEY-----\n";
        String ciKey = apiKeyConfig(apiKey, "ci-bot");
        String oldKey = apiKeyConfig(revokedKey, "old-bot");
        server = QuiverServer.start("auth", "core,http,tools-default", home -> {
            Path keys = Files.createDirectories(home.resolve("keys"));
            Path pem = keys.resolve("issuer.pem");
            Files.writeString(pem, publicKeyPem);
            Files.writeString(home.resolve("etc/io.quiver.auth.jwt.cfg"), "issuer = " + ISSUER + "\naudience = " + RESOURCE
                    + "\npublicKeyFile = " + pem.toAbsolutePath().toString().replace('\\', '/') + "\n");
            Files.writeString(home.resolve("etc/io.quiver.auth.apikey-ci.cfg"), ciKey);
            Files.writeString(home.resolve("etc/io.quiver.auth.apikey-old.cfg"), oldKey);
            Files.writeString(home.resolve("etc/io.quiver.transport.http.cfg"), "resourceUrl = " + RESOURCE
                    + "\nauthorizationServers = " + ISSUER + "\nrequiredScopes = " + SCOPE + "\n");
            witness = Witness.install(home);
        });
        // the witness tool comes from deploy/: wait until a good caller can use it
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (call("warm-up", bearer(token(claims("alice")))).statusCode() != 200 || !text(call("warm-up",
                bearer(token(claims("alice"))))).contains("witnessed")) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("the witness tool never became callable:\n" + server.log());
            }
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
    void everyBadCredentialIsRefusedAndNoneOfTheirCallsRan() throws Exception {
        RSAKey attacker = new RSAKeyGenerator(2048).keyID("good").generate();
        Map<String, Map<String, String>> attacks = new LinkedHashMap<>();
        attacks.put("no-token", Map.of());
        attacks.put("not-bearer", Map.of("Authorization", "Basic YWxpY2U6c2VjcmV0"));
        attacks.put("malformed", bearer("not.a.token"));
        attacks.put("garbage", bearer("%%%%"));
        attacks.put("alg-none", bearer(new PlainJWT(claims("alice").build()).serialize()));
        attacks.put("wrong-key", bearer(sign(attacker, new JWSHeader.Builder(JWSAlgorithm.RS256).keyID("good"),
                claims("alice"))));
        attacks.put("hs-rs-confusion", bearer(hmacWithPublicKey(claims("alice"))));
        attacks.put("expired", bearer(token(claims("alice").expirationTime(Date.from(Instant.now().minusSeconds(600))))));
        attacks.put("not-yet-valid", bearer(token(claims("alice").notBeforeTime(Date.from(Instant.now().plusSeconds(3600))))));
        attacks.put("wrong-issuer", bearer(token(claims("alice").issuer("https://evil.example"))));
        attacks.put("wrong-audience", bearer(token(claims("alice").audience("https://other.example/mcp"))));
        attacks.put("refresh-token-typ", bearer(sign(signingKey, new JWSHeader.Builder(JWSAlgorithm.RS256).keyID("good")
                .type(new JOSEObjectType("refresh+jwt")), claims("alice"))));
        attacks.put("refresh-token-claim", bearer(token(claims("alice").claim("token_type", "refresh_token"))));
        attacks.put("forged-jku", bearer(sign(attacker, new JWSHeader.Builder(JWSAlgorithm.RS256).keyID("evil")
                .jwkURL(URI.create("https://evil.example/jwks.json")), claims("alice"))));
        attacks.put("embedded-jwk", bearer(sign(attacker, new JWSHeader.Builder(JWSAlgorithm.RS256)
                .jwk(attacker.toPublicJWK()), claims("alice"))));
        attacks.put("unknown-api-key", bearer(newApiKey()));
        attacks.put("api-key-truncated", bearer(apiKey.substring(0, apiKey.length() - 1)));

        for (Map.Entry<String, Map<String, String>> attack : attacks.entrySet()) {
            HttpResponse<String> r = call("attack-" + attack.getKey(), attack.getValue());
            assertEquals(401, r.statusCode(), attack.getKey() + ": " + r.body());
            String challenge = r.headers().firstValue("WWW-Authenticate").orElse("");
            assertTrue(challenge.startsWith("Bearer "), attack.getKey() + ": " + challenge);
            assertTrue(challenge.contains("resource_metadata=\"" + METADATA + "\""), attack.getKey() + ": " + challenge);
            boolean presented = attack.getValue().getOrDefault("Authorization", "").startsWith("Bearer ");
            assertEquals(presented, challenge.contains("error=\"invalid_token\""), attack.getKey() + ": " + challenge);
        }

        // the positive controls: the same call with good credentials runs, and the witness saw it
        assertEquals("witnessed control-jwt by alice", text(call("control-jwt", bearer(token(claims("alice"))))));
        assertEquals("witnessed control-key by ci-bot", text(call("control-key", bearer(apiKey))));
        String seen = Files.readString(witness);
        assertTrue(seen.contains("control-jwt by alice") && seen.contains("control-key by ci-bot"), seen);
        assertFalse(seen.contains("attack-"), "a refused call ran:\n" + seen);
        // and no token reached the log
        assertFalse(server.log().contains(apiKey), "the API key was logged");
    }

    @Test
    void aTokenWithoutTheRequiredScopeIsForbidden() throws Exception {
        JWTClaimsSet.Builder noScope = claims("alice");
        noScope.claim("scope", "mcp:other");
        HttpResponse<String> r = call("attack-scope", bearer(token(noScope)));
        assertEquals(403, r.statusCode(), r.body());
        String challenge = r.headers().firstValue("WWW-Authenticate").orElse("");
        assertTrue(challenge.contains("error=\"insufficient_scope\"") && challenge.contains("scope=\"" + SCOPE + "\""),
                challenge);
        assertFalse(Files.readString(witness).contains("attack-scope"));
    }

    @Test
    void theMetadataNamesTheResourceAndItsAuthorizationServer() throws Exception {
        URI url = URI.create(server.url()).resolve("/.well-known/oauth-protected-resource/mcp");
        HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(url).GET().build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), r.body());
        JsonNode metadata = io.quiver.itests.client.McpClient.JSON.readTree(r.body());
        assertEquals(RESOURCE, metadata.path("resource").asString());
        assertEquals(ISSUER, metadata.path("authorization_servers").path(0).asString());
        assertEquals("header", metadata.path("bearer_methods_supported").path(0).asString());
    }

    @Test
    void aSessionBelongsToTheSubjectThatOpenedIt() throws Exception {
        HttpResponse<String> init = post(initialize(), Map.of("Authorization", "Bearer " + token(claims("alice"))));
        assertEquals(200, init.statusCode(), init.body());
        String session = init.headers().firstValue("Mcp-Session-Id").orElseThrow();
        Map<String, String> bob = new LinkedHashMap<>(bearer(token(claims("bob"))));
        bob.put("Mcp-Session-Id", session);
        bob.put("MCP-Protocol-Version", "2025-11-25");
        HttpResponse<String> stolen = post("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":"
                + "{\"name\":\"witness\",\"arguments\":{\"note\":\"attack-session\"}}}", bob);
        assertEquals(404, stolen.statusCode(), stolen.body());
        HttpResponse<String> get = HTTP.send(HttpRequest.newBuilder(URI.create(server.url())).header("Accept", "text/event-stream")
                .header("Authorization", bob.get("Authorization")).header("Mcp-Session-Id", session).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(404, get.statusCode(), get.body());
        assertFalse(Files.readString(witness).contains("attack-session"));
    }

    @Test
    void aCrossSiteRequestIsRefusedEvenWithAGoodToken() throws Exception {
        Map<String, String> headers = new LinkedHashMap<>(bearer(token(claims("alice"))));
        headers.put("Origin", "https://evil.example");
        HttpResponse<String> r = call("attack-origin", headers);
        assertEquals(403, r.statusCode(), r.body());
        assertFalse(Files.readString(witness).contains("attack-origin"));
    }

    @Test
    void aDeletedApiKeyIsRevoked() throws Exception {
        assertEquals("witnessed before-revoke by old-bot", text(call("before-revoke", bearer(revokedKey))));
        Files.delete(server.home().resolve("etc/io.quiver.auth.apikey-old.cfg"));
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        int status;
        while ((status = call("probe-revoked", bearer(revokedKey)).statusCode()) == 200) {
            assertTrue(System.nanoTime() < deadline, "the deleted key still works");
            Thread.sleep(100);
        }
        assertEquals(401, status);
        assertEquals("witnessed after-revoke by ci-bot", text(call("after-revoke", bearer(apiKey))));
    }

    @Test
    void theJavaSdkClientWorksWithAStaticAuthorizationHeaderAndIsRefusedWithout() throws Exception {
        URI uri = URI.create(server.url());
        String token = token(claims("sdk-user"));
        McpSyncClient client = McpClient.sync(HttpClientStreamableHttpTransport.builder(server.base())
                        .endpoint(uri.getPath())
                        .requestBuilder(HttpRequest.newBuilder().header("Authorization", "Bearer " + token))
                        .build())
                .requestTimeout(Duration.ofSeconds(20)).build();
        try {
            client.initialize();
            List<String> names = client.listTools().tools().stream().map(McpSchema.Tool::name).toList();
            assertTrue(names.contains("witness") && names.contains("current_time"), names.toString());
            McpSchema.CallToolResult result = client.callTool(new McpSchema.CallToolRequest("witness",
                    Map.of("note", "sdk-call")));
            McpSchema.TextContent text = assertInstanceOf(McpSchema.TextContent.class, result.content().get(0));
            assertEquals("witnessed sdk-call by sdk-user", text.text());
        } finally {
            client.closeGracefully();
        }
        McpSyncClient anonymous = McpClient.sync(HttpClientStreamableHttpTransport.builder(server.base())
                .endpoint(uri.getPath()).build()).requestTimeout(Duration.ofSeconds(10)).build();
        try {
            Exception refused = null;
            try {
                anonymous.initialize();
            } catch (Exception e) {
                refused = e;
            }
            assertNotNull(refused, "a client without a token was let in");
        } finally {
            anonymous.close();
        }
    }

    @Test
    void theTypeScriptSdkClientWorksWithAStaticAuthorizationHeaderAndIsRefusedWithout() throws Exception {
        Path clientDir = TsClients.dir("@modelcontextprotocol/client");
        Path node = TsClients.node();
        List<JsonNode> withToken = node(node, clientDir, server.url(), token(claims("ts-user")));
        JsonNode tools = withToken.get(0);
        assertEquals("tools", tools.path("step").asString(), withToken.toString());
        assertTrue(tools.path("names").toString().contains("\"witness\""), withToken.toString());
        assertEquals("witnessed ts-call by ts-user", withToken.get(1).path("text").asString(), withToken.toString());

        List<JsonNode> without = node(node, clientDir, server.url(), null);
        JsonNode refused = without.get(0);
        assertEquals("refused", refused.path("step").asString(), without.toString());
        assertEquals(401, refused.path("status").asInt(), without.toString());
        assertTrue(refused.path("wwwAuthenticate").asString().contains("resource_metadata=\"" + METADATA + "\""),
                without.toString());
    }

    /** Runs the TypeScript client script; its JSON step lines. */
    private static List<JsonNode> node(Path node, Path clientDir, String url, String token) throws Exception {
        List<String> command = new java.util.ArrayList<>(List.of(node.toString(), clientDir.resolve("auth-client.mjs").toString(), url));
        if (token != null) {
            command.add(token);
        }
        Path stderr = Files.createTempFile(server.home(), "ts-auth", ".log");
        Process process = new ProcessBuilder(command).directory(clientDir.toFile()).redirectError(stderr.toFile()).start();
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(60, java.util.concurrent.TimeUnit.SECONDS), "the client did not finish");
        assertEquals(0, process.exitValue(), () -> out + "\n" + read(stderr));
        List<JsonNode> steps = new java.util.ArrayList<>();
        for (String line : out.split("\n")) {
            if (line.startsWith("{")) {
                steps.add(io.quiver.itests.client.McpClient.JSON.readTree(line));
            }
        }
        assertFalse(steps.isEmpty(), () -> out + "\n" + read(stderr));
        return steps;
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (java.io.IOException e) {
            return e.toString();
        }
    }

    // -------------------------------------------------------------------------------------------

    private static HttpResponse<String> call(String note, Map<String, String> headers) throws Exception {
        return Probe.statelessExchange(server.url(), "tools/call", "witness",
                Map.of("name", "witness", "arguments", Map.of("note", note)), headers, Duration.ofSeconds(10));
    }

    private static String text(HttpResponse<String> r) {
        JsonNode response = io.quiver.itests.client.McpClient.JSON.readTree(r.body());
        return response.path("result").path("content").path(0).path("text").asString();
    }

    private static HttpResponse<String> post(String body, Map<String, String> headers) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(server.url())).timeout(Duration.ofSeconds(10))
                .header("Content-Type", "application/json").header("Accept", "application/json, text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofString(body));
        headers.forEach(b::header);
        return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static String initialize() {
        return "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-11-25\","
                + "\"capabilities\":{},\"clientInfo\":{\"name\":\"auth-test\",\"version\":\"1\"}}}";
    }

    private static Map<String, String> bearer(String token) {
        return Credentials.bearer(token);
    }

    private static JWTClaimsSet.Builder claims(String subject) {
        Instant now = Instant.now();
        return new JWTClaimsSet.Builder().subject(subject).issuer(ISSUER).audience(RESOURCE)
                .issueTime(Date.from(now)).expirationTime(Date.from(now.plusSeconds(600)))
                .jwtID(UUID.randomUUID().toString()).claim("scope", SCOPE);
    }

    private static String token(JWTClaimsSet.Builder claims) throws Exception {
        return sign(signingKey, new JWSHeader.Builder(JWSAlgorithm.RS256).keyID("good"), claims);
    }

    private static String sign(RSAKey key, JWSHeader.Builder header, JWTClaimsSet.Builder claims) throws Exception {
        SignedJWT jwt = new SignedJWT(header.build(), claims.build());
        jwt.sign(new RSASSASigner(key));
        return jwt.serialize();
    }

    /** The classic confusion: HS256 "signed" with the server's RSA public key as the HMAC secret. */
    private static String hmacWithPublicKey(JWTClaimsSet.Builder claims) throws Exception {
        SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.HS256).keyID("good").build(), claims.build());
        jwt.sign(new MACSigner(signingKey.toRSAPublicKey().getEncoded()));
        return jwt.serialize();
    }

    private static String newApiKey() {
        return Credentials.newApiKey();
    }

    private static String apiKeyConfig(String key, String subject) {
        return Credentials.apiKeyConfig(key, subject, "ci", SCOPE);
    }
}
