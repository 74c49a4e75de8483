package io.quiver.auth.jwt.internal;

import com.nimbusds.jose.proc.SecurityContext;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.proc.BadJWTException;
import com.nimbusds.jwt.proc.DefaultJWTClaimsVerifier;
import com.nimbusds.jwt.proc.JWTClaimsSetVerifier;
import java.time.Duration;
import java.time.Instant;
import java.util.Collections;
import java.util.Date;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * What the claims of a correctly signed token must say: Nimbus's {@link DefaultJWTClaimsVerifier} decides
 * issuer, audience, exp (required) and nbf with the clock skew, and this class says which of them failed in
 * words the operator can act on. Then: an access token, not a refresh or ID token; the required claims.
 */
final class ClaimsPolicy implements JWTClaimsSetVerifier<SecurityContext> {

    /** Claims in which issuers say what kind of token it is (OAuth token exchange, Keycloak, Cognito). */
    private static final List<String> TOKEN_KIND_CLAIMS = List.of("token_type", "typ", "token_use");

    private final DefaultJWTClaimsVerifier<SecurityContext> nimbus;
    private final String issuer;
    private final Set<String> audience;
    private final Duration skew;
    private final List<String> required;

    /**
     * @param required claims that must be present besides exp, iss and aud (names or dotted paths)
     */
    ClaimsPolicy(String issuer, Set<String> audience, int skewSeconds, List<String> required) {
        this.issuer = issuer;
        this.audience = Set.copyOf(audience);
        this.skew = Duration.ofSeconds(skewSeconds);
        this.required = List.copyOf(required);
        this.nimbus = new DefaultJWTClaimsVerifier<>(this.audience,
                new JWTClaimsSet.Builder().issuer(issuer).build(), Set.of("exp", "iss", "aud"), Set.of());
        nimbus.setMaxClockSkew(skewSeconds);
    }

    /** A refusal whose message is the reason to log. */
    static final class Refused extends BadJWTException {
        private static final long serialVersionUID = 1L;

        Refused(String reason) {
            super(reason);
        }
    }

    @Override
    public void verify(JWTClaimsSet claims, SecurityContext context) throws BadJWTException {
        try {
            nimbus.verify(claims, context);
        } catch (BadJWTException e) {
            throw new Refused(explain(claims, e));
        }
        String kind = notAccessToken(claims);
        if (kind != null) {
            throw new Refused(kind);
        }
        List<String> missing = required.stream().filter(name -> Identities.find(claims, name) == null).toList();
        if (!missing.isEmpty()) {
            throw new Refused("missing required claims " + String.join(", ", missing));
        }
    }

    /** Which rule the claims broke, in words; Nimbus's own message when none of these. */
    private String explain(JWTClaimsSet claims, BadJWTException e) {
        Date exp = claims.getExpirationTime();
        Date nbf = claims.getNotBeforeTime();
        List<String> aud = claims.getAudience() == null ? List.of() : claims.getAudience();
        Instant now = Instant.now();
        if (exp == null) {
            return "no exp claim: tokens that never expire are not accepted";
        }
        if (!issuer.equals(claims.getIssuer())) {
            return "wrong issuer " + Text.quote(claims.getIssuer()) + " (expected " + Text.quote(issuer) + ")";
        }
        if (aud.isEmpty()) {
            return "no aud claim: the token does not say it is for this server (expected one of " + audience + ")";
        }
        if (Collections.disjoint(aud, audience)) {
            return "wrong audience " + aud.stream().map(Text::quote).toList() + ": the token is for another service"
                    + " (expected one of " + audience + ")";
        }
        if (!exp.toInstant().plus(skew).isAfter(now)) {
            return "expired at " + exp.toInstant() + " (clock skew " + skew.toSeconds() + " s)";
        }
        if (nbf != null && nbf.toInstant().minus(skew).isAfter(now)) {
            return "not valid before " + nbf.toInstant() + " (nbf; clock skew " + skew.toSeconds() + " s)";
        }
        return "claims refused: " + e.getMessage();
    }

    /** Why the token is not an access token, or null when nothing says so. */
    private static String notAccessToken(JWTClaimsSet claims) {
        for (String name : TOKEN_KIND_CLAIMS) {
            if (claims.getClaim(name) instanceof String value) {
                String v = value.trim().toLowerCase(Locale.ROOT);
                if (v.contains("refresh")) {
                    return "a refresh token (" + name + " " + Text.quote(value) + "), not an access token";
                }
                if (v.equals("id") || v.equals("id_token") || v.endsWith(":id_token")) {
                    return "an ID token (" + name + " " + Text.quote(value) + "), not an access token";
                }
            }
        }
        return null;
    }
}
