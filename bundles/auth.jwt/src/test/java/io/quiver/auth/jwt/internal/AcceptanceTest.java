package io.quiver.auth.jwt.internal;

import static io.quiver.auth.jwt.internal.Tokens.AUDIENCE;
import static io.quiver.auth.jwt.internal.Tokens.SECRET;
import static io.quiver.auth.jwt.internal.Tokens.assertAccepted;
import static io.quiver.auth.jwt.internal.Tokens.assertRefused;
import static io.quiver.auth.jwt.internal.Tokens.claims;
import static io.quiver.auth.jwt.internal.Tokens.config;
import static io.quiver.auth.jwt.internal.Tokens.sign;
import static io.quiver.auth.jwt.internal.Tokens.signer;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import io.quiver.api.CallerIdentity;
import io.quiver.api.auth.Authentication;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.interfaces.ECPublicKey;
import java.security.interfaces.RSAPublicKey;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Tokens that are accepted: each kind of key, and the caller their claims name. */
class AcceptanceTest {

    static final KeyPair RSA = Tokens.rsa(2048);
    static final KeyPair EC256 = Tokens.ec("secp256r1");
    static final KeyPair EC384 = Tokens.ec("secp384r1");
    static final KeyPair EC521 = Tokens.ec("secp521r1");
    static final KeyPair ED = Tokens.ed25519();

    @TempDir
    Path dir;
    private JwtAuthenticator authenticator;

    @AfterEach
    void stop() {
        if (authenticator != null) {
            authenticator.deactivate();
        }
    }

    private JwtAuthenticator start(Map<String, Object> config) {
        authenticator = new JwtAuthenticator(config);
        assertEquals(List.of(), authenticator.problems());
        return authenticator;
    }

    private Path pemFile(KeyPair... pairs) {
        StringBuilder pem = new StringBuilder();
        for (KeyPair pair : pairs) {
            pem.append(Tokens.pem(pair));
        }
        return Tokens.write(dir, "keys.pem", pem.toString());
    }

    @Test
    void withKeysInMemoryACheckWaitsOnNothing() {
        // the HTTP transport then checks credentials on the thread that read the request
        assertTrue(start(config("hmacSecret", SECRET)).waitsOnNothing());
        authenticator.deactivate();
        assertTrue(start(config("publicKeyFile", pemFile(RSA).toString())).waitsOnNothing());
    }

    @Test
    void hmacSecretVerifiesHs256AndMapsTheCaller() {
        start(config("hmacSecret", SECRET));
        String token = sign(JWSAlgorithm.HS256, claims().claim("scope", "tools:read tools:call").build(),
                Tokens.hmac(SECRET));

        Authentication result = assertAccepted(authenticator.authenticate(token));

        assertEquals(new CallerIdentity("alice", "default", Set.of(), true), result.caller());
        assertEquals(Set.of("tools:read", "tools:call"), result.scopes());
    }

    @Test
    void aBase64SecretIsItsBytes() {
        byte[] secret = new byte[64];
        new java.security.SecureRandom().nextBytes(secret);
        start(config("hmacSecret", "base64:" + java.util.Base64.getEncoder().encodeToString(secret)));

        for (JWSAlgorithm alg : List.of(JWSAlgorithm.HS256, JWSAlgorithm.HS384, JWSAlgorithm.HS512)) {
            assertAccepted(authenticator.authenticate(sign(alg, claims().build(), Tokens.rawHmac(secret))));
        }
    }

    @Test
    void rsaPublicKeyFileVerifiesRsAndPsWhateverTheKid() {
        start(config("publicKeyFile", pemFile(RSA).toString()));

        for (JWSAlgorithm alg : List.of(JWSAlgorithm.RS256, JWSAlgorithm.RS384, JWSAlgorithm.RS512,
                JWSAlgorithm.PS256, JWSAlgorithm.PS384, JWSAlgorithm.PS512)) {
            String token = sign(new JWSHeader.Builder(alg).keyID("rotated-2025").build(), claims().build(), signer(RSA));
            assertAccepted(authenticator.authenticate(token));
        }
    }

