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
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.text.ParseException;
import java.util.HexFormat;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The check of one configuration: header policy, then Nimbus's {@link DefaultJWTProcessor} (key, signature,
 * claims), then the caller the claims name. Immutable; a new configuration builds a new one.
 *
 * <p>A client sends the same access token with every request, and checking its signature is most of
 * the cost of a request (an RSA or EC verification). Accepted tokens are therefore remembered, by the
 * SHA-256 of the token (the token itself is not kept), until {@link #REMEMBER_MS} has passed or the
 * token's own {@code exp}, whichever comes first; a new configuration starts with nothing remembered.
 * Refused tokens are not remembered (an attacker's tokens cannot fill the memory).
 */
final class TokenCheck implements Closeable {

    private static final Logger LOG = LoggerFactory.getLogger(TokenCheck.class);

    private final KeySelector keys;
    private final Identities identities;
    private final long minRefreshSeconds;
    private final DefaultJWTProcessor<SecurityContext> processor = new DefaultJWTProcessor<>();
    private final Map<String, Remembered> accepted = new ConcurrentHashMap<>();
    private final LongSupplier clock;

    /** How long an accepted token is taken without checking it again (at most until its exp). */
    static final long REMEMBER_MS = 60_000;
    /** The most tokens remembered at once; beyond, the memory starts over. */
    static final int REMEMBER_MAX = 10_000;

    private record Remembered(Authentication authentication, long until) {
    }

    /** @param minRefreshSeconds the JWKS rate limit, for reasons */
    TokenCheck(KeySelector keys, ClaimsPolicy claims, Identities identities, long minRefreshSeconds) {
        this(keys, claims, identities, minRefreshSeconds, System::currentTimeMillis);
    }

    TokenCheck(KeySelector keys, ClaimsPolicy claims, Identities identities, long minRefreshSeconds,
            LongSupplier clock) {
        this.clock = clock;
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
        String key = digest(token);
        long now = clock.getAsLong();
        Remembered known = accepted.get(key);
        if (known != null) {
            if (now < known.until()) {
                return known.authentication();
            }
            accepted.remove(key, known);
        }
        return verify(token, now, key);
    }

    private Authentication verify(String token, long now, String key) {
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
        Authentication identified = identities.identify(claims);
        if (identified.accepted()) {
            long until = now + REMEMBER_MS;
            if (claims.getExpirationTime() != null) {
                until = Math.min(until, claims.getExpirationTime().getTime());
            }
            if (accepted.size() >= REMEMBER_MAX) {
                accepted.clear();
            }
            accepted.put(key, new Remembered(identified, until));
        }
        return identified;
    }

    private static String digest(String token) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                    .digest(token.getBytes(StandardCharsets.US_ASCII)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }

    @Override
    public void close() {
        KeyLoader.close(keys);
    }
}
