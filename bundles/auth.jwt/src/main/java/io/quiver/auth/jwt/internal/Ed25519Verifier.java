package io.quiver.auth.jwt.internal;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.JWSVerifier;
import com.nimbusds.jose.jca.JCAContext;
import com.nimbusds.jose.util.Base64URL;
import java.security.GeneralSecurityException;
import java.security.InvalidKeyException;
import java.security.PublicKey;
import java.security.Signature;
import java.security.SignatureException;
import java.util.Set;

/**
 * Verifies EdDSA (Ed25519) signatures with the JDK's own {@code Ed25519} signature (JDK 15+): Nimbus's
 * {@code Ed25519Verifier} needs Google Tink, which is not shipped. Only the signature check is done here;
 * which key and algorithm may be used is decided by {@link KeySelector}.
 */
final class Ed25519Verifier implements JWSVerifier {

    /** {@code EdDSA} with an Ed25519 key (RFC 8037), and its fully-specified name {@code Ed25519}. */
    static final Set<JWSAlgorithm> ALGORITHMS = Set.of(JWSAlgorithm.EdDSA, JWSAlgorithm.Ed25519);

    private final PublicKey key;
    private final JCAContext jca = new JCAContext();

    /** @param key a JDK Ed25519 public key */
    Ed25519Verifier(PublicKey key) throws JOSEException {
        try {
            // fails now, not per token, when the key is not an Ed25519 key
            Signature.getInstance("Ed25519").initVerify(key);
        } catch (GeneralSecurityException e) {
            throw new JOSEException("not an Ed25519 public key: " + e.getMessage(), e);
        }
        this.key = key;
    }

    @Override
    public boolean verify(JWSHeader header, byte[] signingInput, Base64URL signature) throws JOSEException {
        if (!ALGORITHMS.contains(header.getAlgorithm())) {
            throw new JOSEException("not an EdDSA algorithm: " + header.getAlgorithm());
        }
        if (header.getCriticalParams() != null && !header.getCriticalParams().isEmpty()) {
            // no critical extension is understood here, so none may be ignored (RFC 7515 section 4.1.11)
            return false;
        }
        try {
            Signature verifier = Signature.getInstance("Ed25519");
            verifier.initVerify(key);
            verifier.update(signingInput);
            return verifier.verify(signature.decode());
        } catch (SignatureException e) {
            return false; // a signature of the wrong length or form
        } catch (InvalidKeyException e) {
            throw new JOSEException("not an Ed25519 public key: " + e.getMessage(), e);
        } catch (GeneralSecurityException e) {
            throw new JOSEException("Ed25519 is not available in this JDK: " + e.getMessage(), e);
        }
    }

    @Override
    public Set<JWSAlgorithm> supportedJWSAlgorithms() {
        return ALGORITHMS;
    }

    @Override
    public JCAContext getJCAContext() {
        return jca;
    }
}
