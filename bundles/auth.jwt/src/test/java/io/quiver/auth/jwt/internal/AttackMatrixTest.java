package io.quiver.auth.jwt.internal;

import static io.quiver.auth.jwt.internal.Tokens.SECRET;
import static io.quiver.auth.jwt.internal.Tokens.assertAccepted;
import static io.quiver.auth.jwt.internal.Tokens.assertRefused;
import static io.quiver.auth.jwt.internal.Tokens.claims;
import static io.quiver.auth.jwt.internal.Tokens.config;
import static io.quiver.auth.jwt.internal.Tokens.sign;
import static io.quiver.auth.jwt.internal.Tokens.signer;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.PlainHeader;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.util.Base64;
import com.nimbusds.jose.util.Base64URL;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.PlainJWT;
import io.quiver.api.auth.Authentication;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.interfaces.RSAPublicKey;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import java.util.Set;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every token an attacker (or a confused client) might send, refused each with its reason. The server here
 * trusts one RSA key (publicKeyFile) unless a test says otherwise. Before each attack an honest token is
 * accepted, and each refusal must give its own reason, so no refusal passes for the wrong cause.
 */
class AttackMatrixTest {

    static final KeyPair RSA = Tokens.rsa(2048);
    static final KeyPair ATTACKER = Tokens.rsa(2048);

    @TempDir
    Path dir;
    private JwtAuthenticator authenticator;
    private String rsaPem;

    @BeforeEach
    void start() {
        rsaPem = Tokens.pem(RSA);
        authenticator = new JwtAuthenticator(config("publicKeyFile", Tokens.write(dir, "issuer.pem", rsaPem).toString(),
                "requiredClaims", "client_id"));
        assertEquals(List.of(), authenticator.problems());
    }

    @AfterEach
    void stop() {
        authenticator.deactivate();
    }

    private static JWTClaimsSet.Builder good() {
        return claims().claim("client_id", "claude");
    }

    private String rs256(JWTClaimsSet claims) {
        return sign(JWSAlgorithm.RS256, claims, signer(RSA));
    }

    /** The attack, and its honest twin accepted first. */
    private String attack(UnaryOperator<JWTClaimsSet.Builder> change) {
        assertAccepted(authenticator.authenticate(rs256(good().build())));
        return rs256(change.apply(good()).build());
    }

    /** The attack in the header, and the honest token accepted first. */
    private String attackHeader(UnaryOperator<JWSHeader.Builder> change, KeyPair signedBy) {
        assertAccepted(authenticator.authenticate(rs256(good().build())));
        return sign(change.apply(new JWSHeader.Builder(JWSAlgorithm.RS256)).build(), good().build(), signer(signedBy));
    }

    private String refused(String token, String... reason) {
        return assertRefused(authenticator.authenticate(token), token, reason);
    }

    // --- not a JWT at all: another authenticator's -------------------------------------------------

    @ParameterizedTest
    @ValueSource(strings = {"qvk_Zm9vYmFyYmF6cXV4Zm9vYmFyYmF6cXV4Zm9vYmFyYmE", "opaque-token", "a.b",
            "a.b.c.d.e", "ey J.ab.cd", "a..b", "a.b.c=", "a.b+/.c"})
    void notAJwtIsNotMine(String token) {
        assertEquals(Authentication.notMine(), authenticator.authenticate(token));
    }

    // --- malformed ----------------------------------------------------------------------------------

    @Test
    void threePartsThatAreNoJwtAreMalformed() {
        refused("abc.def.ghi", "malformed");
        String header = Base64URL.encode("{\"alg\":\"RS256\"}").toString();
        refused(header + "." + Base64URL.encode("not json") + ".c2ln", "malformed", "payload");
        refused(Base64URL.encode("{\"typ\":\"JWT\"}") + "." + Base64URL.encode("{}") + ".c2ln", "malformed");
    }

    // --- unsigned -------------------------------------------------------------------------------------

    @Test
    void algNoneIsRefused() {
        String none = new PlainJWT(good().build()).serialize();
        refused(none, "alg none");
        String header = Base64URL.encode("{\"alg\":\"None\"}").toString();
        String noneWithSignature = header + "." + Base64URL.encode(good().build().toString()) + ".c2lnbmF0dXJl";
        refused(noneWithSignature, "alg none");
        refused(new PlainJWT(new PlainHeader.Builder().type(JOSEObjectType.JWT).build(), good().build()).serialize(),
                "alg none");
    }

