package io.quiver.auth.jwt.internal;

import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.OctetKeyPair;
import com.nimbusds.jose.jwk.RSAKey;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The JWS algorithms each kind of key verifies. A token's algorithm must be one its keys allow: HS* only
 * with the shared secret, the others only with public keys, so a public key can never be used as an HMAC
 * secret (the classic RS256/HS256 key confusion).
 */
final class Algorithms {

    /** Every algorithm verified here, in the order they are listed. */
    static final List<JWSAlgorithm> ALL = List.of(
            JWSAlgorithm.HS256, JWSAlgorithm.HS384, JWSAlgorithm.HS512,
            JWSAlgorithm.RS256, JWSAlgorithm.RS384, JWSAlgorithm.RS512,
            JWSAlgorithm.PS256, JWSAlgorithm.PS384, JWSAlgorithm.PS512,
            JWSAlgorithm.ES256, JWSAlgorithm.ES384, JWSAlgorithm.ES512,
            JWSAlgorithm.EdDSA, JWSAlgorithm.Ed25519);

    static final Set<JWSAlgorithm> HMAC = Set.of(JWSAlgorithm.HS256, JWSAlgorithm.HS384, JWSAlgorithm.HS512);
    static final Set<JWSAlgorithm> RSA = Set.of(JWSAlgorithm.RS256, JWSAlgorithm.RS384, JWSAlgorithm.RS512,
            JWSAlgorithm.PS256, JWSAlgorithm.PS384, JWSAlgorithm.PS512);
    /** Those public keys of an unknown kind may need: the keys of a JWKS URL change while the server runs. */
    static final Set<JWSAlgorithm> PUBLIC = ALL.stream().filter(a -> !HMAC.contains(a)).collect(Collectors.toUnmodifiableSet());

    /** The shortest RSA modulus accepted (NIST SP 800-131A). */
    static final int MIN_RSA_BITS = 2048;

    private Algorithms() {
    }

    /** HS256 needs 32 bytes of secret, HS384 48, HS512 64 (RFC 7518 section 3.2: at least the hash size). */
    static Set<JWSAlgorithm> forSecret(int bytes) {
        return bytes >= 64 ? HMAC
                : bytes >= 48 ? Set.of(JWSAlgorithm.HS256, JWSAlgorithm.HS384)
                : bytes >= 32 ? Set.of(JWSAlgorithm.HS256) : Set.of();
    }

    /** The algorithms a public key verifies; none for a key of another kind or curve. */
    static Set<JWSAlgorithm> forKey(JWK key) {
        if (key instanceof RSAKey) {
            return RSA;
        }
        if (key instanceof ECKey ec) {
            Curve curve = ec.getCurve();
            return Curve.P_256.equals(curve) ? Set.of(JWSAlgorithm.ES256)
                    : Curve.P_384.equals(curve) ? Set.of(JWSAlgorithm.ES384)
                    : Curve.P_521.equals(curve) ? Set.of(JWSAlgorithm.ES512) : Set.of();
        }
        if (key instanceof OctetKeyPair okp && Ed25519Keys.isEd25519(okp)) {
            return Ed25519Verifier.ALGORITHMS;
        }
        return Set.of();
    }

    /** The algorithm of a name (case aside), or null when it is not one verified here. */
    static JWSAlgorithm named(String name) {
        return ALL.stream().filter(a -> a.getName().equalsIgnoreCase(name.trim())).findFirst().orElse(null);
    }

    /** Names, in the order of {@link #ALL}. */
    static String names(Collection<JWSAlgorithm> algorithms) {
        return ALL.stream().filter(algorithms::contains).map(JWSAlgorithm::getName).collect(Collectors.joining(", "));
    }
}
