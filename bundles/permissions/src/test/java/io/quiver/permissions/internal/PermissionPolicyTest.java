package io.quiver.permissions.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quiver.api.CallerIdentity;
import io.quiver.api.call.Admission;
import io.quiver.api.call.Decision;
import io.quiver.api.call.HostChannel;
import io.quiver.api.call.Target;
import java.util.ArrayList;
import java.util.Dictionary;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.lang.reflect.Proxy;
import org.junit.jupiter.api.Test;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.framework.ServiceReference;
import org.osgi.framework.ServiceRegistration;

class PermissionPolicyTest {

    /** A grant's service properties as a file of etc/ makes them. */
    private static final Map<String, Object> ETC = Map.of(PermissionPolicy.FILENAME, "file:/srv/quiver/etc/grant.cfg");

    private static final CallerIdentity ALICE = new CallerIdentity("alice", "acme", Set.of("dev"), true);
    private static final CallerIdentity BOB = new CallerIdentity("bob", "acme", Set.of("ops"), true);
    private static final CallerIdentity ROOT = new CallerIdentity("root", CallerIdentity.DEFAULT_TENANT, Set.of("admin"), true);
    private static final CallerIdentity TENANT_ADMIN = new CallerIdentity("carol", "acme", Set.of("admin"), true);
    private static final CallerIdentity EVE = new CallerIdentity("eve", "other", Set.of("dev"), true);

    @Test
    void withoutGrantsEverythingButTheAdminToolsIsAllowed() {
        PermissionPolicy policy = new PermissionPolicy(Map.of());
        assertTrue(policy.decide(ALICE, Target.tool("current_time")).allowed());
        assertTrue(policy.decide(ALICE, Target.resource("file:///x")).allowed());
        Decision admin = policy.decide(ALICE, Target.tool("bundle_install"));
        assertFalse(admin.allowed());
        assertTrue(admin.reason().contains("admin"), admin.reason());
        assertTrue(policy.decide(ROOT, Target.tool("bundle_install")).allowed());
        assertTrue(policy.decide(CallerIdentity.ANONYMOUS, Target.tool("bundle_install")).allowed(),
                "the unauthenticated local caller is the operator");
    }

    @Test
    void untilTheGrantsOfTheStartHaveArrivedNothingIsAllowed() {
        PermissionPolicy policy = new PermissionPolicy(Map.of());
        policy.awaitGrants(2, 600_000); // etc/ held two grant files at the start
        Decision early = policy.decide(ALICE, Target.tool("current_time"));
        assertFalse(early.allowed(), "with no grant yet everything would be allowed: not while grants are on their way");
        assertTrue(early.reason().contains("starting"), early.reason());
        Grant devs = grant("devs", "roles", "dev", "allow", "tool:*_time");
        policy.addGrant(devs, ETC);
        assertFalse(policy.decide(ALICE, Target.tool("current_time")).allowed(), "one of two");
        policy.addGrant(grant("deny-convert", "roles", "dev", "deny", "tool:convert_time"), ETC);
        assertTrue(policy.decide(ALICE, Target.tool("current_time")).allowed());
        assertFalse(policy.decide(ALICE, Target.tool("convert_time")).allowed(), "the second grant's deny holds");
        policy.removeGrant(devs, ETC);
        assertFalse(policy.decide(ALICE, Target.tool("current_time")).allowed(), "the grants there decide from now on");
        assertTrue(policy.problems().isEmpty(), policy.problems()::toString);
    }

