package io.quiver.auth.jwt.internal;

import com.nimbusds.jwt.JWTClaimsSet;
import io.quiver.api.CallerIdentity;
import io.quiver.api.auth.Authentication;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Who a verified token names: subject, tenant, roles and scopes, from the configured claims. */
final class Identities {

    /** The tenant of a token without a tenant claim. */
    static final String DEFAULT_TENANT = CallerIdentity.DEFAULT_TENANT;
    /** Where Azure AD and Okta put the scopes when the standard scope claim is absent. */
    static final String SCP = "scp";

    private final String subjectClaim;
    private final String subjectPrefix;
    private final String tenantClaim;
    private final String rolesClaim;
    private final String scopeClaim;

    Identities(String subjectClaim, String subjectPrefix, String tenantClaim, String rolesClaim, String scopeClaim) {
        this.subjectClaim = subjectClaim;
        this.subjectPrefix = subjectPrefix;
        this.tenantClaim = tenantClaim;
        this.rolesClaim = rolesClaim;
        this.scopeClaim = scopeClaim;
    }

    /** The caller and scopes of verified claims, or a refusal when a claim has the wrong shape. */
    Authentication identify(JWTClaimsSet claims) {
        Object subject = find(claims, subjectClaim);
        if (subject == null) {
            return Authentication.refused("no subject: the token has no " + subjectClaim + " claim");
        }
        String sub = text(subject);
        if (sub == null) {
            return Authentication.refused("no subject: the " + subjectClaim + " claim is not a text");
        }
        Object tenantValue = find(claims, tenantClaim);
        String tenant = tenantValue == null ? DEFAULT_TENANT : text(tenantValue);
        if (tenant == null) {
            return Authentication.refused("the " + tenantClaim + " claim is not a text");
        }
        Set<String> roles = words(find(claims, rolesClaim), "[\\s,]+");
        if (roles == null) {
            return Authentication.refused("the " + rolesClaim + " claim is neither a list of texts nor a text");
        }
        Object scopeValue = find(claims, scopeClaim);
        if (scopeValue == null && scopeClaim.equals("scope")) {
            scopeValue = claims.getClaim(SCP);
        }
        Set<String> scopes = words(scopeValue, "\\s+");
        if (scopes == null) {
            return Authentication.refused("the " + scopeClaim + " claim is neither a list of texts nor a text");
        }
        return Authentication.accepted(new CallerIdentity(subjectPrefix + sub, tenant, roles, true), scopes);
    }

    /**
     * A claim by name, or when there is none of that name and the name has dots, by path into nested
     * objects ({@code realm_access.roles}); null when absent. The name itself comes first so that
     * namespaced claims such as {@code https://example.com/roles} are found.
     */
    static Object find(JWTClaimsSet claims, String name) {
        Object value = claims.getClaim(name);
        if (value != null || !name.contains(".")) {
            return value;
        }
        Object at = claims.getClaims();
        for (String step : name.split("\\.")) {
            if (!(at instanceof Map<?, ?> map)) {
                return null;
            }
            at = map.get(step);
        }
        return at;
    }

    /** A text or number claim as a non-blank text, else null. */
    private static String text(Object value) {
        if (value instanceof String s) {
            return s.isBlank() ? null : s;
        }
        if (value instanceof Number n) {
            // a whole number is written without a fraction: a numeric user id 42 is "42", never "42.0"
            return n.doubleValue() == Math.rint(n.doubleValue()) && Math.abs(n.doubleValue()) < 1e15
                    ? Long.toString(n.longValue()) : n.toString();
        }
        return null;
    }

    /** The words of a list of texts or of a text split by the separator; none when absent; null otherwise. */
    private static Set<String> words(Object value, String separator) {
        Set<String> words = new LinkedHashSet<>();
        if (value == null) {
            return words;
        }
        if (value instanceof String s) {
            Arrays.stream(s.trim().split(separator)).filter(w -> !w.isEmpty()).forEach(words::add);
            return words;
        }
        if (value instanceof List<?> list) {
            for (Object item : list) {
                if (!(item instanceof String s)) {
                    return null;
                }
                if (!s.isBlank()) {
                    words.add(s.trim());
                }
            }
            return words;
        }
        return null;
    }
}