    @Test
    void ecPublicKeysVerifyTheAlgorithmOfTheirCurve() {
        start(config("publicKeyFile", pemFile(EC256, EC384, EC521).toString()));

        assertAccepted(authenticator.authenticate(sign(JWSAlgorithm.ES256, claims().build(), signer(EC256))));
        assertAccepted(authenticator.authenticate(sign(JWSAlgorithm.ES384, claims().build(), signer(EC384))));
        assertAccepted(authenticator.authenticate(sign(JWSAlgorithm.ES512, claims().build(), signer(EC521))));
    }

    @Test
    void ed25519PublicKeyVerifiesEdDsaWithTheJdk() {
        start(config("publicKeyFile", pemFile(ED).toString()));

        assertAccepted(authenticator.authenticate(sign(JWSAlgorithm.EdDSA, claims().build(), signer(ED))));
        assertAccepted(authenticator.authenticate(sign(JWSAlgorithm.Ed25519, claims().build(), signer(ED))));
        // another Ed25519 key's signature is not this key's
        String otherKey = sign(JWSAlgorithm.EdDSA, claims().build(), signer(Tokens.ed25519()));
        assertRefused(authenticator.authenticate(otherKey), otherKey, "bad signature");
    }

    @Test
    void certificateInThePemFileGivesItsKey() throws Exception {
        KeyToolKeys tls = KeyToolKeys.create(dir, "RSA");
        start(config("publicKeyFile", Tokens.write(dir, "cert.pem",
                Tokens.pem("CERTIFICATE", tls.certificate().getEncoded())).toString()));

        String token = sign(JWSAlgorithm.RS256, claims().build(), new com.nimbusds.jose.crypto.RSASSASigner(tls.privateKey()));
        assertAccepted(authenticator.authenticate(token));
    }

    @Test
    void jwksFileKeysAreChosenByKid() {
        JWKSet set = new JWKSet(List.of(
                new RSAKey.Builder((RSAPublicKey) RSA.getPublic()).keyID("rsa-1").build(),
                new ECKey.Builder(Curve.P_256, (ECPublicKey) EC256.getPublic()).keyID("ec-1").build(),
                Ed25519Keys.jwk(ED.getPublic())));
        start(config("jwksFile", Tokens.write(dir, "jwks.json", set.toString()).toString()));

        assertAccepted(authenticator.authenticate(sign(new JWSHeader.Builder(JWSAlgorithm.RS256).keyID("rsa-1").build(),
                claims().build(), signer(RSA))));
        assertAccepted(authenticator.authenticate(sign(new JWSHeader.Builder(JWSAlgorithm.ES256).keyID("ec-1").build(),
                claims().build(), signer(EC256))));
        assertAccepted(authenticator.authenticate(sign(JWSAlgorithm.EdDSA, claims().build(), signer(ED))));
        String unknownKid = sign(new JWSHeader.Builder(JWSAlgorithm.RS256).keyID("rsa-2").build(), claims().build(),
                signer(RSA));
        assertRefused(authenticator.authenticate(unknownKid), unknownKid, "no configured key", "'rsa-2'");
    }

    @Test
    void accessTokenTypesAreAccepted() {
        start(config("hmacSecret", SECRET));
        for (String typ : List.of("JWT", "at+jwt", "application/at+JWT")) {
            String token = sign(new JWSHeader.Builder(JWSAlgorithm.HS256).type(new JOSEObjectType(typ)).build(),
                    claims().claim("typ", "Bearer").claim("token_use", "access").build(), Tokens.hmac(SECRET));
            assertAccepted(authenticator.authenticate(token));
        }
    }

    @Test
    void tenantRolesAndScopesComeFromTheirClaims() {
        start(config("hmacSecret", SECRET));

        Authentication listed = assertAccepted(authenticator.authenticate(sign(JWSAlgorithm.HS256, claims()
                .claim("tenant", "acme").claim("roles", List.of("admin", "dev")).claim("scope", List.of("a", "b"))
                .build(), Tokens.hmac(SECRET))));
        assertEquals(new CallerIdentity("alice", "acme", Set.of("admin", "dev"), true), listed.caller());
        assertEquals(Set.of("a", "b"), listed.scopes());

        Authentication text = assertAccepted(authenticator.authenticate(sign(JWSAlgorithm.HS256, claims()
                .claim("roles", "admin dev,ops").claim("scp", "files.read files.write").build(), Tokens.hmac(SECRET))));
        assertEquals(Set.of("admin", "dev", "ops"), text.caller().roles());
        assertEquals(Set.of("files.read", "files.write"), text.scopes(), "scp is read when scope is absent");
    }

