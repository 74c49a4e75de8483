package io.quiver.api;

import java.util.Objects;
import java.util.Set;

/**
 * Who is calling, as established by the transport (never by the message itself).
 *
 * @param subject a stable id of the caller ({@code anonymous} when not authenticated)
 * @param tenant the tenant the call belongs to ({@code default} when there is one)
 * @param roles roles granted to the caller
 * @param authenticated whether a credential proved the subject
 */
public record CallerIdentity(String subject, String tenant, Set<String> roles, boolean authenticated) {

    /** The tenant of callers that name none. */
    public static final String DEFAULT_TENANT = "default";

    /** The identity of an unauthenticated local caller. */
    public static final CallerIdentity ANONYMOUS =
            new CallerIdentity("anonymous", DEFAULT_TENANT, Set.of(), false);

    public CallerIdentity {
        Objects.requireNonNull(subject, "subject");
        Objects.requireNonNull(tenant, "tenant");
        roles = Set.copyOf(roles);
    }

    /**
     * Whether {@code other} is the same principal: the same subject in the same tenant (roles may
     * differ between two tokens of one subject). A session belongs to the principal that opened it.
     */
    public boolean samePrincipal(CallerIdentity other) {
        return other != null && subject.equals(other.subject) && tenant.equals(other.tenant);
    }
}
