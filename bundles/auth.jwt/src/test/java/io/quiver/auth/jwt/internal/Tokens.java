package io.quiver.auth.jwt.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.JWSSigner;
import com.nimbusds.jose.crypto.ECDSASigner;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jca.JCAContext;
import com.nimbusds.jose.util.Base64URL;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import io.quiver.api.auth.Authentication;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.interfaces.ECPrivateKey;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Date;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/** Keys generated for the test, and real tokens signed with them. */
final class Tokens {

    static final String ISSUER = "https://login.example.com/realms/main";
    static final String AUDIENCE = "https://mcp.example.com/mcp";
    /** 40 bytes: enough for HS256, not for HS384. */
    static final String SECRET = "0123456789abcdefghij0123456789ABCDEFGHIJ";

    private Tokens() {
    }

    static KeyPair rsa(int bits) {
        return generate("RSA", g -> g.initialize(bits));
    }

    static KeyPair ec(String curve) {
        return generate("EC", g -> g.initialize(new ECGenParameterSpec(curve)));
    }

    static KeyPair ed25519() {
        return generate("Ed25519", g -> { });
    }

    private interface Init {
        void init(KeyPairGenerator g) throws GeneralSecurityException;
    }

    private static KeyPair generate(String algorithm, Init init) {
        try {
            KeyPairGenerator g = KeyPairGenerator.getInstance(algorithm);
            init.init(g);
            return g.generateKeyPair();
        } catch (GeneralSecurityException e) {
            throw new AssertionError(e);
        }
    }

    /** PEM text of DER bytes. */
    static String pem(String type, byte[] der) {
        return "-----BEGIN " + type + "-----\n"
                + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(der)
                + "\n-----END " + type + "-----\n";
    }

    static String pem(KeyPair keys) {
        return pem("PUBLIC KEY", keys.getPublic().getEncoded());
    }

    /** Signs with the private key of a pair: RSA (RS*, PS*), EC (ES*) or Ed25519 (EdDSA). */
    static JWSSigner signer(KeyPair keys) {
        try {
            PrivateKey key = keys.getPrivate();
            return switch (key.getAlgorithm()) {
                case "RSA" -> new RSASSASigner(key);
                case "EC" -> new ECDSASigner((ECPrivateKey) key);
                default -> new JdkEd25519Signer(key);
            };
        } catch (JOSEException e) {
            throw new AssertionError(e);
        }
    }

    static JWSSigner hmac(String secret) {
        try {
            return new MACSigner(secret.getBytes(StandardCharsets.UTF_8));
        } catch (JOSEException e) {
            throw new AssertionError(e);
        }
    }

    /** HMAC with any secret and any HS algorithm: Nimbus's signer refuses what an attacker would not. */
    static JWSSigner rawHmac(byte[] secret) {
        return new JWSSigner() {
            @Override
            public Base64URL sign(JWSHeader header, byte[] input) throws JOSEException {
                try {
                    String name = "HmacSHA" + header.getAlgorithm().getName().substring(2);
                    Mac mac = Mac.getInstance(name);
                    mac.init(new SecretKeySpec(secret, name));
                    return Base64URL.encode(mac.doFinal(input));
                } catch (GeneralSecurityException e) {
                    throw new JOSEException(e.getMessage(), e);
                }
            }

            @Override
            public Set<JWSAlgorithm> supportedJWSAlgorithms() {
                return Algorithms.HMAC;
            }

            @Override
            public JCAContext getJCAContext() {
                return new JCAContext();
            }
        };
    }

    /** Ed25519 signatures from the JDK: Nimbus's Ed25519Signer needs Tink. */
    static final class JdkEd25519Signer implements JWSSigner {
        private final PrivateKey key;

        JdkEd25519Signer(PrivateKey key) {
            this.key = key;
        }

        @Override
        public Base64URL sign(JWSHeader header, byte[] input) throws JOSEException {
            try {
                Signature s = Signature.getInstance("Ed25519");
                s.initSign(key);
                s.update(input);
                return Base64URL.encode(s.sign());
            } catch (GeneralSecurityException e) {
                throw new JOSEException(e.getMessage(), e);
            }
        }

        @Override
        public Set<JWSAlgorithm> supportedJWSAlgorithms() {
            return Ed25519Verifier.ALGORITHMS;
        }

        @Override
        public JCAContext getJCAContext() {
            return new JCAContext();
        }
    }

    /** Claims of a good access token: issuer, audience, subject alice, five minutes left. */
    static JWTClaimsSet.Builder claims() {
        Instant now = Instant.now();
        return new JWTClaimsSet.Builder()
                .issuer(ISSUER)
                .audience(AUDIENCE)
                .subject("alice")
                .issueTime(Date.from(now))
                .expirationTime(Date.from(now.plus(Duration.ofMinutes(5))));
    }

    static String sign(JWSHeader header, JWTClaimsSet claims, JWSSigner signer) {
        try {
            SignedJWT jwt = new SignedJWT(header, claims);
            jwt.sign(signer);
            return jwt.serialize();
        } catch (JOSEException e) {
            throw new AssertionError(e);
        }
    }

    static String sign(JWSAlgorithm alg, JWTClaimsSet claims, JWSSigner signer) {
        return sign(new JWSHeader(alg), claims, signer);
    }

    /** A configuration as a .cfg file gives it: issuer, audience, then the given key = value pairs. */
    static Map<String, Object> config(String... keyValues) {
        Map<String, Object> map = new HashMap<>();
        map.put("service.pid", JwtAuthenticator.PID);
        map.put("issuer", ISSUER);
        map.put("audience", AUDIENCE);
        for (int i = 0; i < keyValues.length; i += 2) {
            if (keyValues[i + 1] == null) {
                map.remove(keyValues[i]);
            } else {
                map.put(keyValues[i], keyValues[i + 1]);
            }
        }
        return map;
    }

    static Path write(Path dir, String name, String text) {
        try {
            return Files.writeString(dir.resolve(name), text);
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    /** Asserts a refusal whose reason says what and never repeats the token (nor its signature). */
    static String assertRefused(Authentication result, String token, String... reasonParts) {
        assertEquals(Authentication.Status.REFUSED, result.status(), () -> "expected a refusal, got " + result);
        String reason = result.reason();
        for (String part : reasonParts) {
            assertTrue(reason.toLowerCase().contains(part.toLowerCase()),
                    () -> "reason '" + reason + "' does not say '" + part + "'");
        }
        assertFalse(reason.contains(token), "the reason repeats the token");
        String signature = token.substring(token.lastIndexOf('.') + 1);
        assertFalse(!signature.isEmpty() && reason.contains(signature), "the reason repeats the signature");
        return reason;
    }

    static Authentication assertAccepted(Authentication result) {
        assertEquals(Authentication.Status.ACCEPTED, result.status(), () -> "refused: " + result.reason());
        return result;
    }
}
