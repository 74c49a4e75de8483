package io.quiver.auth.jwt.internal;

import static io.quiver.auth.jwt.internal.Tokens.assertAccepted;
import static io.quiver.auth.jwt.internal.Tokens.assertRefused;
import static io.quiver.auth.jwt.internal.Tokens.claims;
import static io.quiver.auth.jwt.internal.Tokens.config;
import static io.quiver.auth.jwt.internal.Tokens.sign;
import static io.quiver.auth.jwt.internal.Tokens.signer;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.OctetKeyPair;
import com.nimbusds.jose.jwk.OctetSequenceKey;
import com.nimbusds.jose.jwk.RSAKey;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.interfaces.ECPublicKey;
import java.security.interfaces.RSAPublicKey;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Keys from a JWKS URL: an HTTPS server on loopback (a keytool certificate the client trusts) serves the
 * set and counts every request, so the tests show that keys are cached, that a new kid is fetched once,
 * that unknown kids cannot make the server fetch again and again, and that a token's header never makes
 * the server fetch anything.
 */
class JwksUrlTest {

    static final KeyPair FIRST = Tokens.rsa(2048);
    static final KeyPair SECOND = Tokens.ec("secp256r1");
    static final KeyPair ED = Tokens.ed25519();

    @TempDir
    static Path dir;
    static KeyToolKeys tls;

    private HttpsServer server;
    private final AtomicInteger requests = new AtomicInteger();
    private final AtomicReference<String> served = new AtomicReference<>();
    private final List<String> paths = new ArrayList<>();
    private JwtAuthenticator authenticator;

    @BeforeAll
    static void certificate() throws Exception {
        tls = KeyToolKeys.create(dir, "EC");
    }

    @BeforeEach
    void serve() throws Exception {
        server = HttpsServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.setHttpsConfigurator(new HttpsConfigurator(tls.serverContext()));
        server.createContext("/", exchange -> {
            requests.incrementAndGet();
            synchronized (paths) {
                paths.add(exchange.getRequestURI().getPath());
            }
            byte[] body = served.get().getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "application/jwk-set+json");
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.start();
    }

    @AfterEach
    void stop() {
        if (authenticator != null) {
            authenticator.deactivate();
        }
        server.stop(0);
    }

    private String url() {
        return "https://127.0.0.1:" + server.getAddress().getPort() + "/realms/main/jwks";
    }

    private void start(JWK... keys) throws Exception {
        served.set(new JWKSet(List.of(keys)).toString());
        authenticator = new JwtAuthenticator(config("jwksUrl", url()), tls.clientContext().getSocketFactory());
        assertEquals(List.of(), authenticator.problems());
        assertEquals(0, requests.get(), "nothing is fetched before a token needs it");
    }

    private static RSAKey first() {
        return new RSAKey.Builder((RSAPublicKey) FIRST.getPublic()).keyID("2025-01").build();
    }

    private static ECKey second() {
        return new ECKey.Builder(Curve.P_256, (ECPublicKey) SECOND.getPublic()).keyID("2025-02").build();
    }

    private static String token(JWSAlgorithm alg, String kid, KeyPair signedBy) {
        return sign(new JWSHeader.Builder(alg).keyID(kid).build(), claims().build(), signer(signedBy));
    }

    @Test
    void keysAreFetchedOnceAndCached() throws Exception {
        start(first());
        assertFalse(authenticator.waitsOnNothing(), "a kid not in the cached set is fetched: a check may wait");

        for (int i = 0; i < 20; i++) {
            assertAccepted(authenticator.authenticate(token(JWSAlgorithm.RS256, "2025-01", FIRST)));
        }

        assertEquals(1, requests.get(), "fetched per token");
        assertEquals(List.of("/realms/main/jwks"), paths);
    }

    @Test
    void aNewKidIsFetchedOnceWhenTheIssuerRotates() throws Exception {
        start(first());
        assertAccepted(authenticator.authenticate(token(JWSAlgorithm.RS256, "2025-01", FIRST)));
        String rotated = token(JWSAlgorithm.ES256, "2025-02", SECOND);

        served.set(new JWKSet(List.<JWK>of(first(), second())).toString());
        for (int i = 0; i < 10; i++) {
            assertAccepted(authenticator.authenticate(rotated));
            assertAccepted(authenticator.authenticate(token(JWSAlgorithm.RS256, "2025-01", FIRST)));
        }

        assertEquals(2, requests.get(), "the new kid is fetched once, then cached");
    }

    @Test
    void unknownKidsCannotMakeTheServerFetchAgainAndAgain() throws Exception {
        start(first());
        assertAccepted(authenticator.authenticate(token(JWSAlgorithm.RS256, "2025-01", FIRST)));

        List<String> reasons = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            String forged = token(JWSAlgorithm.RS256, "unknown-" + i, FIRST);
            reasons.add(assertRefused(authenticator.authenticate(forged), forged));
        }

        // one refetch for the first unknown kid; the rate limit (two per jwksMinRefreshSeconds) stops the rest
        assertEquals(2, requests.get(), "fetches: " + requests.get());
        assertEquals("no configured key verifies RS256 with kid 'unknown-0'", reasons.get(0));
        assertEquals("no key with kid 'unknown-1': the JWKS was just fetched and is fetched at most twice per 30 s",
                reasons.get(1));
        assertAccepted(authenticator.authenticate(token(JWSAlgorithm.RS256, "2025-01", FIRST)));
    }

