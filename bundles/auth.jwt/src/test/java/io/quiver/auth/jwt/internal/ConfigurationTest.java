package io.quiver.auth.jwt.internal;

import static io.quiver.auth.jwt.internal.Tokens.SECRET;
import static io.quiver.auth.jwt.internal.Tokens.assertAccepted;
import static io.quiver.auth.jwt.internal.Tokens.assertRefused;
import static io.quiver.auth.jwt.internal.Tokens.claims;
import static io.quiver.auth.jwt.internal.Tokens.config;
import static io.quiver.auth.jwt.internal.Tokens.sign;
import static io.quiver.auth.jwt.internal.Tokens.signer;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.OctetSequenceKey;
import com.nimbusds.jose.jwk.RSAKey;
import io.quiver.api.operator.Problem;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.interfaces.RSAPrivateCrtKey;
import java.security.interfaces.RSAPublicKey;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Configurations that cannot be used lock the server: the component stays, refuses every token with the
 * reason, and lists the problem. Changes apply in place.
 */
class ConfigurationTest {

    static final KeyPair RSA = Tokens.rsa(2048);
    static final String HS256 = sign(JWSAlgorithm.HS256, claims().build(), Tokens.hmac(SECRET));

    @TempDir
    Path dir;
    private JwtAuthenticator authenticator;

    @AfterEach
    void stop() {
        if (authenticator != null) {
            authenticator.deactivate();
        }
    }

    /** Starts with a configuration that cannot be used; asserts it refuses a good token and says why. */
    private String unusable(Map<String, Object> config, String... problem) {
        authenticator = new JwtAuthenticator(config);
        List<Problem> problems = authenticator.problems();
        assertFalse(problems.isEmpty(), "no problem listed");
        String text = problems.toString();
        for (String part : problem) {
            assertTrue(text.contains(part), () -> text + " does not say " + part);
        }
        assertTrue(text.contains("every JWT is refused"), text);
        String reason = assertRefused(authenticator.authenticate(HS256), HS256, "not usable", problem[0]);
        assertTrue(reason.contains("configuration " + JwtAuthenticator.PID), reason);
        return text;
    }

    private String pemFile(String name, String pem) {
        return Tokens.write(dir, name, pem).toString();
    }

    @Test
    void issuerIsRequired() {
        unusable(config("issuer", null, "hmacSecret", SECRET), "issuer is not set", "issuer identifier");
        authenticator.modified(config("issuer", " ", "hmacSecret", SECRET));
        assertRefused(authenticator.authenticate(HS256), HS256, "issuer is not set");
    }

    @Test
    void audienceIsRequired() {
        unusable(config("audience", null, "hmacSecret", SECRET), "audience is not set", "resource URL");
        authenticator.modified(config("audience", " , ", "hmacSecret", SECRET));
        assertRefused(authenticator.authenticate(HS256), HS256, "audience is not set");
    }

    @Test
    void aKeyIsRequired() {
        unusable(config(), "no key is configured", "hmacSecret, publicKeyFile, jwksFile or jwksUrl");
    }

    @Test
    void aShortSecretIsRefusedAndNeverShown() {
        String secret = "s3cr3t-of-31-bytes-1234567890ab";
        assertEquals(31, secret.length());
        String problems = unusable(config("hmacSecret", secret), "hmacSecret has 31 bytes", "at least 32");
        assertFalse(problems.contains(secret));
        String token = sign(JWSAlgorithm.HS256, claims().build(),
                Tokens.rawHmac(secret.getBytes(StandardCharsets.UTF_8)));
        assertRefused(authenticator.authenticate(token), token, "not usable");
    }

    @Test
    void aSecretOfTheWrongShapeIsNeverShown() {
        authenticator = new JwtAuthenticator(config("hmacSecret", SECRET));
        Map<String, Object> twoSecrets = config();
        twoSecrets.put("hmacSecret", new String[] {"first-secret-of-more-than-32-bytes", "second-secret"});

        authenticator.modified(twoSecrets);

        String problems = authenticator.problems().toString();
        assertTrue(problems.contains("hmacSecret is not one text"), problems);
        assertFalse(problems.contains("first-secret") || problems.contains("second-secret")
                || problems.contains(SECRET), problems);
        assertAccepted(authenticator.authenticate(HS256));
    }

    @Test
    void jwksUrlMustBeHttps() {
        unusable(config("jwksUrl", "http://login.example.com/jwks"), "is not an https URL");
        authenticator.modified(config("jwksUrl", "https://login.example.com/jwks", "jwksCacheSeconds", "30",
                "jwksMinRefreshSeconds", "30"));
        assertTrue(authenticator.problems().toString().contains("must be more than jwksMinRefreshSeconds"));
    }

    @Test
    void aPrivateKeyFileIsRefused() {
        KeyPair pair = Tokens.rsa(2048);
        String pem = Tokens.pem("PRIVATE KEY", pair.getPrivate().getEncoded());
        unusable(config("publicKeyFile", pemFile("private.pem", pem)), "private key");
    }

