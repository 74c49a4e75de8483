package io.quiver.core.internal.request;

import io.quiver.api.CallerIdentity;

/**
 * Whom something a caller holds (a session, a task, a request state) belongs to: one subject in one tenant and
 * project.
 */
public final class Owner {

    private Owner() {
    }

    public static String of(CallerIdentity caller) {
        // authenticated or not: a token whose subject is the local caller's name owns nothing of the local caller's
        return caller.tenant() + "/" + (caller.project() == null ? "" : caller.project()) + "/"
                + (caller.authenticated() ? "a/" : "u/") + caller.subject();
    }
}
