package io.quiver.auth.jwt.internal;

import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.OctetKeyPair;
import com.nimbusds.jose.jwk.RSAKey;
import java.io.ByteArrayInputStream;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PublicKey;
import java.security.cert.CertificateExpiredException;
import java.security.cert.CertificateFactory;
import java.security.cert.CertificateNotYetValidException;
import java.security.cert.X509Certificate;
import java.security.interfaces.ECPublicKey;
import java.security.interfaces.RSAPublicKey;
import java.security.spec.X509EncodedKeySpec;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Public keys from PEM text: {@code PUBLIC KEY} blocks (X.509 SubjectPublicKeyInfo) and {@code CERTIFICATE}
 * blocks, RSA, EC (P-256, P-384, P-521) or Ed25519, any number of them. Parsed with the JDK: Nimbus's own
 * PEM reader needs BouncyCastle, which is not shipped.
 */
final class PemKeys {

    private static final Pattern BLOCK =
            Pattern.compile("-----BEGIN ([A-Z0-9 ]+)-----(.*?)-----END \\1-----", Pattern.DOTALL);
    private static final String[] KEY_ALGORITHMS = {"RSA", "EC", "Ed25519"};

    private PemKeys() {
    }

    /**
     * @param warnings told of keys that are used but look wrong (an expired certificate)
     * @throws IllegalArgumentException saying what is wrong, when a block is not a usable public key (a
     *     private key, say) or there is none
     */
    static List<JWK> parse(String pem, Consumer<String> warnings) {
        List<JWK> keys = new ArrayList<>();
        Matcher m = BLOCK.matcher(pem);
        while (m.find()) {
            String type = m.group(1);
            byte[] der = decode(m.group(2), type);
            if (type.contains("PRIVATE KEY")) {
                // a private key has no business on a server that only verifies
                throw new IllegalArgumentException("holds a private key (" + type + "); give the public key only,"
                        + " e.g. openssl pkey -in key.pem -pubout");
            }
            switch (type) {
                case "PUBLIC KEY" -> keys.add(jwk(publicKey(der)));
                case "CERTIFICATE" -> keys.add(jwk(certificateKey(der, warnings)));
                case "RSA PUBLIC KEY" -> throw new IllegalArgumentException("holds a PKCS#1 RSA PUBLIC KEY; convert it"
                        + " to a PUBLIC KEY: openssl rsa -RSAPublicKey_in -in key.pem -pubout");
                default -> throw new IllegalArgumentException("holds a " + type + ", not a PUBLIC KEY or CERTIFICATE");
            }
        }
        if (keys.isEmpty()) {
            throw new IllegalArgumentException("holds no -----BEGIN PUBLIC KEY----- or -----BEGIN CERTIFICATE----- block");
        }
        return keys;
    }

    /** The JWK form of an RSA, EC (P-256/384/521) or Ed25519 public key. */
    static JWK jwk(PublicKey key) {
        if (key instanceof RSAPublicKey rsa) {
            return new RSAKey.Builder(rsa).build();
        }
        if (key instanceof ECPublicKey ec) {
            Curve curve = Curve.forECParameterSpec(ec.getParams());
            if (curve == null || Algorithms.forKey(new ECKey.Builder(curve, ec).build()).isEmpty()) {
                throw new IllegalArgumentException("holds an EC key on a curve other than P-256, P-384 or P-521");
            }
            return new ECKey.Builder(curve, ec).build();
        }
        OctetKeyPair ed = Ed25519Keys.jwk(key);
        if (ed == null) {
            throw new IllegalArgumentException("holds a " + key.getAlgorithm() + " key, not RSA, EC or Ed25519");
        }
        return ed;
    }

    private static byte[] decode(String body, String type) {
        StringBuilder base64 = new StringBuilder();
        for (String line : body.split("\\R")) {
            if (!line.contains(":")) { // RFC 1421 headers such as Proc-Type: are not base64
                base64.append(line.replaceAll("\\s", ""));
            }
        }
        try {
            return Base64.getDecoder().decode(base64.toString());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("holds a " + type + " block that is not base64");
        }
    }

    private static PublicKey publicKey(byte[] der) {
        for (String algorithm : KEY_ALGORITHMS) {
            try {
                return KeyFactory.getInstance(algorithm).generatePublic(new X509EncodedKeySpec(der));
            } catch (GeneralSecurityException e) {
                // not of this kind: try the next
            }
        }
        throw new IllegalArgumentException("holds a PUBLIC KEY that is not an RSA, EC or Ed25519 key");
    }

    private static PublicKey certificateKey(byte[] der, Consumer<String> warnings) {
        X509Certificate certificate;
        try {
            certificate = (X509Certificate) CertificateFactory.getInstance("X.509")
                    .generateCertificate(new ByteArrayInputStream(der));
        } catch (GeneralSecurityException | ClassCastException e) {
            throw new IllegalArgumentException("holds a CERTIFICATE that is not an X.509 certificate");
        }
        try {
            certificate.checkValidity();
        } catch (CertificateExpiredException | CertificateNotYetValidException e) {
            // the certificate only carries the key here; its dates do not bind the issuer's tokens
            warnings.accept("the certificate " + certificate.getSubjectX500Principal().getName()
                    + " is outside its validity (" + certificate.getNotBefore().toInstant() + " to "
                    + certificate.getNotAfter().toInstant() + "); its key is used all the same");
        }
        return certificate.getPublicKey();
    }
}
