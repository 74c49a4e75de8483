package io.quiver.auth.jwt.internal;

import com.nimbusds.jose.Header;
import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.KeySourceException;
import com.nimbusds.jose.PlainHeader;
import com.nimbusds.jose.jwk.source.JWKSetUnavailableException;
import com.nimbusds.jose.jwk.source.RateLimitReachedException;
import com.nimbusds.jose.proc.BadJOSEException;
import com.nimbusds.jose.proc.BadJWSException;
import com.nimbusds.jose.proc.SecurityContext;
import com.nimbusds.jose.util.Base64URL;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import com.nimbusds.jwt.proc.BadJWTException;
import com.nimbusds.jwt.proc.DefaultJWTProcessor;
import io.quiver.api.auth.Authentication;
import java.io.Closeable;
import java.text.ParseException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The check of one configuration: header policy, then Nimbus's {@link DefaultJWTProcessor} (key, signature,
 * claims), then the caller the claims name. Immutable; a new configuration builds a new one.
 */
final class TokenCheck implements Closeable {

    private static final Logger LOG = LoggerFactory.getLogger(TokenCheck.class);

    private final KeySelector keys;
    private final Identities identities;
    private final long minRefreshSeconds;
    private final DefaultJWTProcessor<SecurityContext> processor = new DefaultJWTProcessor<>();

    /** @param minRefreshSeconds the JWKS rate limit, for reasons */
    TokenCheck(KeySelector keys, ClaimsPolicy claims, Identities identities, long minRefreshSeconds) {
        this.keys = keys;
        this.identities = identities;
        this.minRefreshSeconds = minRefreshSeconds;
        processor.setJWSTypeVerifier(new HeaderPolicy());
        processor.setJWSKeySelector(keys);
        processor.setJWSVerifierFactory(new Verifiers());
        processor.setJWTClaimsSetVerifier(claims);
    }

    /** @param token three base64url parts separated by dots */
    Authentication check(String token) {
        Header header;
        try {
            header = Header.parse(new Base64URL(token.substring(0, token.indexOf('.'))));
        } catch (ParseException e) {
            return Authentication.refused("malformed JWT: the first part is not a JOSE header (JSON with alg)");
        }
        if (header instanceof PlainHeader || "none".equalsIgnoreCase(header.getAlgorithm().getName())) {
            return Authentication.refused("unsecured JWT (alg none): only signed tokens are accepted");
        }
        if (!(header instanceof JWSHeader jwsHeader)) {
            return Authentication.refused("encrypted JWT (JWE): not accepted, only signed tokens are");
        }
        String refusal = HeaderPolicy.refusal(jwsHeader, keys.algorithms());
        if (refusal != null) {
            return Authentication.refused(refusal);
        }
        SignedJWT jwt;
        try {
            jwt = SignedJWT.parse(token);
        } catch (ParseException e) {
            return Authentication.refused("malformed JWT: not a signed JWT");
        }
        JWTClaimsSet claims;
        try {
            claims = processor.process(jwt, null);
        } catch (ClaimsPolicy.Refused e) {
            return Authentication.refused(e.getMessage());
        } catch (BadJWSException e) {
            return Authentication.refused("bad signature: the token is not signed by a configured key ("
                    + jwsHeader.getAlgorithm() + ", kid " + Text.quote(jwsHeader.getKeyID()) + ")");
        } catch (BadJWTException e) {
            return Authentication.refused("malformed JWT: the payload is not a JSON claims set");
        } catch (BadJOSEException e) {
            return Authentication.refused(e.getMessage());
        } catch (KeySelector.NoKey e) {
            return Authentication.refused(e.getMessage());
        } catch (RateLimitReachedException e) {
            return Authentication.refused("no key with kid " + Text.quote(jwsHeader.getKeyID()) + ": the JWKS was"
                    + " just fetched and is fetched at most twice per " + minRefreshSeconds + " s");
        } catch (JWKSetUnavailableException e) {
            LOG.warn("The JWKS could not be fetched: {}", e.getMessage());
            return Authentication.refused("the JWKS could not be fetched: " + e.getMessage());
        } catch (KeySourceException e) {
            return Authentication.refused("no key could be found: " + e.getMessage());
        } catch (JOSEException e) {
            return Authentication.refused("the signature could not be checked: " + e.getMessage());
        } catch (RuntimeException e) {
            LOG.warn("A JWT could not be checked", e);
            return Authentication.refused("the token could not be checked (" + e.getClass().getSimpleName()
                    + "; see the log)");
        }
        return identities.identify(claims);
    }

    @Override
    public void close() {
        KeyLoader.close(keys);
    }
}
