package io.quiver.api;

import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Who is calling, as established by the transport (never by the message itself).
 *
 * @param subject a stable id of the caller ({@code anonymous} when not authenticated)
 * @param tenant the tenant the call belongs to ({@code default} when there is one)
 * @param roles roles granted to the caller
 * @param authenticated whether a credential proved the subject
 * @param project the project within the tenant the call is made in (over HTTP the endpoint's
 *     {@code projectId}), or {@code null} for the tenant as a whole (since 1.3)
 */
public record CallerIdentity(String subject, String tenant, Set<String> roles, boolean authenticated,
        String project) {

    /** The tenant of callers that name none. */
    public static final String DEFAULT_TENANT = "default";

    /**
     * What a tenant or project name may be: 1 to 64 of {@code A-Z a-z 0-9 _ . -}, starting with a
     * letter or digit. Names appear in URL paths and query parameters, so nothing in them can climb
     * a path or need escaping.
     */
    private static final Pattern PLACE_NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_.-]{0,63}");

    /** Whether a text is a valid tenant or project name (since 1.3). */
    public static boolean isPlaceName(String name) {
        return name != null && PLACE_NAME.matcher(name).matches();
    }

    /** The identity of an unauthenticated local caller. */
    public static final CallerIdentity ANONYMOUS =
            new CallerIdentity("anonymous", DEFAULT_TENANT, Set.of(), false);

    public CallerIdentity {
        Objects.requireNonNull(subject, "subject");
        Objects.requireNonNull(tenant, "tenant");
        roles = Set.copyOf(roles);
    }

    /** A caller in the tenant as a whole (no project). */
    public CallerIdentity(String subject, String tenant, Set<String> roles, boolean authenticated) {
        this(subject, tenant, roles, authenticated, null);
    }

    /** This caller in another tenant and project ({@code null}: the tenant as a whole), as an endpoint scopes it. */
    public CallerIdentity in(String tenant, String project) {
        return new CallerIdentity(subject, tenant, roles, authenticated, project);
    }

    /**
     * Whether {@code other} is the same principal in the same place: the same subject in the same
     * tenant and project, authenticated or not alike (roles may differ between two tokens of one subject). A
     * session belongs to the principal that opened it, in the project it was opened for; a token whose subject
     * happens to be the local caller's name is not the local caller.
     */
    public boolean samePrincipal(CallerIdentity other) {
        return other != null && subject.equals(other.subject) && tenant.equals(other.tenant)
                && Objects.equals(project, other.project) && authenticated == other.authenticated;
    }
}
