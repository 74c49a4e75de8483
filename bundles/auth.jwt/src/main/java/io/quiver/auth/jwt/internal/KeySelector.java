package io.quiver.auth.jwt.internal;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.KeySourceException;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.JWKMatcher;
import com.nimbusds.jose.jwk.JWKSelector;
import com.nimbusds.jose.jwk.OctetKeyPair;
import com.nimbusds.jose.jwk.OctetSequenceKey;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.source.JWKSource;
import com.nimbusds.jose.proc.JWSKeySelector;
import com.nimbusds.jose.proc.JWSVerificationKeySelector;
import com.nimbusds.jose.proc.SecurityContext;
import java.io.Closeable;
import java.io.IOException;
import java.security.GeneralSecurityException;
import java.security.Key;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The keys that may verify a token, chosen by its header. Local keys (the secret, {@code publicKeyFile},
 * {@code jwksFile}) are matched as Nimbus matches a JWKS, except that a local key without a kid matches
 * tokens of any kid: a PEM key has none. The {@code jwksUrl} keys are asked for through a
 * {@link JWSVerificationKeySelector}, so a kid not in the cached set makes Nimbus refetch it (rate-limited),
 * which is how a rotated key is picked up. The remote set is not asked when a local key has the token's kid,
 * nor ever for an HS* token: a shared secret is only ever the configured one.
 */
final class KeySelector implements JWSKeySelector<SecurityContext>, Closeable {

    private static final Logger LOG = LoggerFactory.getLogger(KeySelector.class);

    private final Set<JWSAlgorithm> algorithms;
    private final List<JWK> local;
    private final Set<String> localKids;
    private final RemoteKeys remote;
    private final JWKSource<SecurityContext> remoteSource;

    /**
     * @param algorithms the algorithms accepted
     * @param local the secret as an oct key, and public keys
     * @param remote the keys of the JWKS URL, or null
     */
    KeySelector(Set<JWSAlgorithm> algorithms, List<JWK> local, JWKSource<SecurityContext> remote) {
        this.algorithms = Set.copyOf(algorithms);
        this.local = List.copyOf(local);
        this.localKids = local.stream().map(JWK::getKeyID).filter(Objects::nonNull).collect(Collectors.toUnmodifiableSet());
        Set<JWSAlgorithm> remoteAlgorithms = algorithms.stream().filter(a -> !Algorithms.HMAC.contains(a))
                .collect(Collectors.toSet());
        this.remote = remote == null || remoteAlgorithms.isEmpty() ? null : new RemoteKeys(remoteAlgorithms, remote);
        this.remoteSource = remote;
    }

    /** The algorithms accepted. */
    Set<JWSAlgorithm> algorithms() {
        return algorithms;
    }

    /** A token with no key to check it against: its reason names the algorithm and kid, never the token. */
    static final class NoKey extends KeySourceException {
        private static final long serialVersionUID = 1L;

        NoKey(String reason) {
            super(reason);
        }
    }

    @Override
    public List<Key> selectJWSKeys(JWSHeader header, SecurityContext context) throws KeySourceException {
        JWSAlgorithm alg = header.getAlgorithm();
        if (!algorithms.contains(alg)) {
            throw new NoKey("algorithm " + Text.quote(alg.getName()) + " is not accepted");
        }
        JWKMatcher exact = JWKMatcher.forJWSHeader(header);
        JWKMatcher anyKid = JWKMatcher.forJWSHeader(new JWSHeader(alg));
        List<Key> keys = new ArrayList<>();
        for (JWK jwk : local) {
            if (exact.matches(jwk) || jwk.getKeyID() == null && anyKid.matches(jwk)) {
                addKey(keys, jwk, alg);
            }
        }
        String kid = header.getKeyID();
        if (remote != null && remote.isAllowed(alg) && (kid == null || !localKids.contains(kid))) {
            try {
                keys.addAll(remote.selectJWSKeys(header, context));
            } catch (KeySourceException e) {
                if (keys.isEmpty()) {
                    throw e;
                }
                LOG.debug("JWKS unavailable; trying the local keys only: {}", e.toString());
            }
        }
        if (keys.isEmpty()) {
            throw new NoKey("no configured key verifies " + alg.getName()
                    + (kid != null ? " with kid " + Text.quote(kid) : " (the token names no kid)"));
        }
        return keys;
    }

    @Override
    public void close() throws IOException {
        if (remoteSource instanceof Closeable closeable) { // its refresh thread
            closeable.close();
        }
    }

    /**
     * Adds the Java key of a JWK when it may verify the algorithm: its kind and curve must be the
     * algorithm's (Nimbus's matcher does not check an EC key's curve), and RSA keys shorter than 2048
     * bits may not verify at all.
     */
    private static void addKey(List<Key> keys, JWK jwk, JWSAlgorithm alg) {
        if (!(jwk instanceof OctetSequenceKey ? Algorithms.HMAC : Algorithms.forKey(jwk)).contains(alg)) {
            return;
        }
        try {
            if (jwk instanceof RSAKey rsa) {
                if (rsa.size() >= Algorithms.MIN_RSA_BITS) {
                    keys.add(rsa.toRSAPublicKey());
                }
            } else if (jwk instanceof ECKey ec) {
                keys.add(ec.toECPublicKey());
            } else if (jwk instanceof OctetKeyPair okp && Ed25519Keys.isEd25519(okp)) {
                keys.add(Ed25519Keys.publicKey(okp));
            } else if (jwk instanceof OctetSequenceKey secret) {
                keys.add(secret.toSecretKey());
            }
        } catch (JOSEException | GeneralSecurityException e) {
            LOG.debug("Key {} skipped: {}", Text.quote(jwk.getKeyID()), e.toString());
        }
    }

    /**
     * The keys of the JWKS URL: Nimbus's selector, with its JWK-to-Java conversion extended to Ed25519
     * (Nimbus converts OKP keys only with Tink) and to the RSA size floor.
     */
    private static final class RemoteKeys extends JWSVerificationKeySelector<SecurityContext> {

        private final JWKSource<SecurityContext> source;

        RemoteKeys(Set<JWSAlgorithm> algorithms, JWKSource<SecurityContext> source) {
            super(algorithms, source);
            this.source = source;
        }

        @Override
        public List<Key> selectJWSKeys(JWSHeader header, SecurityContext context) throws KeySourceException {
            JWKMatcher matcher = createJWKMatcher(header);
            if (matcher == null) {
                return List.of();
            }
            List<Key> keys = new ArrayList<>();
            for (JWK jwk : source.get(new JWKSelector(matcher), context)) {
                if (!(jwk instanceof OctetSequenceKey)) { // a secret published in a JWKS is no secret
                    addKey(keys, jwk, header.getAlgorithm());
                }
            }
            return keys;
        }
    }
}
