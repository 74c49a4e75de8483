package io.quiver.transport.http.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quiver.api.CallerIdentity;
import io.quiver.lib.config.TypedConfig;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class CallerLimitsTest {

    private static final CallerIdentity ALICE = new CallerIdentity("alice", "acme", Set.of(), true);
    private static final CallerIdentity BOB = new CallerIdentity("bob", "acme", Set.of(), true);
    private static final CallerIdentity CAROL = new CallerIdentity("carol", "other", Set.of(), true);

    @Test
    void aSubjectBeyondItsBurstWaitsAndOthersDoNot() {
        CallerLimits limits = limits(1, 5, 0, 0, 0);
        for (int i = 0; i < 5; i++) {
            assertEquals(0, limits.admit(ALICE), "within the burst: " + i);
        }
        long wait = limits.admit(ALICE);
        assertTrue(wait >= 1, "over the burst: " + wait);
        assertEquals(0, limits.admit(BOB), "another subject has its own bucket");
        assertEquals(0, limits.admit(CallerIdentity.ANONYMOUS), "the local operator is not limited");
    }

    @Test
    void aTenantLimitCountsAllItsSubjects() {
        CallerLimits limits = limits(0, 0, 1, 3, 0);
        assertEquals(0, limits.admit(ALICE));
        assertEquals(0, limits.admit(BOB));
        assertEquals(0, limits.admit(ALICE));
        assertTrue(limits.admit(BOB) >= 1, "the tenant's burst is spent");
        assertEquals(0, limits.admit(CAROL), "another tenant");
    }

    @Test
    void callsInProgressAreCountedAndGivenBack() {
        CallerLimits limits = limits(0, 0, 0, 0, 2);
        assertEquals(1, limits.enterCalls(ALICE, 1));
        assertEquals(1, limits.enterCalls(ALICE, 1));
        assertEquals(-1, limits.enterCalls(ALICE, 1));
        assertEquals(1, limits.enterCalls(BOB, 1));
        limits.exitCalls(ALICE, 1);
        assertEquals(1, limits.enterCalls(ALICE, 1));
        assertEquals(0, limits.enterCalls(CallerIdentity.ANONYMOUS, 1) + limits.enterCalls(CallerIdentity.ANONYMOUS, 1)
                + limits.enterCalls(CallerIdentity.ANONYMOUS, 1), "the local operator is never counted");
    }

    @Test
    void aBatchCountsEachOfItsRequestsAndCallsAndALargerOneThanTheLimitsTakesThemWhole() {
        CallerLimits limits = limits(1, 5, 0, 0, 3);
        assertEquals(0, limits.admit(ALICE, 3));
        assertTrue(limits.admit(ALICE, 3) >= 1, "two tokens left, three asked");
        assertEquals(0, limits.admit(ALICE, 2), "none was taken by the refused three");
        assertTrue(limits.admit(ALICE) >= 1);
        assertEquals(0, limits.admit(BOB, 50), "more than the burst takes a full bucket");
        assertTrue(limits.admit(BOB) >= 1);

        assertEquals(2, limits.enterCalls(ALICE, 2));
        assertEquals(-1, limits.enterCalls(ALICE, 2), "two in progress, two more would be four");
        assertEquals(1, limits.enterCalls(ALICE, 1));
        limits.exitCalls(ALICE, 2);
        limits.exitCalls(ALICE, 1);
        assertEquals(3, limits.enterCalls(ALICE, 10), "more than the limit start when none is in progress, as the limit");
        assertEquals(-1, limits.enterCalls(ALICE, 1));
        limits.exitCalls(ALICE, 3);
        assertEquals(3, limits.enterCalls(ALICE, 3), "all given back");
        assertEquals(0, limits.enterCalls(CallerIdentity.ANONYMOUS, 5), "the local operator counts none");
    }

    @Test
    void callsGiveBackWhatTheyTookWhenTheLimitChangesMeanwhile() {
        CallerLimits limits = limits(0, 0, 0, 0, 10);
        int counted = limits.enterCalls(ALICE, 8);
        limits.configure(config(0, 0, 0, 0, 4));
        limits.exitCalls(ALICE, counted);
        assertEquals(4, limits.enterCalls(ALICE, 4), "the eight taken under the old limit all came back");
        limits.exitCalls(ALICE, 4);
        limits.configure(config(0, 0, 0, 0, 0));
        assertEquals(0, limits.enterCalls(ALICE, 2), "no limit: nothing counted");
        limits.configure(config(0, 0, 0, 0, 2));
        limits.exitCalls(ALICE, 0);
        assertEquals(2, limits.enterCalls(ALICE, 2), "and nothing given back that was never taken");
    }

    @Test
    void zeroMeansNoLimit() {
        CallerLimits limits = limits(0, 0, 0, 0, 0);
        for (int i = 0; i < 1000; i++) {
            assertEquals(0, limits.admit(ALICE));
            assertEquals(0, limits.enterCalls(ALICE, 1));
        }
    }

    @Test
    void aRefusedCallLeavesTheCallsInProgressCountedAndGivingOneBackFreesOne() {
        CallerLimits limits = limits(0, 0, 0, 0, 2);
        assertEquals(1, limits.enterCalls(ALICE, 1));
        assertEquals(1, limits.enterCalls(ALICE, 1));
        for (int i = 0; i < 3; i++) {
            assertEquals(-1, limits.enterCalls(ALICE, 1), "still two in progress: refused again, " + i);
        }
        limits.exitCalls(ALICE, 1);
        assertEquals(1, limits.enterCalls(ALICE, 1), "one place came free");
        assertEquals(-1, limits.enterCalls(ALICE, 1), "and only one");
    }

    @Test
    void aSubjectWithinItsOwnRateStillCountsForItsTenant() {
        CallerLimits limits = limits(100, 100, 1, 2, 0);
        assertEquals(0, limits.admit(ALICE));
        assertEquals(0, limits.admit(BOB));
        assertTrue(limits.admit(ALICE) >= 1, "alice has tokens of her own, but the tenant's burst is spent");
    }

    @Test
    void withoutABurstSetItIsTwiceTheRate() {
        CallerLimits limits = limits(2, 0, 0, 0, 0);
        for (int i = 0; i < 4; i++) {
            assertEquals(0, limits.admit(ALICE), "within twice the rate: " + i);
        }
        assertTrue(limits.admit(ALICE) >= 1, "the fifth at once waits");
        CallerLimits tenant = limits(0, 0, 1.5, 0, 0);
        for (int i = 0; i < 3; i++) {
            assertEquals(0, tenant.admit(i % 2 == 0 ? ALICE : BOB), "within twice the tenant's rate: " + i);
        }
        assertTrue(tenant.admit(BOB) >= 1);
    }

    @Test
    void theWaitSaysWhenTheNextTokenIsThere() {
        CallerLimits limits = limits(0.25, 1, 0, 0, 0); // a token every 4 s
        assertEquals(0, limits.admit(ALICE));
        long wait = limits.admit(ALICE);
        assertTrue(wait >= 3 && wait <= 4, "Retry-After of about 4 s: " + wait);
    }

    private static CallerLimits limits(double subjectRate, int subjectBurst, double tenantRate, int tenantBurst,
            int maxCalls) {
        CallerLimits limits = new CallerLimits();
        limits.configure(config(subjectRate, subjectBurst, tenantRate, tenantBurst, maxCalls));
        return limits;
    }

    /** The settings as a configuration file would give them, the rest at their defaults. */
    private static HttpConfig config(double subjectRate, int subjectBurst, double tenantRate, int tenantBurst, int maxCalls) {
        return TypedConfig.read(HttpConfig.class, Map.of("subjectRequestsPerSecond", Double.toString(subjectRate),
                "subjectBurst", Integer.toString(subjectBurst), "tenantRequestsPerSecond", Double.toString(tenantRate),
                "tenantBurst", Integer.toString(tenantBurst), "maxConcurrentCallsPerSubject", Integer.toString(maxCalls)),
                null).config();
    }
}
