package io.quiver.auth.jwt.internal;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.JWSVerifier;
import com.nimbusds.jose.crypto.factories.DefaultJWSVerifierFactory;
import com.nimbusds.jose.jca.JCAContext;
import com.nimbusds.jose.proc.JWSVerifierFactory;
import java.security.Key;
import java.security.PublicKey;
import java.util.HashSet;
import java.util.Set;

/** Nimbus's verifiers (HMAC, RSA, EC), and the JDK's for EdDSA. */
final class Verifiers implements JWSVerifierFactory {

    private final DefaultJWSVerifierFactory nimbus = new DefaultJWSVerifierFactory();
    private final Set<JWSAlgorithm> supported;

    Verifiers() {
        Set<JWSAlgorithm> all = new HashSet<>(nimbus.supportedJWSAlgorithms());
        all.addAll(Ed25519Verifier.ALGORITHMS);
        supported = Set.copyOf(all);
    }

    @Override
    public JWSVerifier createJWSVerifier(JWSHeader header, Key key) throws JOSEException {
        if (Ed25519Verifier.ALGORITHMS.contains(header.getAlgorithm())) {
            if (!(key instanceof PublicKey publicKey)) {
                throw new JOSEException("EdDSA needs an Ed25519 public key");
            }
            return new Ed25519Verifier(publicKey);
        }
        return nimbus.createJWSVerifier(header, key);
    }

    @Override
    public Set<JWSAlgorithm> supportedJWSAlgorithms() {
        return supported;
    }

    @Override
    public JCAContext getJCAContext() {
        return nimbus.getJCAContext();
    }
}