    // --- signature and keys -------------------------------------------------------------------------------

    @Test
    void wrongKeyIsABadSignature() {
        refused(attackHeader(h -> h.keyID("k1"), ATTACKER), "bad signature", "RS256");
    }

    @Test
    void alteredClaimsBreakTheSignature() {
        String token = rs256(good().build());
        String[] parts = token.split("\\.");
        String forged = parts[0] + "." + Base64URL.encode(good().subject("admin").build().toString()) + "." + parts[2];
        refused(forged, "bad signature");
    }

    @Test
    void hmacTokenWhenOnlyPublicKeysAreConfigured() {
        // the classic confusion: HS256 keyed with the public key the server holds
        String confused = sign(JWSAlgorithm.HS256, good().build(),
                Tokens.rawHmac(rsaPem.getBytes(StandardCharsets.US_ASCII)));
        refused(confused, "HS256", "not accepted", "hmacSecret");
        String confusedDer = sign(JWSAlgorithm.HS256, good().build(), Tokens.rawHmac(RSA.getPublic().getEncoded()));
        refused(confusedDer, "HS256", "not accepted");
    }

    @Test
    void hmacKeyedWithThePublicKeyFailsEvenWhenASecretIsConfigured() {
        authenticator.modified(config("hmacSecret", SECRET, "publicKeyFile", dir.resolve("issuer.pem").toString()));
        assertAccepted(authenticator.authenticate(sign(JWSAlgorithm.HS256, good().build(), Tokens.hmac(SECRET))));

        String confused = sign(JWSAlgorithm.HS256, good().build(),
                Tokens.rawHmac(rsaPem.getBytes(StandardCharsets.US_ASCII)));
        refused(confused, "bad signature");
    }

    @Test
    void publicKeyTokenWhenOnlyASecretIsConfigured() {
        authenticator.modified(config("hmacSecret", SECRET));
        assertAccepted(authenticator.authenticate(sign(JWSAlgorithm.HS256, good().build(), Tokens.hmac(SECRET))));

        refused(rs256(good().build()), "RS256", "not accepted", "public key");
        refused(sign(JWSAlgorithm.ES256, good().build(), signer(Tokens.ec("secp256r1"))), "ES256", "not accepted");
    }

    @Test
    void algorithmsTheKeysDoNotAllowAreRefused() {
        refused(sign(JWSAlgorithm.ES256, good().build(), signer(Tokens.ec("secp256r1"))), "ES256", "not accepted");
        refused(sign(JWSAlgorithm.EdDSA, good().build(), signer(Tokens.ed25519())), "EdDSA", "not accepted");
        // HS512 needs a 64-byte secret: a 40-byte one only allows HS256
        authenticator.modified(config("hmacSecret", SECRET));
        byte[] secret = SECRET.getBytes(StandardCharsets.UTF_8);
        assertAccepted(authenticator.authenticate(sign(JWSAlgorithm.HS256, good().build(), Tokens.rawHmac(secret))));
        refused(sign(JWSAlgorithm.HS512, good().build(), Tokens.rawHmac(secret)), "HS512", "not accepted");
    }

    // --- header parameters that name keys ------------------------------------------------------------------

    @Test
    void embeddedJwkIsRefused() {
        // signed by the attacker's key, which the header offers as the key to check it with
        RSAKey attackerKey = new RSAKey.Builder((RSAPublicKey) ATTACKER.getPublic()).build();
        refused(attackHeader(h -> h.jwk(attackerKey), ATTACKER), "jwk", "never names the key");
        refused(attackHeader(h -> h.jwk(attackerKey), RSA), "jwk");
    }

    @Test
    void jkuIsRefused() {
        refused(attackHeader(h -> h.jwkURL(URI.create("https://attacker.example/jwks.json")), ATTACKER), "jku");
    }

    @Test
    void x5uIsRefused() {
        refused(attackHeader(h -> h.x509CertURL(URI.create("https://attacker.example/cert.pem")), RSA), "x5u");
    }

    @Test
    void x5cIsRefused() {
        refused(attackHeader(h -> h.x509CertChain(List.of(Base64.encode(new byte[] {1, 2, 3}))), RSA), "x5c");
    }

    @Test
    void criticalExtensionsAreRefused() {
        refused(attackHeader(h -> h.customParam("exp-ext", 1).criticalParams(Set.of("exp-ext")), RSA), "critical");
    }

