package io.quiver.core.internal.pipeline;

import io.quiver.api.ToolResult;
import io.quiver.api.call.HostChannel;
import io.quiver.core.internal.json.Json;
import io.quiver.core.internal.messages.CallToolResult;
import java.util.concurrent.CancellationException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Stage 8: the host channel sees the (bounded) result before the caller does and may return another
 * one. Without a host, or when the host keeps it, the result goes out as it is. A host that fails is
 * logged and the call fails: a result the host could not review is not delivered.
 */
final class Review {

    private static final Logger LOG = LoggerFactory.getLogger(Review.class);

    CallToolResult review(Call call, CallToolResult result) {
        HostChannel host = call.host();
        if (host == null) {
            return result;
        }
        ToolResult given = toolResult(result);
        ToolResult reviewed;
        try {
            reviewed = call.askHost(() -> host.review(call.invocation(), given));
        } catch (CancellationException e) {
            throw e;
        } catch (RuntimeException e) {
            LOG.error("The host channel failed to review {} ({})", call.name(), call.scope().invocationId(), e);
            call.step("review", false, "the host failed to review the result");
            return Execute.failedResult(call, "the host failed to review the result");
        }
        if (reviewed == null || reviewed == given) {
            return result;
        }
        call.step("review", true, "result replaced by the host");
        return CallToolResult.of(reviewed, Json.MAPPER);
    }

    /** The wire result as the API has it (structured content stays a JSON tree, which maps to itself). */
    static ToolResult toolResult(CallToolResult result) {
        return new ToolResult(result.content(), result.structuredContent(), result.isError(), result.meta());
    }
}
