package io.quiver.auth.jwt.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.JWSObject;
import com.nimbusds.jose.Payload;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.OctetKeyPair;
import com.nimbusds.jose.util.Base64URL;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.PrivateKey;
import java.security.spec.EdECPrivateKeySpec;
import java.security.spec.NamedParameterSpec;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** EdDSA on the JDK, against the example of RFC 8037 appendix A (key, JWS and signature from the RFC). */
class Ed25519Test {

    static final String D = "nWGxne_9WmC6hEr0kuwsxERJxWl7MmkZcDusAxyuf2A";
    static final String X = "11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo";
    static final String JWS = "eyJhbGciOiJFZERTQSJ9.RXhhbXBsZSBvZiBFZDI1NTE5IHNpZ25pbmc."
            + "hgyY0il_MGCjP0JzlnLWG1PPOt7-09PGcvMg3AIbQR6dWbhijcNR4ki4iylGjg5BhVsPt9g7sVvpAr_MuM0KAg";

    static final OctetKeyPair RFC_KEY = new OctetKeyPair.Builder(Curve.Ed25519, new Base64URL(X)).build();

    @Test
    void verifiesTheRfcExample() throws Exception {
        JWSObject jws = JWSObject.parse(JWS);

        assertTrue(jws.verify(new Ed25519Verifier(Ed25519Keys.publicKey(RFC_KEY))));
    }

    @Test
    void refusesTheRfcExampleAltered() throws Exception {
        String[] parts = JWS.split("\\.");
        JWSObject otherPayload = JWSObject.parse(parts[0] + "." + Base64URL.encode("Example of Ed25519 signinG")
                + "." + parts[2]);
        JWSObject shortSignature = JWSObject.parse(parts[0] + "." + parts[1] + "." + parts[2].substring(4));

        assertFalse(otherPayload.verify(new Ed25519Verifier(Ed25519Keys.publicKey(RFC_KEY))));
        assertFalse(shortSignature.verify(new Ed25519Verifier(Ed25519Keys.publicKey(RFC_KEY))));
        assertFalse(JWSObject.parse(JWS).verify(new Ed25519Verifier(Tokens.ed25519().getPublic())));
    }

    @Test
    void theTestSignerSignsAsTheRfc() throws Exception {
        PrivateKey d = KeyFactory.getInstance("Ed25519")
                .generatePrivate(new EdECPrivateKeySpec(NamedParameterSpec.ED25519, new Base64URL(D).decode()));
        JWSObject jws = new JWSObject(new JWSHeader(JWSAlgorithm.EdDSA), new Payload("Example of Ed25519 signing"));

        jws.sign(new Tokens.JdkEd25519Signer(d));

        assertEquals(JWS, jws.serialize());
    }

    @Test
    void jdkKeysAndJwksConvertBothWays() throws Exception {
        KeyPair pair = Tokens.ed25519();

        OctetKeyPair jwk = Ed25519Keys.jwk(pair.getPublic());

        assertEquals(Curve.Ed25519, jwk.getCurve());
        assertEquals(32, jwk.getX().decode().length);
        assertEquals(pair.getPublic(), Ed25519Keys.publicKey(jwk));
        assertEquals(RFC_KEY, Ed25519Keys.jwk(Ed25519Keys.publicKey(RFC_KEY)));
    }

    @Test
    void otherKeysAreNoEd25519Keys() {
        assertNull(Ed25519Keys.jwk(Tokens.rsa(2048).getPublic()));
        assertNull(Ed25519Keys.jwk(Tokens.ec("secp256r1").getPublic()));
        OctetKeyPair ed448 = new OctetKeyPair.Builder(Curve.Ed448, Base64URL.encode(new byte[57])).build();
        assertThrows(GeneralSecurityException.class, () -> Ed25519Keys.publicKey(ed448));
        OctetKeyPair tooShort = new OctetKeyPair.Builder(Curve.Ed25519, Base64URL.encode(new byte[31])).build();
        assertThrows(GeneralSecurityException.class, () -> Ed25519Keys.publicKey(tooShort));
    }

    @Test
    void criticalHeadersAreNotIgnored() throws Exception {
        KeyPair pair = Tokens.ed25519();
        JWSObject jws = new JWSObject(new JWSHeader.Builder(JWSAlgorithm.EdDSA).customParam("ext", 1)
                .criticalParams(Set.of("ext")).build(), new Payload("x"));
        jws.sign(new Tokens.JdkEd25519Signer(pair.getPrivate()));

        assertFalse(JWSObject.parse(jws.serialize()).verify(new Ed25519Verifier(pair.getPublic())));
    }
}