    @Test
    void customClaimNamesAndNestedPaths() {
        start(config("hmacSecret", SECRET, "subjectClaim", "email", "tenantClaim", "org.id",
                "rolesClaim", "realm_access.roles", "scopeClaim", "https://example.com/permissions"));
        String token = sign(JWSAlgorithm.HS256, claims().subject("ignored")
                .claim("email", "alice@example.com")
                .claim("org", Map.of("id", 42))
                .claim("realm_access", Map.of("roles", List.of("reader")))
                .claim("https://example.com/permissions", "read write")
                .claim("scope", "not-this")
                .build(), Tokens.hmac(SECRET));

        Authentication result = assertAccepted(authenticator.authenticate(token));

        assertEquals(new CallerIdentity("alice@example.com", "42", Set.of("reader"), true), result.caller());
        assertEquals(Set.of("read", "write"), result.scopes());
    }

    @Test
    void aSubjectPrefixKeepsTokenSubjectsApartFromOtherAuthenticators() {
        start(config("hmacSecret", SECRET, "subjectPrefix", "idp:"));
        String token = sign(JWSAlgorithm.HS256, claims().subject("ci").build(), Tokens.hmac(SECRET));

        Authentication result = assertAccepted(authenticator.authenticate(token));

        assertEquals("idp:ci", result.caller().subject(), "not the API key subject ci");
    }

    @Test
    void oneOfSeveralAudiencesSuffices() {
        start(config("hmacSecret", SECRET, "audience", "https://other.example.com, " + AUDIENCE));

        String token = sign(JWSAlgorithm.HS256, claims().audience(List.of("account", AUDIENCE)).build(),
                Tokens.hmac(SECRET));
        assertAccepted(authenticator.authenticate(token));
    }

    @Test
    void expiredWithinTheClockSkewIsAccepted() {
        Date thirtySecondsAgo = Date.from(Instant.now().minus(Duration.ofSeconds(30)));
        String token = sign(JWSAlgorithm.HS256, claims().expirationTime(thirtySecondsAgo).build(), Tokens.hmac(SECRET));

        start(config("hmacSecret", SECRET));
        assertAccepted(authenticator.authenticate(token));

        authenticator.modified(config("hmacSecret", SECRET, "clockSkewSeconds", "0"));
        assertTrue(authenticator.authenticate(token).reason().startsWith("expired"));
    }

    @Test
    void aSecretOfExactly32BytesIsEnoughForHs256() {
        String secret = "0123456789abcdef0123456789ABCDEF";
        assertEquals(32, secret.length());
        start(config("hmacSecret", secret));
        assertAccepted(authenticator.authenticate(sign(JWSAlgorithm.HS256, claims().build(), Tokens.hmac(secret))));
    }

    @Test
    void numericClaimsAreTheNumbersAsWritten() {
        // a user id 42 is "42" whether the issuer wrote 42 or 42.0; 4.5 stays 4.5 and is never taken for user 4
        start(config("hmacSecret", SECRET, "subjectClaim", "uid", "tenantClaim", "org.id"));
        Authentication whole = assertAccepted(authenticator.authenticate(sign(JWSAlgorithm.HS256,
                claims().claim("uid", 42.0).claim("org", Map.of("id", 7.0)).build(), Tokens.hmac(SECRET))));
        assertEquals(new CallerIdentity("42", "7", Set.of(), true), whole.caller());
        Authentication fraction = assertAccepted(authenticator.authenticate(sign(JWSAlgorithm.HS256,
                claims().claim("uid", 4.5).claim("org", Map.of("id", 7.25)).build(), Tokens.hmac(SECRET))));
        assertEquals(new CallerIdentity("4.5", "7.25", Set.of(), true), fraction.caller());
        Authentication large = assertAccepted(authenticator.authenticate(sign(JWSAlgorithm.HS256,
                claims().claim("uid", 123456789012L).build(), Tokens.hmac(SECRET))));
        assertEquals("123456789012", large.caller().subject());
    }
}