    // --- claims ---------------------------------------------------------------------------------------------

    @Test
    void expired() {
        refused(attack(c -> c.expirationTime(Date.from(Instant.now().minus(Duration.ofMinutes(5))))), "expired");
    }

    @Test
    void notYetValid() {
        refused(attack(c -> c.notBeforeTime(Date.from(Instant.now().plus(Duration.ofMinutes(5))))), "not valid before");
    }

    @Test
    void withoutExp() {
        refused(attack(c -> c.expirationTime(null)), "no exp");
    }

    @Test
    void wrongIssuer() {
        refused(attack(c -> c.issuer("https://login.example.com/realms/other")), "wrong issuer",
                "realms/other");
        refused(attack(c -> c.issuer(null)), "wrong issuer");
    }

    @Test
    void wrongAudience() {
        refused(attack(c -> c.audience("https://other-service.example.com")), "wrong audience", "another service");
        refused(attack(c -> c.audience(Tokens.AUDIENCE + "/")), "wrong audience");
        refused(attack(c -> c.audience((String) null)), "no aud");
    }

    @Test
    void missingRequiredClaims() {
        refused(attack(c -> c.claim("client_id", null)), "missing required claims", "client_id");
    }

    @Test
    void withoutSubject() {
        refused(attack(c -> c.subject(null)), "no subject", "sub");
    }

    @Test
    void malformedRolesOrTenant() {
        refused(attack(c -> c.claim("roles", List.of("admin", 1))), "roles");
        refused(attack(c -> c.claim("tenant", List.of("a", "b"))), "tenant");
    }

    // --- not an access token -------------------------------------------------------------------------------

    @ParameterizedTest
    @ValueSource(strings = {"refresh+jwt", "JWT-refresh", "id_token+jwt", "logout+jwt", "dpop+jwt"})
    void headerTypesOfOtherTokensAreRefused(String typ) {
        refused(attackHeader(h -> h.type(new JOSEObjectType(typ)), RSA), "typ", typ);
    }

    @Test
    void refreshTokensAreRefused() {
        refused(attackHeader(h -> h.type(new JOSEObjectType("refresh+jwt")), RSA), "refresh token");
        refused(attack(c -> c.claim("token_type", "refresh_token")), "refresh token", "token_type");
        refused(attack(c -> c.claim("typ", "Refresh")), "refresh token", "typ");
        refused(attack(c -> c.claim("token_use", "refresh")), "refresh token", "token_use");
        refused(attack(c -> c.claim("token_type", "urn:ietf:params:oauth:token-type:refresh_token")), "refresh token");
    }

    @Test
    void idTokensAreRefused() {
        refused(attack(c -> c.claim("token_use", "id")), "ID token");
        refused(attack(c -> c.claim("typ", "ID")), "ID token");
    }

    // --- the reason ----------------------------------------------------------------------------------------

    @Test
    void aCraftedKidCannotForgeLogLines() {
        String token = attackHeader(h -> h.keyID("k\n2025-01-01 INFO accepted admin"), ATTACKER);
        String reason = refused(token, "bad signature");
        assertEquals(-1, reason.indexOf('\n'), reason);
    }

    @Test
    void claimsOfTheWrongShapeAreRefused() {
        // a signed token whose claims cannot name a caller is refused, never taken with a part of its identity dropped
        refused(attack(c -> c.claim("sub", "  ")), "no subject", "not a text");
        refused(attack(c -> c.claim("roles", java.util.Map.of("admin", true))), "roles", "neither a list of texts nor a text");
        refused(attack(c -> c.claim("roles", 7)), "roles", "neither");
        refused(attack(c -> c.claim("scope", java.util.Map.of("read", true))), "scope", "neither a list of texts nor a text");
        refused(attack(c -> c.claim("scope", List.of("read", 2))), "scope", "neither");
    }

    @Test
    void anEncryptedHeaderInThreePartsIsRefused() {
        // a JWE has five parts; three parts with a JWE header (alg and enc) are no signed token either
        String header = Base64URL.encode("{\"alg\":\"RSA-OAEP-256\",\"enc\":\"A256GCM\"}").toString();
        refused(header + "." + Base64URL.encode(good().build().toString()) + ".c2lnbmF0dXJl", "encrypted", "JWE");
    }
}
