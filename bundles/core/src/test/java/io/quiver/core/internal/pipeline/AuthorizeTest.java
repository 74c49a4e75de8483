package io.quiver.core.internal.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quiver.api.CallerIdentity;
import io.quiver.api.Outcome;
import io.quiver.api.call.CallEvent;
import io.quiver.api.call.CallPolicy;
import io.quiver.api.call.Decision;
import io.quiver.api.call.Target;
import io.quiver.core.internal.rpc.McpException;
import java.util.List;
import io.quiver.api.content.TextContent;
import io.quiver.core.internal.messages.CallToolResult;
import org.junit.jupiter.api.Test;

class AuthorizeTest {

    private final Stages stages = new Stages().listening();
    private final Authorize authorize = new Authorize(stages.extensions);

    @Test
    void withoutAPolicyEverythingIsAllowedAndListsAreKept() {
        List<String> names = List.of("a", "b");
        assertTrue(authorize.allows(CallerIdentity.ANONYMOUS, Target.tool("a")));
        assertEquals(names, authorize.visible(CallerIdentity.ANONYMOUS, names, Target::tool));
    }

    @Test
    void whileARequiredPolicyHasNotComeNothingIsSeenOrUsedAndThenItsRulesDecide() {
        stages.extensions.policyRequired(true); // as the launcher's features say: the permissions bundle brings one
        stages.tool("secret", call -> Outcome.text("ran"), null);
        assertEquals(List.of(), authorize.visible(CallerIdentity.ANONYMOUS, List.of("a", "secret"), Target::tool));
        Call early = stages.resolved("secret", "{}");
        assertThrows(McpException.class, () -> authorize.authorize(early), "a call a moment early is not let through");
        assertEquals(CallEvent.Ending.DENIED, stages.over(early).ending());

        stages.extensions.addPolicy((caller, target) -> target.name().equals("secret")
                ? Decision.deny("not for " + caller.subject()) : Decision.allow(), 0, 1);
        assertEquals(List.of("a"), authorize.visible(CallerIdentity.ANONYMOUS, List.of("a", "secret"), Target::tool));
        stages.extensions.removePolicy(1);
        assertEquals(List.of(), authorize.visible(CallerIdentity.ANONYMOUS, List.of("a"), Target::tool),
                "a required policy that goes allows nothing either");
    }

    @Test
    void aDeniedCallHearsWhatAnUnknownToolWouldAndIsRecordedAsDenied() {
        stages.tool("secret", call -> Outcome.text("ran"), null);
        stages.extensions.addPolicy((caller, target) -> target.name().equals("secret")
                ? Decision.deny("not for " + caller.subject()) : Decision.allow(), 0, 1);
        Call call = stages.resolved("secret", "{}");
        McpException e = assertThrows(McpException.class, () -> authorize.authorize(call));
        assertEquals("Unknown tool: secret", e.getMessage());
        CallEvent event = stages.over(call);
        assertEquals(CallEvent.Ending.DENIED, event.ending());
        assertEquals(new CallEvent.Step("authorize", false, "not for anonymous"), event.decisions().get(0));
    }

    @Test
    void aRefusedToolStaysListedAndItsCallIsAnsweredWithWhy() {
        stages.tool("deploy", call -> Outcome.text("ran"), null);
        stages.extensions.addPolicy((caller, target) -> target.name().equals("deploy")
                ? Decision.refuse("it needs a host's approval") : Decision.allow(), 0, 1);
        assertEquals(List.of("deploy", "other"), authorize.visible(CallerIdentity.ANONYMOUS, List.of("deploy", "other"),
                Target::tool));
        Call call = stages.resolved("deploy", "{}");
        CallToolResult refused = authorize.authorize(call);
        assertTrue(refused.isError());
        assertEquals("The call of deploy was not run: it needs a host's approval",
                ((TextContent) refused.content().get(0)).text());
        assertEquals(CallEvent.Ending.DENIED, stages.over(call).ending());
    }

    @Test
    void oneDecisionFiltersTheListsInOrder() {
        stages.extensions.addPolicy((caller, target) -> target.kind() == Target.Kind.TOOL
                && target.name().startsWith("x") ? Decision.deny("x") : Decision.allow(), 0, 1);
        assertEquals(List.of("a", "b"), authorize.visible(CallerIdentity.ANONYMOUS, List.of("a", "x1", "b", "x2"),
                Target::tool));
        assertEquals(List.of("x1"), authorize.visible(CallerIdentity.ANONYMOUS, List.of("x1"), Target::prompt));
    }

    @Test
    void aPolicyThatFailsOrGivesNoDecisionDenies() {
        stages.extensions.addPolicy((caller, target) -> {
            throw new IllegalStateException("broken");
        }, 0, 1);
        assertFalse(authorize.allows(CallerIdentity.ANONYMOUS, Target.tool("a")));
        CallPolicy silent = (caller, target) -> null;
        stages.extensions.addPolicy(silent, 5, 2);
        assertEquals(Decision.deny("the policy gave no decision"),
                authorize.decide(CallerIdentity.ANONYMOUS, Target.tool("a")));
    }

    @Test
    void theHighestRankedPolicyDecidesAndTheNextTakesOverWhenItGoes() {
        CallPolicy allowAll = (caller, target) -> Decision.allow();
        CallPolicy denyAll = (caller, target) -> Decision.deny("no");
        stages.extensions.addPolicy(allowAll, 0, 1);
        stages.extensions.addPolicy(denyAll, 10, 2);
        assertFalse(authorize.allows(CallerIdentity.ANONYMOUS, Target.tool("a")));
        stages.extensions.removePolicy(2);
        assertTrue(authorize.allows(CallerIdentity.ANONYMOUS, Target.tool("a")));
        stages.extensions.removePolicy(1);
        assertTrue(authorize.allows(CallerIdentity.ANONYMOUS, Target.tool("a")));
    }
}
