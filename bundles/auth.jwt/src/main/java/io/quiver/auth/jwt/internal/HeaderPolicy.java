package io.quiver.auth.jwt.internal;

import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.proc.BadJOSEException;
import com.nimbusds.jose.proc.JOSEObjectTypeVerifier;
import com.nimbusds.jose.proc.SecurityContext;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * What the JOSE header of a token may say, checked before any key is looked up. Also Nimbus's check of the
 * {@code typ} header, so the two cannot disagree.
 */
final class HeaderPolicy implements JOSEObjectTypeVerifier<SecurityContext> {

    /**
     * Header parameters that name or carry a key. A token must not choose the key it is checked with: one
     * signed with its own embedded {@code jwk}, or with keys at a URL of its choosing, would prove nothing.
     * Refused outright rather than ignored, since no honest issuer of this server's tokens sends them.
     */
    static final List<String> KEY_PARAMETERS = List.of("jku", "x5u", "jwk", "x5c");

    /**
     * The {@code typ} values of an access token (compared case aside, RFC 7515 section 4.1.9): none, JWT, or
     * at+jwt (RFC 9068). Anything else (refresh+jwt, logout+jwt, id_token+jwt, ...) is another kind of token.
     */
    static final Set<String> ACCESS_TOKEN_TYPES = Set.of("jwt", "application/jwt", "at+jwt", "application/at+jwt");

    @Override
    public void verify(JOSEObjectType type, SecurityContext context) throws BadJOSEException {
        String refusal = typeRefusal(type);
        if (refusal != null) {
            throw new BadJOSEException(refusal);
        }
    }

    /**
     * Why a header is refused, or null.
     *
     * @param accepted the algorithms the configured keys verify
     */
    static String refusal(JWSHeader header, Set<JWSAlgorithm> accepted) {
        for (String parameter : KEY_PARAMETERS) {
            if (header.getIncludedParams().contains(parameter)) {
                return "the JOSE header carries " + parameter + ": a token never names the key it is checked with";
            }
        }
        if (header.getCriticalParams() != null && !header.getCriticalParams().isEmpty()) {
            return "the JOSE header marks " + header.getCriticalParams().stream().map(Text::quote).toList()
                    + " critical; no critical extension is supported";
        }
        String type = typeRefusal(header.getType());
        if (type != null) {
            return type;
        }
        JWSAlgorithm alg = header.getAlgorithm();
        if (!accepted.contains(alg)) {
            String hint = Algorithms.HMAC.contains(alg) ? "; HS* is verified only with hmacSecret"
                    : Algorithms.PUBLIC.contains(alg) ? "; " + alg.getName() + " is verified only with a public key"
                            + " of its kind" : "";
            return "algorithm " + Text.quote(alg.getName()) + " is not accepted (accepted: "
                    + Algorithms.names(accepted) + hint + ")";
        }
        return null;
    }

    private static String typeRefusal(JOSEObjectType type) {
        if (type == null || ACCESS_TOKEN_TYPES.contains(type.getType().toLowerCase(Locale.ROOT))) {
            return null;
        }
        String kind = type.getType().toLowerCase(Locale.ROOT).contains("refresh") ? "a refresh token"
                : "not an access token";
        return "typ " + Text.quote(type.getType()) + ": " + kind + " (accepted: none, JWT or at+jwt)";
    }
}