    @Test
    void onlyGrantsOfEtcEndTheWaitAndTheProblemGoesWhenTheLateOnesCome() throws InterruptedException {
        PermissionPolicy policy = new PermissionPolicy(Map.of());
        policy.awaitGrants(1, 50);
        policy.addGrant(grant("from-a-feature", "roles", "dev", "allow", "tool:*"), Map.of());
        assertFalse(policy.decide(ALICE, Target.tool("current_time")).allowed(), "a feature's grant is not etc/'s");
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (policy.problems().isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertEquals(1, policy.problems().size(), policy.problems()::toString);
        policy.addGrant(grant("late", "roles", "dev", "deny", "tool:convert_time"), ETC);
        assertEquals(List.of(), policy.problems(), "the late grant came");
        assertFalse(policy.decide(ALICE, Target.tool("convert_time")).allowed());
    }

    @Test
    void grantsThatNeverComeAreAProblemAndTheGrantsThereDecide() throws InterruptedException {
        PermissionPolicy policy = new PermissionPolicy(Map.of());
        policy.addGrant(grant("devs", "roles", "dev", "allow", "tool:*_time"), ETC);
        policy.awaitGrants(3, 50);
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (policy.problems().isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertEquals(1, policy.problems().size(), policy.problems()::toString);
        assertTrue(policy.problems().get(0).reason().startsWith("2 of the 3 grant files of etc/ did not become grants"),
                policy.problems()::toString);
        assertTrue(policy.decide(ALICE, Target.tool("current_time")).allowed());
        assertFalse(policy.decide(ALICE, Target.tool("delete_all")).allowed(), "no grant allows it");
    }

    @Test
    void grantsAllowByRoleSubjectAndTenantAndDenyWins() {
        PermissionPolicy policy = new PermissionPolicy(Map.of());
        policy.addGrant(grant("devs", "roles", "dev", "tenants", "acme", "allow", "tool:*_time, prompt:review*",
                "deny", "tool:convert_time"), ETC);
        policy.addGrant(grant("bob", "subjects", "b*", "allow", "tool:convert_time"), ETC);
        assertTrue(policy.decide(ALICE, Target.tool("current_time")).allowed());
        assertTrue(policy.decide(ALICE, Target.prompt("review-code")).allowed());
        assertFalse(policy.decide(ALICE, Target.prompt("other")).allowed(), "nothing allows it");
        Decision denied = policy.decide(ALICE, Target.tool("convert_time"));
        assertFalse(denied.allowed());
        assertTrue(denied.reason().contains("devs"), denied.reason());
        assertTrue(policy.decide(BOB, Target.tool("convert_time")).allowed(), "bob's own grant");
        assertFalse(policy.decide(BOB, Target.tool("current_time")).allowed(), "the devs grant is not bob's");
        assertFalse(policy.decide(EVE, Target.tool("current_time")).allowed(), "another tenant");
        assertFalse(policy.decide(ALICE, Target.resource("current_time")).allowed(), "the kind counts");
    }

    @Test
    void aPatternOfThisFileThatNamesNothingAllowsNothingToAnyoneUntilFixed() {
        // it used to fail the component, and with no policy at all everything was allowed to everyone
        for (Map<String, Object> broken : java.util.List.<Map<String, Object>>of(Map.of("hostApproval", "tool:"),
                Map.of("adminOnly", "tool:bundle_*, tool:"))) {
            PermissionPolicy policy = new PermissionPolicy(broken);
            for (CallerIdentity caller : java.util.List.of(ALICE, ROOT, CallerIdentity.ANONYMOUS)) {
                Decision d = policy.decide(caller, Target.tool("current_time"));
                assertFalse(d.allowed(), broken + " " + caller);
                assertTrue(d.reason().contains("nothing is allowed until it is fixed"), d.reason());
            }
            assertEquals(1, policy.problems().size(), policy.problems().toString());
            assertTrue(policy.problems().get(0).reason().contains("names nothing"), policy.problems().toString());
            policy.modified(Map.of("hostApproval", "tool:deploy_*"));
            assertTrue(policy.problems().isEmpty(), "fixed in place");
            assertTrue(policy.decide(ALICE, Target.tool("current_time")).allowed());
        }
    }

    @Test
    void whatNeedsAHostsApprovalIsDeniedWhileNoHostCanGiveIt() {
        PermissionPolicy policy = new PermissionPolicy(Map.of("hostApproval", "tool:deploy_*, prompt:release"));
        Decision denied = policy.decide(ALICE, Target.tool("deploy_prod"));
        assertFalse(denied.allowed());
        assertTrue(denied.reason().contains("host"), denied.reason());
        assertFalse(policy.decide(CallerIdentity.ANONYMOUS, Target.prompt("release")).allowed(), "the local caller too");
        assertTrue(policy.decide(ALICE, Target.tool("read_log")).allowed());
        ServiceReference<?> notTheEngines = marker("com.example.tools");
        policy.addHost(notTheEngines);
        assertFalse(policy.decide(ALICE, Target.tool("deploy_prod")).allowed(), "only the engine says a host is in force");
        ServiceReference<?> engines = marker(PermissionPolicy.ENGINE);
        policy.addHost(engines);
        assertTrue(policy.decide(ALICE, Target.tool("deploy_prod")).allowed(), "the host decides each call now");
        policy.removeHost(engines);
        assertFalse(policy.decide(ALICE, Target.tool("deploy_prod")).allowed());
    }

    /** The in-force marker as registered by a bundle of this symbolic name. */
    private static ServiceReference<?> marker(String registrant) {
        Bundle bundle = (Bundle) Proxy.newProxyInstance(Bundle.class.getClassLoader(), new Class<?>[] {Bundle.class},
                (proxy, method, args) -> method.getName().equals("getSymbolicName") ? registrant : null);
        return (ServiceReference<?>) Proxy.newProxyInstance(ServiceReference.class.getClassLoader(),
                new Class<?>[] {ServiceReference.class},
                (proxy, method, args) -> method.getName().equals("getBundle") ? bundle : null);
    }

    @Test
    void grantsMayApplyInSomeProjectsOnly() {
        PermissionPolicy policy = new PermissionPolicy(Map.of());
        policy.addGrant(grant("everywhere", "allow", "tool:read_*"), ETC);
        policy.addGrant(grant("showcase-writers", "roles", "dev", "tenants", "acme", "projects", "showcase, demo-*",
                "allow", "tool:write_*"), ETC);
        policy.addGrant(grant("no-drop-in-prod", "projects", "prod", "deny", "tool:*drop*"), ETC);
        assertTrue(policy.decide(ALICE.in("acme", "showcase"), Target.tool("write_doc")).allowed());
        assertTrue(policy.decide(ALICE.in("acme", "demo-1"), Target.tool("write_doc")).allowed());
        assertFalse(policy.decide(ALICE, Target.tool("write_doc")).allowed(), "the tenant as a whole is no project");
        assertFalse(policy.decide(ALICE.in("acme", "other"), Target.tool("write_doc")).allowed());
        assertTrue(policy.decide(ALICE.in("acme", "other"), Target.tool("read_doc")).allowed(), "* is every project");
        assertTrue(policy.decide(ALICE, Target.tool("read_doc")).allowed(), "* is no project too");
        policy.addGrant(grant("droppers", "allow", "tool:read_drop"), ETC);
        assertTrue(policy.decide(ALICE.in("acme", "dev"), Target.tool("read_drop")).allowed());
        assertFalse(policy.decide(ALICE.in("acme", "prod"), Target.tool("read_drop")).allowed(), "deny wins in prod");
    }

    @Test
    void aDenyOfAnotherApplicableGrantWinsOverAnAllow() {
        PermissionPolicy policy = new PermissionPolicy(Map.of());
        policy.addGrant(grant("everyone", "allow", "*"), ETC);
        policy.addGrant(grant("no-danger", "roles", "dev", "deny", "tool:danger_*"), ETC);
        assertTrue(policy.decide(BOB, Target.tool("danger_zone")).allowed());
        assertFalse(policy.decide(ALICE, Target.tool("danger_zone")).allowed());
        assertTrue(policy.decide(ALICE, Target.tool("safe")).allowed());
    }

    @Test
    void aGrantWithABadPatternAllowsNothingButStillDenies() {
        Grant bad = grant("typo", "allow", "tool:", "deny", "tool:x");
        assertEquals(1, bad.problems().size(), bad.problems().toString());
        PermissionPolicy policy = new PermissionPolicy(Map.of());
        policy.addGrant(bad, ETC);
        policy.addGrant(grant("fine", "roles", "ops", "allow", "tool:y"), ETC);
        assertFalse(policy.decide(ALICE, Target.tool("anything")).allowed());
        assertFalse(policy.decide(ALICE, Target.tool("x")).allowed());
        assertTrue(policy.decide(BOB, Target.tool("y")).allowed());
    }

    @Test
    void removingAndEditingGrantsAppliesToTheNextDecision() {
        PermissionPolicy policy = new PermissionPolicy(Map.of());
        Grant grant = grant("devs", "roles", "dev", "allow", "tool:a");
        Grant other = grant("ops", "roles", "ops", "allow", "tool:b");
        policy.addGrant(grant, ETC);
        policy.addGrant(other, ETC);
        assertTrue(policy.decide(ALICE, Target.tool("a")).allowed());
        grant.modified(props("devs", "roles", "dev", "allow", "tool:c"));
        assertFalse(policy.decide(ALICE, Target.tool("a")).allowed());
        assertTrue(policy.decide(ALICE, Target.tool("c")).allowed());
        policy.removeGrant(grant, ETC);
        assertFalse(policy.decide(ALICE, Target.tool("c")).allowed(), "grants remain: what none allows is denied");
        policy.removeGrant(other, ETC);
        assertTrue(policy.decide(ALICE, Target.tool("c")).allowed(), "no grants at all: open again");
    }

    @Test
    void aTenantsAdministratorIsNotTheServersUnlessTheTenantIsNamed() {
        // the admin tools install code that reaches every tenant: an acme admin would administer globex too
        Decision denied = new PermissionPolicy(Map.of()).decide(TENANT_ADMIN, Target.tool("bundle_install"));
        assertFalse(denied.allowed());
        assertTrue(denied.reason().contains("adminTenants"), denied.reason());
        assertTrue(new PermissionPolicy(Map.of("adminTenants", "default, acme")).decide(TENANT_ADMIN,
                Target.tool("bundle_install")).allowed());
    }

    @Test
    void theAdminPatternsAndRoleAreConfigurable() {
        PermissionPolicy policy = new PermissionPolicy(Map.of("adminOnly", "tool:deploy_*", "adminRole", "ops",
                "adminTenants", "acme"));
        assertFalse(policy.decide(ALICE, Target.tool("deploy_now")).allowed());
        assertTrue(policy.decide(BOB, Target.tool("deploy_now")).allowed());
        assertTrue(policy.decide(ALICE, Target.tool("bundle_install")).allowed(), "no longer admin-only");
    }

    @Test
    void patternsMatchResourceUrisWithTheirSchemes() {
        TargetPattern p = TargetPattern.parse("resource:file:///docs/*");
        assertTrue(p.matches(Target.resource("file:///docs/a/b.md")));
        assertFalse(p.matches(Target.resource("file:///etc/passwd")));
        TargetPattern any = TargetPattern.parse("file:///docs/*");
        assertTrue(any.matches(Target.resource("file:///docs/x")), "a scheme is not a kind");
        assertFalse(TargetPattern.parse("tool:a?c").matches(Target.tool("a.bc")));
        assertTrue(TargetPattern.parse("tool:a.c").matches(Target.tool("a.c")), "dots are literal");
        assertFalse(TargetPattern.parse("tool:a.c").matches(Target.tool("abc")));
    }

    @Test
    void aGrantForSomeSubjectsAppliesToThemAlone() {
        PermissionPolicy policy = new PermissionPolicy(Map.of());
        policy.addGrant(grant("bob-converts", "subjects", "bob", "allow", "tool:convert_time"), ETC);
        policy.addGrant(grant("everyone", "allow", "tool:current_time, tool:delete_*"), ETC);
        policy.addGrant(grant("no-deletes-for-bob", "subjects", "b?b", "deny", "tool:delete_*"), ETC);
        assertTrue(policy.decide(BOB, Target.tool("convert_time")).allowed(), "bob's own grant");
        assertFalse(policy.decide(ALICE, Target.tool("convert_time")).allowed(), "a grant naming bob is not alice's");
        assertFalse(policy.decide(BOB, Target.tool("delete_all")).allowed(), "the deny naming bob holds for bob");
        assertTrue(policy.decide(ALICE, Target.tool("delete_all")).allowed(), "and for no one else");
        assertFalse(policy.decide(new CallerIdentity("bobby", "acme", Set.of(), true), Target.tool("convert_time"))
                .allowed(), "a subject glob matches the whole subject");
    }

    @Test
    void aGrantOfEtcThatWentAwayDuringTheStartIsStillAwaitedAndAFeaturesGrantDoesNotCount() {
        PermissionPolicy policy = new PermissionPolicy(Map.of());
        policy.awaitGrants(2, 600_000);
        Grant replaced = grant("devs", "roles", "dev", "allow", "tool:*");
        policy.addGrant(replaced, ETC);
        policy.removeGrant(replaced, ETC); // its file deleted (or replaced) during the start
        policy.addGrant(grant("no-delete", "roles", "dev", "deny", "tool:delete_*"), ETC);
        Decision early = policy.decide(ALICE, Target.tool("current_time"));
        assertFalse(early.allowed(), "one of the two grants of etc/ is there, the other is still on its way");
        assertTrue(early.reason().contains("starting"), early.reason());
        policy.addGrant(grant("devs", "roles", "dev", "allow", "tool:*"), ETC);
        assertTrue(policy.decide(ALICE, Target.tool("current_time")).allowed(), "both there");
        assertFalse(policy.decide(ALICE, Target.tool("delete_all")).allowed());

        PermissionPolicy other = new PermissionPolicy(Map.of());
        other.awaitGrants(1, 600_000);
        Grant feature = grant("from-a-feature", "allow", "tool:*");
        other.addGrant(feature, Map.of());
        other.removeGrant(feature, Map.of()); // a feature's grant going does not take one of etc/'s away
        other.addGrant(grant("devs", "roles", "dev", "allow", "tool:*"), ETC);
        assertTrue(other.decide(ALICE, Target.tool("current_time")).allowed(), "the one grant of etc/ came");
    }

    @Test
    void theWaitForTheGrantsOfTheStartLastsItsTime() throws InterruptedException {
        PermissionPolicy policy = new PermissionPolicy(Map.of());
        policy.awaitGrants(1, 600_000);
        Thread.sleep(300); // the wait's timer runs meanwhile: it must not give up before its time
        Decision d = policy.decide(ALICE, Target.tool("current_time"));
        assertFalse(d.allowed(), "with no grant yet everything would be allowed: not while the grant is on its way");
        assertTrue(d.reason().contains("starting"), d.reason());
        assertEquals(List.of(), policy.problems(), "not given up yet");
    }

    @Test
    void theStartsCountOfGrantFilesMakesThePolicyWaitForThem() {
        Framework framework = new Framework("1");
        PermissionPolicy policy = new PermissionPolicy(framework.context(), Map.of());
        try {
            Decision early = policy.decide(ALICE, Target.tool("current_time"));
            assertFalse(early.allowed(), "etc/ held a grant file at the start: nothing is allowed until it is a grant");
            assertTrue(early.reason().contains("starting"), early.reason());
            policy.addGrant(grant("devs", "roles", "dev", "allow", "tool:*_time"), ETC);
            assertTrue(policy.decide(ALICE, Target.tool("current_time")).allowed());
        } finally {
            policy.deactivate();
        }
        PermissionPolicy unset = new PermissionPolicy(new Framework(null).context(), Map.of());
        assertTrue(unset.decide(ALICE, Target.tool("current_time")).allowed(), "no grant file at the start: no wait");
        unset.deactivate();
    }

    @Test
    void everyChangeOfTheRulesIsAnnouncedToTheEngine() throws InterruptedException {
        // the engine tells the clients that their lists changed when the revision does: a silent change leaves a
        // client offering a tool it can no longer call, or hiding one it now may
        Framework framework = new Framework(null);
        PermissionPolicy policy = new PermissionPolicy(framework.context(), Map.of());
        try {
            long start = framework.revision();
            Grant devs = grant("devs", "roles", "dev", "allow", "tool:a");
            policy.addGrant(devs, ETC);
            long added = framework.revision();
            assertTrue(added > start, "a grant added");
            devs.modified(props("devs", "roles", "dev", "allow", "tool:b"));
            long edited = framework.revision();
            assertTrue(edited > added, "a grant edited");
            policy.removeGrant(devs, ETC);
            long removed = framework.revision();
            assertTrue(removed > edited, "a grant removed");
            policy.modified(Map.of("adminOnly", "tool:deploy_*"));
            long configured = framework.revision();
            assertTrue(configured > removed, "the admin-only targets changed");
            policy.awaitGrants(1, 50);
            long deadline = System.nanoTime() + 10_000_000_000L;
            while (policy.problems().isEmpty() && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            assertEquals(1, policy.problems().size(), policy.problems()::toString);
            long givenUp = framework.revision();
            assertTrue(givenUp > configured, "the wait for the start's grants given up: everything was denied until then");
        } finally {
            policy.deactivate();
        }
        assertTrue(framework.unregistered(), "the marker goes with the policy");
    }

    @Test
    void aValueOfTheWrongTypeInThisFileAllowsNothingToAnyoneUntilFixed() {
        // adminRole is one role: a list would otherwise fall back to the default role, which the operator meant to replace
        PermissionPolicy policy = new PermissionPolicy(Map.of("adminRole", List.of("ops", "sre")));
        for (CallerIdentity caller : List.of(ALICE, ROOT, CallerIdentity.ANONYMOUS)) {
            Decision d = policy.decide(caller, Target.tool("current_time"));
            assertFalse(d.allowed(), caller.toString());
            assertTrue(d.reason().contains("nothing is allowed until it is fixed"), d.reason());
        }
        assertFalse(policy.decide(ROOT, Target.tool("bundle_install")).allowed());
        assertEquals(1, policy.problems().size(), policy.problems()::toString);
        assertTrue(policy.problems().get(0).reason().contains("nothing is allowed until it is fixed"),
                policy.problems()::toString);
        policy.modified(Map.of("adminRole", "ops"));
        assertEquals(List.of(), policy.problems(), "fixed in place");
        assertTrue(policy.decide(ALICE, Target.tool("current_time")).allowed());
    }

    /**
     * The little of a framework the policy uses: its properties (the launcher's count of grant files) and the
     * registration of the revision marker, whose last revision it keeps.
     */
    private static final class Framework {

        private final String grantFiles;
        private final List<Long> revisions = new ArrayList<>();
        private boolean unregistered;

        Framework(String grantFiles) {
            this.grantFiles = grantFiles;
        }

        synchronized long revision() {
            return revisions.isEmpty() ? -1 : revisions.get(revisions.size() - 1);
        }

        synchronized boolean unregistered() {
            return unregistered;
        }

        private synchronized void record(Dictionary<?, ?> properties) {
            revisions.add((Long) properties.get(PolicyRevision.PROPERTY));
        }

        BundleContext context() {
            ServiceRegistration<?> registration = (ServiceRegistration<?>) Proxy.newProxyInstance(
                    ServiceRegistration.class.getClassLoader(), new Class<?>[] {ServiceRegistration.class},
                    (proxy, method, args) -> {
                        switch (method.getName()) {
                            case "setProperties" -> record((Dictionary<?, ?>) args[0]);
                            case "unregister" -> {
                                synchronized (this) {
                                    unregistered = true;
                                }
                            }
                            default -> {
                            }
                        }
                        return null;
                    });
            return (BundleContext) Proxy.newProxyInstance(BundleContext.class.getClassLoader(),
                    new Class<?>[] {BundleContext.class}, (proxy, method, args) -> switch (method.getName()) {
                        case "getProperty" -> PermissionPolicy.GRANTS_PROPERTY.equals(args[0]) ? grantFiles : null;
                        case "registerService" -> {
                            record((Dictionary<?, ?>) args[2]);
                            yield registration;
                        }
                        default -> null;
                    });
        }
    }

    private static Grant grant(String name, String... keyValues) {
        return new Grant(props(name, keyValues));
    }

    private static Map<String, Object> props(String name, String... keyValues) {
        Map<String, Object> p = new HashMap<>();
        p.put("service.pid", Grant.FACTORY_PID + "~" + name);
        for (int i = 0; i < keyValues.length; i += 2) {
            p.put(keyValues[i], keyValues[i + 1]);
        }
        return p;
    }
}
