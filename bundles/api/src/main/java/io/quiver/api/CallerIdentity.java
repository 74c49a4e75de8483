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

    /** The identity of an unauthenticated local caller. */
    public static final CallerIdentity ANONYMOUS =
            new CallerIdentity("anonymous", "default", Set.of(), false);

    public CallerIdentity {
        Objects.requireNonNull(subject, "subject");
        Objects.requireNonNull(tenant, "tenant");
        roles = Set.copyOf(roles);
    }
}
