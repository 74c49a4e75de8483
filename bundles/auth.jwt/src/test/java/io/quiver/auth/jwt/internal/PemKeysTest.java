package io.quiver.auth.jwt.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.OctetKeyPair;
import com.nimbusds.jose.jwk.RSAKey;
import java.security.KeyPair;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** PEM files as operators write them. */
class PemKeysTest {

    static final KeyPair RSA = Tokens.rsa(2048);

    private static List<JWK> parse(String pem) {
        return PemKeys.parse(pem, w -> {
            throw new AssertionError("unexpected warning: " + w);
        });
    }

    @Test
    void readsEveryBlockOfEachKind() throws Exception {
        KeyPair ec = Tokens.ec("secp384r1");
        KeyPair ed = Tokens.ed25519();
        String pem = "issuer keys, rotated 2025-01\n" + Tokens.pem(RSA) + "\n" + Tokens.pem(ec) + Tokens.pem(ed);

        List<JWK> keys = parse(pem);

        assertEquals(3, keys.size());
        assertEquals(RSA.getPublic(), ((RSAKey) keys.get(0)).toPublicKey());
        assertEquals(Curve.P_384, ((ECKey) keys.get(1)).getCurve());
        assertEquals(ec.getPublic(), ((ECKey) keys.get(1)).toPublicKey());
        assertEquals(ed.getPublic(), Ed25519Keys.publicKey((OctetKeyPair) keys.get(2)));
    }

    @Test
    void refusesWhatIsNoPublicKey() {
        assertRefused(Tokens.pem("PRIVATE KEY", RSA.getPrivate().getEncoded()), "private key", "openssl pkey");
        assertRefused(Tokens.pem(RSA) + Tokens.pem("EC PRIVATE KEY", new byte[] {1}), "private key");
        assertRefused(Tokens.pem("RSA PUBLIC KEY", new byte[] {1}), "PKCS#1", "-RSAPublicKey_in");
        assertRefused(Tokens.pem("PUBLIC KEY", new byte[] {1, 2, 3}), "not an RSA, EC or Ed25519 key");
        assertRefused(Tokens.pem("CERTIFICATE", new byte[] {1, 2, 3}), "not an X.509 certificate");
        assertRefused(Tokens.pem("PGP PUBLIC KEY BLOCK", new byte[] {1}), "not a PUBLIC KEY or CERTIFICATE");
        assertRefused("-----BEGIN PUBLIC KEY-----\n%%%\n-----END PUBLIC KEY-----", "not base64");
        assertRefused("", "holds no");
    }

    @Test
    void anExpiredCertificateIsUsedWithAWarning() throws Exception {
        // keytool -validity 2 from a start date in the past: a certificate that expired a year ago
        java.nio.file.Path dir = java.nio.file.Files.createTempDirectory("pem");
        try {
            String keytool = java.nio.file.Path.of(System.getProperty("java.home"), "bin", "keytool").toString();
            java.nio.file.Path store = dir.resolve("old.p12");
            Process p = new ProcessBuilder(keytool, "-genkeypair", "-alias", "old", "-keyalg", "EC", "-dname",
                    "CN=old issuer", "-startdate", "-1y", "-validity", "2", "-storetype", "PKCS12", "-keystore",
                    store.toString(), "-storepass", "changeit").redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            assertEquals(0, p.waitFor());
            java.security.KeyStore ks = java.security.KeyStore.getInstance("PKCS12");
            try (var in = java.nio.file.Files.newInputStream(store)) {
                ks.load(in, "changeit".toCharArray());
            }
            List<String> warnings = new ArrayList<>();

            List<JWK> keys = PemKeys.parse(Tokens.pem("CERTIFICATE", ks.getCertificate("old").getEncoded()),
                    warnings::add);

            assertEquals(ks.getCertificate("old").getPublicKey(), ((ECKey) keys.get(0)).toPublicKey());
            assertEquals(1, warnings.size());
            assertTrue(warnings.get(0).contains("outside its validity"), warnings.get(0));
        } finally {
            try (var files = java.nio.file.Files.walk(dir)) {
                files.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
            }
        }
    }

    private static void assertRefused(String pem, String... message) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> parse(pem));
        for (String part : message) {
            assertTrue(e.getMessage().contains(part), () -> e.getMessage() + " does not say " + part);
        }
    }
}