    @Test
    void ed25519KeysFromTheUrlVerify() throws Exception {
        start(new OctetKeyPair.Builder(Ed25519Keys.jwk(ED.getPublic())).keyID("ed").build());

        assertAccepted(authenticator.authenticate(token(JWSAlgorithm.EdDSA, "ed", ED)));
        String wrong = token(JWSAlgorithm.EdDSA, "ed", Tokens.ed25519());
        assertRefused(authenticator.authenticate(wrong), wrong, "bad signature");
    }

    @Test
    void aSecretPublishedInTheJwksIsNeverUsed() throws Exception {
        byte[] secret = Tokens.SECRET.getBytes(StandardCharsets.UTF_8);
        start(first(), new OctetSequenceKey.Builder(secret).keyID("hmac").build());

        String hmac = sign(new JWSHeader.Builder(JWSAlgorithm.HS256).keyID("hmac").build(), claims().build(),
                Tokens.rawHmac(secret));
        assertRefused(authenticator.authenticate(hmac), hmac, "HS256", "not accepted");
        assertEquals(0, requests.get());
    }

    @Test
    void aTokenNeverMakesTheServerFetchItsUrls() throws Exception {
        start(first());
        String self = "https://127.0.0.1:" + server.getAddress().getPort() + "/attacker";
        String jku = sign(new JWSHeader.Builder(JWSAlgorithm.RS256).keyID("x").jwkURL(URI.create(self)).build(),
                claims().build(), signer(FIRST));
        String x5u = sign(new JWSHeader.Builder(JWSAlgorithm.RS256).keyID("x").x509CertURL(URI.create(self)).build(),
                claims().build(), signer(FIRST));

        assertRefused(authenticator.authenticate(jku), jku, "jku");
        assertRefused(authenticator.authenticate(x5u), x5u, "x5u");
        assertEquals(0, requests.get());
    }

    @Test
    void anUntrustedCertificateIsNoSourceOfKeys() throws Exception {
        served.set(new JWKSet(first()).toString());
        // the JVM's default trust does not know the test certificate
        authenticator = new JwtAuthenticator(config("jwksUrl", url()));
        String token = token(JWSAlgorithm.RS256, "2025-01", FIRST);

        assertRefused(authenticator.authenticate(token), token, "JWKS could not be fetched");
        assertEquals(0, requests.get(), "the TLS handshake failed before any request");
    }
}
