package io.quiver.core.internal.pipeline;

import io.quiver.api.Outcome;
import io.quiver.api.ProtocolError;
import io.quiver.api.ToolResult;
import io.quiver.api.call.CallEvent;
import io.quiver.api.input.InputResponse;
import io.quiver.core.internal.catalog.ToolEntry;
import io.quiver.core.internal.exec.Watchdog;
import io.quiver.core.internal.messages.CallToolResult;
import io.quiver.core.internal.rpc.McpException;
import io.quiver.core.internal.settings.EngineSettings;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.LongSupplier;
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

    /** How long a tool past its timeout or cancellation has, once interrupted, before its call is answered without it. */
    static final long GRACE_MS = 100;

    private final ExecutorService toolPool;
    private final Watchdog watchdog;
    private final Executor takeOvers;
    private final EngineSettings settings;
    private final ToolLimitsRegistry limits;
    private final ToolHealth health;

    Execute(ExecutorService toolPool, EngineSettings settings, ToolLimitsRegistry limits) {
        this(toolPool, null, null, settings, limits);
    }

    /** With the clock the tools' cooldowns are measured by (tests). */
    Execute(ExecutorService toolPool, EngineSettings settings, ToolLimitsRegistry limits, LongSupplier clock) {
        this(toolPool, null, null, settings, limits, new ToolHealth(settings, clock));
    }

    /**
     * @param watchdog watches attempts that run on the serving thread ({@link Call#inline()});
     *     without one every attempt takes a tool thread
     * @param takeOvers where a call whose thread is stuck in a tool is answered
     */
    Execute(ExecutorService toolPool, Watchdog watchdog, Executor takeOvers, EngineSettings settings,
            ToolLimitsRegistry limits) {
        this(toolPool, watchdog, takeOvers, settings, limits, new ToolHealth(settings));
    }

    private Execute(ExecutorService toolPool, Watchdog watchdog, Executor takeOvers, EngineSettings settings,
            ToolLimitsRegistry limits, ToolHealth health) {
        this.toolPool = toolPool;
        this.watchdog = watchdog;
        this.takeOvers = takeOvers;
        this.settings = settings;
        this.limits = limits;
        this.health = health;
    }

    /**
     * One attempt with the answers so far.
     *
     * @param asTask the attempt of a task: the task timeout applies instead of the tool's
     * @param escalated what the tool sees as {@code ToolCall.escalated()}
     * @return the tool's outcome; a failure or timeout as a done error result (the call is marked so)
     * @throws McpException when the tool refused with a protocol error
     * @throws CancellationException when the call was cancelled
     * @throws TakenOver when the call was answered elsewhere while this thread waited for the tool
     */
    Outcome attempt(Call call, Map<String, InputResponse> answers, boolean asTask, boolean escalated) {
        ToolEntry tool = call.tool();
        long cooling = health.cooling(tool);
        if (cooling > 0) {
            int failures = settings.config().toolFailuresBeforeCooldown();
            call.end(CallEvent.Ending.FAILED, "cooling down after " + failures + " failures in a row");
            return Outcome.done(ToolResult.error("The tool " + call.name() + " is cooling down after failing " + failures
                    + " times in a row; it was not run. Try again in " + ((cooling + 999) / 1000) + " s." + hint(call)));
        }
        AttemptCall attempt = new AttemptCall(call.name(), call.arguments(), answers, escalated, call.scope(),
                tool.mapper().get());
        long timeout = asTask ? settings.config().taskTimeoutMs() : timeout(tool);
        if (!asTask && watchdog != null && call.inline()) {
            return inline(call, attempt, timeout);
        }
        Future<Outcome> future;
        try {
            future = toolPool.submit(() -> tool.tool().call(attempt));
        } catch (RejectedExecutionException e) {
            // the server's state, not the tool's: not counted against its health
            call.end(CallEvent.Ending.FAILED, "no tool thread free");
            return Outcome.done(ToolResult.error("The server is busy: too many tool calls in progress. Try again shortly."));
        }
        try (AutoCloseable hook = call.scope().onCancel(() -> future.cancel(true))) {
            return settled(call, future.get(timeout, TimeUnit.MILLISECONDS));
        } catch (TimeoutException e) {
            attempt.over(); // a tool that polls isCancelled() rather than its interrupt stops too
            future.cancel(true);
            return timedOut(call, timeout);
        } catch (CancellationException e) {
            throw e;
        } catch (ExecutionException e) {
            return failed(call, e.getCause());
        } catch (InterruptedException e) {
            future.cancel(true);
            Thread.currentThread().interrupt();
            throw new CancellationException("interrupted");
        } catch (Exception e) {
            return failed(call, e);
        }
    }

    /**
     * The attempt on this thread, no hand-off: a watchdog interrupts the tool at its timeout (or when
     * the call is cancelled), and if the tool does not return within {@link #GRACE_MS} after that, the
     * call is answered without it ({@link Call#takeOver}) while this thread keeps waiting for the tool.
     */
    private Outcome inline(Call call, AttemptCall attempt, long timeout) {
        Watch watch = new Watch(Thread.currentThread());
        Watchdog.Deadline deadline = watchdog.watch(timeout, () -> {
            attempt.over(); // a tool that polls isCancelled() rather than its interrupt stops too
            if (watch.interrupt(Watch.TIMED_OUT)) {
                watchdog.later(GRACE_MS, () -> takeOver(call, watch, timeout));
            }
        });
        Outcome outcome = null;
        Throwable failure = null;
        int how;
        try (AutoCloseable hook = call.scope().onCancel(() -> {
            if (watch.interrupt(Watch.CANCELLED)) {
                watchdog.later(GRACE_MS, () -> takeOver(call, watch, -1));
            }
        })) {
            try {
                outcome = call.tool().tool().call(attempt);
            } catch (Exception | Error e) {
                // an Error too (StackOverflowError, a NoClassDefFoundError of a missing optional import): the tool
                // failed, as it does on a tool thread, where the future holds whatever the tool threw
                failure = e;
            } finally {
                how = watch.returned();
                deadline.close();
                Thread.interrupted(); // an interrupt meant for the tool stays with the tool
            }
        } catch (Exception e) {
            failure = e; // closing the hook does not throw
            how = Watch.RUNNING;
        }
        switch (how) {
            case Watch.TAKEN_OVER:
                throw new TakenOver();
            case Watch.CANCELLED:
                throw new CancellationException("cancelled");
            case Watch.TIMED_OUT:
                return timedOut(call, timeout);
            default:
                return failure == null ? settled(call, outcome) : failed(call, failure);
        }
    }

    /**
     * The watchdog's side: answers the call now when its thread is still in the tool.
     *
     * @param timeout the timeout the tool overran, or -1: the call was cancelled
     */
    private void takeOver(Call call, Watch watch, long timeout) {
        if (!watch.abandon()) {
            return;
        }
        CallToolResult result;
        if (timeout < 0) {
            result = null;
        } else {
            LOG.warn("Tool {} timed out after {} ms and ignores its interrupt; its call is answered without it ({})",
                    call.name(), timeout, call.scope().invocationId());
            result = CallToolResult.error(endTimedOut(call, timeout));
            health.failed(call.tool());
        }
        try {
            takeOvers.execute(() -> call.takeOver(result));
        } catch (RejectedExecutionException e) {
            call.takeOver(result);
        }
    }

    /** The tool returned: healthy, unless it returned nothing. */
    private Outcome settled(Call call, Outcome outcome) {
        if (outcome == null) {
            LOG.error("Tool {} returned no outcome ({})", call.name(), call.scope().invocationId());
            health.failed(call.tool());
            return failed(call, "the tool returned no outcome");
        }
        health.succeeded(call.tool());
        return outcome;
    }

    private Outcome timedOut(Call call, long timeout) {
        health.failed(call.tool());
        LOG.warn("Tool {} timed out after {} ms ({})", call.name(), timeout, call.scope().invocationId());
        return Outcome.done(ToolResult.error(endTimedOut(call, timeout)));
    }

    /** Marks the call failed by its timeout; the text its client reads. */
    private static String endTimedOut(Call call, long timeout) {
        call.end(CallEvent.Ending.FAILED, "timed out after " + timeout + " ms");
        return "The tool " + call.name() + " timed out after " + timeout + " ms." + hint(call);
    }

    /** The tool threw: a protocol error is its answer; anything else counts against its health. */
    private Outcome failed(Call call, Throwable cause) {
        if (cause instanceof ProtocolError refusal) {
            call.end(CallEvent.Ending.FAILED, refusal.getMessage());
            throw new McpException(refusal.code(), refusal.getMessage(), refusal.data());
        }
        for (Throwable t = cause; t != null; t = t.getCause()) {
            if (t instanceof ArgumentsMismatch mismatch) {
                String text = "Invalid arguments for tool " + call.name() + ": " + mismatch.getMessage();
                call.end(CallEvent.Ending.INVALID, text);
                return Outcome.done(ToolResult.error(text));
            }
        }
        health.failed(call.tool());
        LOG.error("Tool {} failed ({})", call.name(), call.scope().invocationId(), shortened(cause));
        return failed(call, String.valueOf(cause));
    }

    /** A stack overflow's trace as far as it says something: its first frames, not the thousand repeated ones. */
    static Throwable shortened(Throwable cause) {
        if (cause instanceof StackOverflowError && cause.getStackTrace().length > 32) {
            StackOverflowError copy = new StackOverflowError(cause.getMessage() + " (the first 32 frames)");
            copy.setStackTrace(java.util.Arrays.copyOf(cause.getStackTrace(), 32));
            return copy;
        }
        return cause;
    }

    /** Thrown on the serving thread when its call was answered elsewhere while the tool held it. */
    static final class TakenOver extends CancellationException {
        private static final long serialVersionUID = 1L;

        TakenOver() {
            super("answered while the tool still ran");
        }
    }

    /** Where an attempt on the serving thread stands: the thread and its watchdog agree here. */
    private static final class Watch {
        static final int RUNNING = 0;
        static final int TIMED_OUT = 1;
        static final int CANCELLED = 2;
        static final int TAKEN_OVER = 3;
        static final int RETURNED = 4;

        private final Thread thread;
        private int state = RUNNING;

        Watch(Thread thread) {
            this.thread = thread;
        }

        /** Interrupts the tool once, when it still runs. */
        synchronized boolean interrupt(int why) {
            if (state != RUNNING) {
                return false;
            }
            state = why;
            thread.interrupt();
            return true;
        }

        /** The watchdog answers the call: the tool still runs after its interrupt. */
        synchronized boolean abandon() {
            if (state != TIMED_OUT && state != CANCELLED) {
                return false;
            }
            state = TAKEN_OVER;
            return true;
        }

        /** The tool returned: how the attempt stands then. */
        synchronized int returned() {
            int was = state;
            if (was != TAKEN_OVER) {
                state = RETURNED;
            }
            return was;
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
                + "). The server log has the details." + hint(call);
    }

    /** The tool's troubleshooting hint as a sentence to append, or nothing. */
    private static String hint(Call call) {
        String hint = call.tool() == null ? null : call.tool().troubleshootingHint();
        return hint == null || hint.isBlank() ? "" : " Hint: " + hint.trim();
    }
}