    @Test
    void unreadableOrEmptyKeyFilesAreRefused() {
        unusable(config("publicKeyFile", dir.resolve("missing.pem").toString()), "cannot be read", "missing.pem");
        authenticator.modified(config("publicKeyFile", pemFile("empty.pem", "nothing here")));
        assertTrue(authenticator.problems().toString().contains("holds no -----BEGIN PUBLIC KEY-----"));
        authenticator.modified(config("jwksFile", pemFile("bad.json", "{\"keys\": 3}")));
        assertTrue(authenticator.problems().toString().contains("is not a JWK set"));
        // whatever else goes wrong, the component stays and refuses (a NUL is no file name)
        authenticator.modified(config("hmacSecret", SECRET, "jwksFile", "keys\u0000.json"));
        assertTrue(authenticator.problems().toString().contains("could not be applied"));
        assertRefused(authenticator.authenticate(HS256), HS256, "not usable");
    }

    @Test
    void shortRsaKeysAreRefused() {
        unusable(config("publicKeyFile", pemFile("short.pem", Tokens.pem(Tokens.rsa(1024)))), "has 1024 bits",
                "at least 2048");
    }

    @Test
    void jwksFileSkipsSecretsAndUsesOnlyThePublicPartOfPrivateKeys() throws Exception {
        RSAKey withPrivate = new RSAKey.Builder((RSAPublicKey) RSA.getPublic())
                .privateKey((RSAPrivateCrtKey) RSA.getPrivate()).keyID("rsa").build();
        OctetSequenceKey secret = new OctetSequenceKey.Builder(SECRET.getBytes(StandardCharsets.UTF_8))
                .keyID("hmac").build();
        String jwks = new JWKSet(List.of(withPrivate, secret)).toString(false);
        authenticator = new JwtAuthenticator(config("jwksFile", pemFile("jwks.json", jwks)));

        String problems = authenticator.problems().toString();
        assertTrue(problems.contains("'hmac' is a shared secret and is ignored"), problems);
        assertTrue(problems.contains("'rsa' holds a private key"), problems);
        assertFalse(problems.contains("every JWT is refused"), problems);
        assertAccepted(authenticator.authenticate(sign(JWSAlgorithm.RS256, claims().build(), signer(RSA))));
        String hmac = sign(new com.nimbusds.jose.JWSHeader.Builder(JWSAlgorithm.HS256).keyID("hmac").build(),
                claims().build(), Tokens.hmac(SECRET));
        assertRefused(authenticator.authenticate(hmac), hmac, "HS256", "not accepted");

        authenticator.modified(config("jwksFile", pemFile("secrets.json", new JWKSet(secret).toString(false))));
        assertTrue(authenticator.problems().toString().contains("holds no public signing key"));
    }

    @Test
    void algorithmsNarrowWhatTheKeysAllow() {
        String pem = pemFile("rsa.pem", Tokens.pem(RSA));
        authenticator = new JwtAuthenticator(config("publicKeyFile", pem, "algorithms", "RS256, ps512"));
        assertEquals(List.of(), authenticator.problems());

        assertAccepted(authenticator.authenticate(sign(JWSAlgorithm.RS256, claims().build(), signer(RSA))));
        assertAccepted(authenticator.authenticate(sign(JWSAlgorithm.PS512, claims().build(), signer(RSA))));
        String ps256 = sign(JWSAlgorithm.PS256, claims().build(), signer(RSA));
        assertRefused(authenticator.authenticate(ps256), ps256, "PS256", "not accepted", "RS256, PS512");

        authenticator.modified(config("publicKeyFile", pem, "algorithms", "HS256"));
        assertTrue(authenticator.problems().toString().contains("allow none of the configured keys"));
        authenticator.modified(config("publicKeyFile", pem, "algorithms", "none"));
        assertTrue(authenticator.problems().toString().contains("unsigned tokens are never accepted"));
    }

    @Test
    void aBadValueKeepsTheLastGoodOneAndIsListed() {
        authenticator = new JwtAuthenticator(config("hmacSecret", SECRET, "clockSkewSeconds", "-5"));

        assertEquals(1, authenticator.problems().size(), authenticator.problems().toString());
        assertTrue(authenticator.problems().get(0).reason().contains("clockSkewSeconds = -5"));
        assertAccepted(authenticator.authenticate(HS256));
    }

    @Test
    void changesApplyInPlace() {
        String other = "another-secret-of-more-than-32-bytes!!";
        String otherToken = sign(JWSAlgorithm.HS256, claims().build(), Tokens.hmac(other));
        authenticator = new JwtAuthenticator(config("hmacSecret", SECRET));
        assertAccepted(authenticator.authenticate(HS256));
        assertRefused(authenticator.authenticate(otherToken), otherToken, "bad signature");

        authenticator.modified(config("hmacSecret", other));
        assertAccepted(authenticator.authenticate(otherToken));
        assertRefused(authenticator.authenticate(HS256), HS256, "bad signature");

        authenticator.modified(config("hmacSecret", other, "issuer", null));
        assertRefused(authenticator.authenticate(otherToken), otherToken, "not usable", "issuer");

        authenticator.modified(config("hmacSecret", other, "audience", "https://elsewhere.example.com/mcp"));
        assertRefused(authenticator.authenticate(otherToken), otherToken, "wrong audience");
        assertEquals(List.of(), authenticator.problems());

        authenticator.deactivate();
        assertRefused(authenticator.authenticate(otherToken), otherToken, "stopped");
    }
}
