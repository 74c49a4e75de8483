package io.quiver.core.internal.pipeline;

import io.quiver.api.ToolResult;
import io.quiver.api.call.CallEvent;
import io.quiver.api.call.HostChannel;
import io.quiver.core.internal.json.Json;
import io.quiver.core.internal.messages.CallToolResult;
import java.util.concurrent.CancellationException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Stage 8: the host channel sees the (bounded) result before the caller does and delivers it, replaces
 * it or withholds it (an error result of its own). Without a host, or when the host keeps it, the
 * result goes out as it is. A host that fails or does not answer in time is logged and the call fails:
 * a result the host could not review is not delivered.
 */
final class Review {

    private static final Logger LOG = LoggerFactory.getLogger(Review.class);

    private final HostWait wait;

    Review(HostWait wait) {
        this.wait = wait;
    }

    CallToolResult review(Call call, CallToolResult result) {
        HostChannel host = call.host();
        if (host == null) {
            return result;
        }
        ToolResult given = toolResult(result);
        ToolResult reviewed;
        try {
            reviewed = wait.ask(call, "review the result", () -> host.review(call.invocation(), given));
        } catch (CancellationException e) {
            throw e;
        } catch (HostWait.HostTimeout e) {
            LOG.warn("Result of {} ({}) not reviewed: {}", call.name(), call.scope().invocationId(), e.getMessage());
            call.step("review", false, e.getMessage());
            return undelivered(call, e.getMessage());
        } catch (RuntimeException e) {
            LOG.error("The host channel failed to review {} ({})", call.name(), call.scope().invocationId(), e);
            call.step("review", false, "the host failed to review the result");
            return undelivered(call, "The host failed to review it.");
        }
        if (reviewed == null || reviewed == given) {
            call.step("review", true, "delivered as the tool gave it");
            return result;
        }
        call.step("review", true, "result replaced by the host");
        return CallToolResult.of(reviewed, Json.MAPPER);
    }

    /** The answer when the stages after the tool could not hand its result over: the caller reads why. */
    static CallToolResult undelivered(Call call, String why) {
        call.end(CallEvent.Ending.FAILED, why);
        return CallToolResult.error("The result of " + call.name() + " was not delivered: " + why);
    }

    /** The wire result as the API has it (structured content stays a JSON tree, which maps to itself). */
    static ToolResult toolResult(CallToolResult result) {
        return new ToolResult(result.content(), result.structuredContent(), result.isError(), result.meta());
    }
}
