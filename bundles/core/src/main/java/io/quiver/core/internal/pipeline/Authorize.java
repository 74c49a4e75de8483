package io.quiver.core.internal.pipeline;

import io.quiver.api.CallerIdentity;
import io.quiver.api.call.CallEvent;
import io.quiver.api.call.CallPolicy;
import io.quiver.api.call.Decision;
import io.quiver.api.call.Target;
import io.quiver.core.internal.messages.CallToolResult;
import java.util.List;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Stage 2, and the filter of every list: asks the {@link CallPolicy} in force whether the caller may see
 * and use a target. One decision serves both, so what a caller cannot call it does not see and the other
 * way round; a denied call hears what an unknown tool would. A refusal ({@link Decision#refuse}) lists the
 * target and answers a call with why it was not run. A policy that fails denies (and is logged).
 */
public final class Authorize {

    private static final Logger LOG = LoggerFactory.getLogger(Authorize.class);

    private final Extensions extensions;

    public Authorize(Extensions extensions) {
        this.extensions = extensions;
    }

    /** The decision for a caller and a target; without a policy (none required), allowed. */
    public Decision decide(CallerIdentity caller, Target target) {
        CallPolicy policy = extensions.policy();
        if (policy == null) {
            return Decision.allow();
        }
        try {
            Decision decision = policy.decide(caller, target);
            return decision == null ? Decision.deny("the policy gave no decision") : decision;
        } catch (RuntimeException e) {
            LOG.error("The call policy failed on {} {} for {}; denied", target.kind(), target.name(), caller.subject(), e);
            return Decision.deny("the policy failed");
        }
    }

    public boolean allows(CallerIdentity caller, Target target) {
        return decide(caller, target).allowed();
    }

    /** What of a sorted list the caller may see, in the same order (the list itself without a policy). */
    public <T> List<T> visible(CallerIdentity caller, List<T> items, Function<T, Target> target) {
        if (extensions.policy() == null) {
            return items;
        }
        return items.stream().filter(item -> decide(caller, target.apply(item)).listed()).toList();
    }

    /**
     * {@code null} when the caller may call the tool; an error result saying why when the policy refuses
     * a tool it lists ({@link Decision#refuse}).
     *
     * @throws io.quiver.core.internal.rpc.McpException the unknown tool's error, for a tool the policy hides
     */
    CallToolResult authorize(Call call) {
        Decision decision = decide(call.scope().caller(), Target.tool(call.name()));
        call.step("authorize", decision.allowed(), decision.reason());
        if (decision.allowed()) {
            return null;
        }
        call.end(CallEvent.Ending.DENIED, decision.reason());
        if (decision.listed()) {
            return CallToolResult.error("The call of " + call.name() + " was not run: " + decision.reason());
        }
        throw Resolve.unknownTool(call.name());
    }
}
