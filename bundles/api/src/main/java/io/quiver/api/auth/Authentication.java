package io.quiver.api.auth;

import io.quiver.api.CallerIdentity;
import java.util.Objects;
import java.util.Set;

/**
 * What an {@link Authenticator} made of a token.
 *
 * @param status accepted, refused, or not of this authenticator's form
 * @param caller who the token proves (accepted only)
 * @param scopes the OAuth scopes the token grants (accepted only; empty when it carries none)
 * @param reason why the token was refused, for the server's log (never the token itself)
 */
public record Authentication(Status status, CallerIdentity caller, Set<String> scopes, String reason) {

    /** The three outcomes. */
    public enum Status {
        ACCEPTED, REFUSED, NOT_MINE
    }

    private static final Authentication NOT_MINE = new Authentication(Status.NOT_MINE, null, Set.of(), null);

    public Authentication {
        Objects.requireNonNull(status, "status");
        scopes = scopes == null ? Set.of() : Set.copyOf(scopes);
        if (status == Status.ACCEPTED) {
            Objects.requireNonNull(caller, "caller");
        }
    }

    public static Authentication accepted(CallerIdentity caller, Set<String> scopes) {
        return new Authentication(Status.ACCEPTED, caller, scopes, null);
    }

    public static Authentication refused(String reason) {
        return new Authentication(Status.REFUSED, null, Set.of(),
                reason == null || reason.isBlank() ? "invalid token" : reason);
    }

    public static Authentication notMine() {
        return NOT_MINE;
    }

    public boolean accepted() {
        return status == Status.ACCEPTED;
    }
}
