package io.quiver.core.internal.pipeline;

import io.quiver.api.CallerIdentity;

/** Whom something a call leaves behind (a task, a request state) belongs to: one subject in one tenant and project. */
final class Owner {

    private Owner() {
    }

    static String of(CallerIdentity caller) {
        return caller.tenant() + "/" + (caller.project() == null ? "" : caller.project()) + "/" + caller.subject();
    }
}
