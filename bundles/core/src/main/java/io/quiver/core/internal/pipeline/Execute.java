package io.quiver.core.internal.pipeline;

import io.quiver.api.Outcome;
import io.quiver.api.ProtocolError;
import io.quiver.api.ToolResult;
import io.quiver.api.call.CallEvent;
import io.quiver.api.input.InputResponse;
import io.quiver.core.internal.catalog.ToolEntry;
import io.quiver.core.internal.messages.CallToolResult;
import io.quiver.core.internal.rpc.McpException;
import io.quiver.core.internal.settings.EngineSettings;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Stage 5, the one attempt runner of calls and tasks: runs the tool once on a tool thread under its
 * timeout, interrupts it when the call is cancelled, and turns what goes wrong into a result the model
 * can read (the details stay in the log under the invocation id). Progress and log messages go out
 * through the request's context while it runs. The tool's share of the tool threads
 * ({@link ToolShares}) was taken before the call got a request thread.
 */
final class Execute {

    private static final Logger LOG = LoggerFactory.getLogger(Execute.class);

    private final ExecutorService toolPool;
    private final EngineSettings settings;
    private final ToolLimitsRegistry limits;

    Execute(ExecutorService toolPool, EngineSettings settings, ToolLimitsRegistry limits) {
        this.toolPool = toolPool;
        this.settings = settings;
        this.limits = limits;
    }

    /**
     * One attempt with the answers so far.
     *
     * @param asTask the attempt of a task: the task timeout applies instead of the tool's
     * @param escalated what the tool sees as {@code ToolCall.escalated()}
     * @return the tool's outcome; a failure or timeout as a done error result (the call is marked so)
     * @throws McpException when the tool refused with a protocol error
     * @throws CancellationException when the call was cancelled
     */
    Outcome attempt(Call call, Map<String, InputResponse> answers, boolean asTask, boolean escalated) {
        ToolEntry tool = call.tool();
        AttemptCall attempt = new AttemptCall(call.name(), call.arguments(), answers, escalated, call.scope(),
                tool.mapper().get());
        long timeout = asTask ? settings.config().taskTimeoutMs() : timeout(tool);
        Future<Outcome> future;
        try {
            future = toolPool.submit(() -> tool.tool().call(attempt));
        } catch (RejectedExecutionException e) {
            call.end(CallEvent.Ending.FAILED, "no tool thread free");
            return Outcome.done(ToolResult.error("The server is busy: too many tool calls in progress. Try again shortly."));
        }
        try (AutoCloseable hook = call.scope().onCancel(() -> future.cancel(true))) {
            Outcome outcome = future.get(timeout, TimeUnit.MILLISECONDS);
            if (outcome == null) {
                LOG.error("Tool {} returned no outcome ({})", call.name(), call.scope().invocationId());
                return failed(call, "the tool returned no outcome");
            }
            return outcome;
        } catch (TimeoutException e) {
            future.cancel(true);
            LOG.warn("Tool {} timed out after {} ms ({})", call.name(), timeout, call.scope().invocationId());
            call.end(CallEvent.Ending.FAILED, "timed out after " + timeout + " ms");
            return Outcome.done(ToolResult.error("The tool " + call.name() + " timed out after " + timeout + " ms."));
        } catch (CancellationException e) {
            throw e;
        } catch (ExecutionException e) {
            if (e.getCause() instanceof ProtocolError refusal) {
                call.end(CallEvent.Ending.FAILED, refusal.getMessage());
                throw new McpException(refusal.code(), refusal.getMessage());
            }
            LOG.error("Tool {} failed ({})", call.name(), call.scope().invocationId(), e.getCause());
            return failed(call, String.valueOf(e.getCause()));
        } catch (InterruptedException e) {
            future.cancel(true);
            Thread.currentThread().interrupt();
            throw new CancellationException("interrupted");
        } catch (Exception e) {
            LOG.error("Tool {} failed ({})", call.name(), call.scope().invocationId(), e);
            return failed(call, String.valueOf(e));
        }
    }

    /** The per-attempt timeout: configured for the tool, else the tool's own, else the server's. */
    private long timeout(ToolEntry tool) {
        ToolLimits configured = limits.of(tool.name());
        return configured.timeoutMs() > 0 ? configured.timeoutMs()
                : tool.timeoutMs() > 0 ? tool.timeoutMs() : settings.config().toolTimeoutMs();
    }

    /** The generic answer for a tool that failed: its message stays in the log. */
    static Outcome failed(Call call, String why) {
        call.end(CallEvent.Ending.FAILED, why);
        return Outcome.done(ToolResult.error(failure(call)));
    }

    /** The same, in its wire form. */
    static CallToolResult failedResult(Call call, String why) {
        call.end(CallEvent.Ending.FAILED, why);
        return CallToolResult.error(failure(call));
    }

    private static String failure(Call call) {
        return "The tool " + call.name() + " failed (invocation " + call.scope().invocationId()
                + "). The server log has the details.";
    }
}
