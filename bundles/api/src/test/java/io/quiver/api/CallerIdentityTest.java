package io.quiver.api;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Set;
import org.junit.jupiter.api.Test;

/** Who owns a session: the same subject, tenant and project, and authenticated or not alike. */
class CallerIdentityTest {

    @Test
    void aTokenNamedLikeTheLocalCallerIsNotTheLocalCaller() {
        CallerIdentity token = new CallerIdentity(CallerIdentity.ANONYMOUS.subject(), CallerIdentity.DEFAULT_TENANT,
                Set.of(), true);
        assertFalse(token.samePrincipal(CallerIdentity.ANONYMOUS), "authentication switched on at run time: a token"
                + " whose sub is the local caller's name does not get the local caller's sessions");
        assertFalse(CallerIdentity.ANONYMOUS.samePrincipal(token));
        assertTrue(CallerIdentity.ANONYMOUS.samePrincipal(CallerIdentity.ANONYMOUS));
        CallerIdentity alice = new CallerIdentity("alice", "acme", Set.of("a"), true);
        assertTrue(alice.samePrincipal(new CallerIdentity("alice", "acme", Set.of("b"), true)), "roles may differ");
        assertFalse(alice.samePrincipal(alice.in("acme", "pilot")), "another project");
    }
}
