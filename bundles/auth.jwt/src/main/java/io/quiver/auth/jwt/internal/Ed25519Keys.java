package io.quiver.auth.jwt.internal;

import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.OctetKeyPair;
import com.nimbusds.jose.util.Base64URL;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PublicKey;
import java.security.spec.X509EncodedKeySpec;
import java.util.Arrays;

/**
 * Ed25519 public keys between their JWK form (an OKP key: the 32 raw bytes, RFC 8037) and the JDK's
 * (its X.509 SubjectPublicKeyInfo encoding). Nimbus converts OKP keys only with Google Tink, which is not
 * shipped; the JDK has Ed25519 since 15. The two forms differ by a fixed DER prefix (RFC 8410), so the
 * conversion is a concatenation, and the key itself is checked by the JDK's KeyFactory.
 */
final class Ed25519Keys {

    /** SEQUENCE { SEQUENCE { OID 1.3.101.112 } BIT STRING (33 bytes, no unused bits) }, RFC 8410 section 4. */
    private static final byte[] SPKI_PREFIX = {0x30, 0x2a, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x03, 0x21, 0x00};
    private static final int KEY_BYTES = 32;

    private Ed25519Keys() {
    }

    /** Whether a JWK is an Ed25519 key. */
    static boolean isEd25519(OctetKeyPair jwk) {
        return Curve.Ed25519.equals(jwk.getCurve());
    }

    /** The JDK form of an Ed25519 JWK's public key. */
    static PublicKey publicKey(OctetKeyPair jwk) throws GeneralSecurityException {
        if (!isEd25519(jwk)) {
            throw new GeneralSecurityException("not an Ed25519 key: curve " + jwk.getCurve());
        }
        byte[] raw = jwk.getX().decode();
        if (raw.length != KEY_BYTES) {
            throw new GeneralSecurityException("an Ed25519 public key has 32 bytes, not " + raw.length);
        }
        byte[] encoded = Arrays.copyOf(SPKI_PREFIX, SPKI_PREFIX.length + KEY_BYTES);
        System.arraycopy(raw, 0, encoded, SPKI_PREFIX.length, KEY_BYTES);
        return KeyFactory.getInstance("Ed25519").generatePublic(new X509EncodedKeySpec(encoded));
    }

    /** The JWK form of a JDK Ed25519 public key, or null when the key is not one. */
    static OctetKeyPair jwk(PublicKey key) {
        byte[] encoded = key.getEncoded();
        if (encoded == null || encoded.length != SPKI_PREFIX.length + KEY_BYTES
                || !Arrays.equals(encoded, 0, SPKI_PREFIX.length, SPKI_PREFIX, 0, SPKI_PREFIX.length)) {
            return null;
        }
        byte[] raw = Arrays.copyOfRange(encoded, SPKI_PREFIX.length, encoded.length);
        return new OctetKeyPair.Builder(Curve.Ed25519, Base64URL.encode(raw)).build();
    }
}
