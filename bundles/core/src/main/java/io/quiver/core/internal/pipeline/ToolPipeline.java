package io.quiver.core.internal.pipeline;

import io.quiver.api.CallerIdentity;
import io.quiver.api.call.CallEvent;
import io.quiver.api.call.Target;
import io.quiver.core.internal.catalog.Catalog;
import io.quiver.core.internal.catalog.ToolEntry;
import io.quiver.core.internal.exec.Workers;
import io.quiver.core.internal.messages.CallToolResult;
import io.quiver.core.internal.messages.Result;
import io.quiver.core.internal.request.RequestScope;
import io.quiver.core.internal.rpc.McpException;
import io.quiver.core.internal.settings.EngineConfig;
import io.quiver.core.internal.settings.EngineSettings;
import io.quiver.lib.config.TypedConfig;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CancellationException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The {@code tools/call} pipeline, one stage after the other: {@link Resolve} the tool,
 * {@link Authorize} the caller, {@link Validate} the arguments, let the host {@link Admit} the call,
 * then the {@link AttemptLoop} of {@link Execute}d attempts and input rounds ({@link ToolAttempts}),
 * {@link BoundOutput}, the host's {@link Review}, and {@link Record}. Where the client takes tasks, the
 * call becomes one ({@link Tasks}) at once or when the tool escalates, and the task runs the same
 * loop. The engine took the tool's share of the tool threads ({@link ToolShares}) before this runs.
 */
public final class ToolPipeline {

    private static final Logger LOG = LoggerFactory.getLogger(ToolPipeline.class);

    /** How a call relates to the tasks extension. */
    private enum TaskMode {
        /** Answered in the call. */
        NONE,
        /** A task from the start. */
        NOW,
        /** Starts in the call (input first) and becomes a task when the tool escalates. */
        AFTER_INPUT
    }

    private final EngineSettings settings;
    private final ToolShares shares;
    private final RequestState requestState;
    private final InputRounds rounds;
    private final Resolve resolve;
    private final Authorize authorize;
    private final Validate validate = new Validate();
    private final Admit admit;
    private final ToolAttempts attempts;
    private final HostAnswers hostAnswers;
    private final Review review;
    private final Record record;
    private final Tasks tasks;
    private final Extensions extensions;

    public ToolPipeline(Catalog catalog, Workers workers, EngineSettings settings, ToolLimitsRegistry limits,
            Extensions extensions) {
        this.settings = settings;
        this.extensions = extensions;
        this.shares = new ToolShares(limits, settings);
        EngineConfig c = settings.config();
        this.requestState = new RequestState(keys(c), c.requestStateTtlMs());
        this.rounds = new InputRounds(new InputBroker(() -> settings.config().clientRequestTimeoutMs()), requestState,
                () -> settings.config().maxInputRounds());
        this.resolve = new Resolve(catalog);
        this.authorize = new Authorize(extensions);
        HostWait hostWait = new HostWait(workers.timer(), () -> settings.config().hostTimeoutMs(), extensions::hostPresent);
        extensions.onHostGone(hostWait::hostGone);
        this.admit = new Admit(extensions, validate, hostWait);
        this.attempts = new ToolAttempts(new Execute(workers.tools(), workers.watchdog(), workers.requests(), settings, limits),
                new BoundOutput(settings, limits));
        this.hostAnswers = new HostAnswers(hostWait);
        this.review = new Review(hostWait);
        this.record = new Record(extensions, hostWait);
        this.tasks = new Tasks(workers.tasks(), workers.timer(), settings, attempts, hostAnswers, review, record,
                rounds::maxRounds, shares,
                (caller, tool) -> resolve.find(caller, tool) != null && authorize.allows(caller, Target.tool(tool)));
    }

    /** Follows a configuration change (the request-state keys and lifetime; the rest is read on use). */
    public void reconfigure() {
        EngineConfig c = settings.config();
        requestState.configure(keys(c), c.requestStateTtlMs());
    }

    /** The request-state keys, each element of the setting split on commas. */
    private static List<String> keys(EngineConfig c) {
        return TypedConfig.list(c.requestStateKeys());
    }

    /**
     * The tool whose share a call must get before it runs: the named tool when it exists and the caller
     * may use it; else {@code null} (the call runs at once and answers that the tool is unknown).
     */
    public String shareOf(RequestScope scope, String name) {
        ToolEntry tool = name == null ? null : resolve.find(scope.caller(), name);
        return tool != null && authorize.allows(scope.caller(), Target.tool(name)) ? name : null;
    }

    /**
     * Whether a call of the named tool can run without waiting on anything: the tool is unknown to this
     * caller, hidden from it or denied to it (the answer is an error at once), or it is declared non-blocking,
     * never runs as a task, and no host channel has a say in it.
     */
    public boolean quick(CallerIdentity caller, String name) {
        ToolEntry tool = resolve.find(caller, name);
        if (tool == null || !tool.blocking() && "none".equals(tool.taskSupport()) && extensions.host() == null
                && !extensions.hostRequired()) {
            return true; // an unknown tool is an error at once; a non-blocking one runs here, or is refused here
        }
        // one that would go to a thread that may wait, unless the policy hides it from the caller or denies it: then
        // it is an error at once too, answered as an unknown one is (by the same thread, so that neither the answer
        // nor its form tells them apart), and it never waits behind calls stuck in their tools
        return !authorize.allows(caller, Target.tool(name));
    }

    /** The answer to a call refused because its tool's share and queue are full. */
    public CallToolResult busy(RequestScope scope, String name, String reason) {
        Call call = unrun(scope, name);
        call.step("share", false, reason);
        call.end(CallEvent.Ending.BUSY, reason);
        record.over(call);
        return CallToolResult.error(reason);
    }

    /**
     * Records a call cancelled before it ran (while it waited for its tool's share): it ends cancelled, and
     * nothing of it ran. It gets no answer.
     */
    public void cancelledBeforeRun(RequestScope scope, String name) {
        Call call = unrun(scope, name);
        call.end(CallEvent.Ending.CANCELLED, "cancelled while it waited for its turn");
        record.over(call);
    }

    /** The record of a call that never ran, with the arguments as sent, so that its event's digest names them. */
    private static Call unrun(RequestScope scope, String name) {
        return new Call(scope, name, scope.params().get("arguments") instanceof ObjectNode sent ? sent : null);
    }

    /**
     * Runs one call through the stages. An unknown or hidden tool is a protocol error; everything after
     * that is a result. A session client is asked for input; a 2026-07-28 client gets
     * {@code input_required} and retries.
     */
    public Result call(RequestScope scope, String name, ObjectNode arguments, ObjectNode params) {
        Call call = new Call(scope, name, arguments);
        boolean handedOff = false;
        try {
            resolve.resolve(call);
            CallToolResult refused = authorize.authorize(call);
            if (refused != null) {
                return refused;
            }
            refused = validate.validate(call);
            if (refused != null) {
                return refused;
            }
            TaskMode mode = taskMode(call);
            refused = admit.admit(call);
            if (refused != null) {
                return refused;
            }
            record.running(call);
            if (mode == TaskMode.NONE && scope.inline()) {
                call.inline(result -> takenOver(call, result));
            }
            if (mode == TaskMode.NOW) {
                Result task = tasks.start(call, Map.of());
                handedOff = true;
                return task;
            }
            AttemptLoop.End end = AttemptLoop.run(attempts.runner(call, false, mode == TaskMode.AFTER_INPUT),
                    rounds.source(scope, "tools/call " + name, params), hostAnswers.of(call), rounds.maxRounds());
            if (end instanceof AttemptLoop.End.Escalated escalated) {
                Result task = tasks.start(call, escalated.answers());
                handedOff = true;
                return task;
            }
            if (end instanceof AttemptLoop.End.Parked parked) {
                call.end(CallEvent.Ending.INPUT_REQUIRED, null);
                return parked.result();
            }
            CallToolResult result = record.delivered(call,
                    review.review(call, (CallToolResult) ((AttemptLoop.End.Done) end).result()));
            // a tool that gathered its input in the call and finished there is answered with a done task
            return mode == TaskMode.AFTER_INPUT ? tasks.completed(call, result) : result;
        } catch (InputBroker.Unanswerable | HostWait.Failed e) {
            call.end(CallEvent.Ending.FAILED, e.getMessage());
            return CallToolResult.error(e.getMessage());
        } catch (McpException e) {
            call.end(CallEvent.Ending.FAILED, e.getMessage());
            throw e;
        } catch (Execute.TakenOver e) {
            handedOff = true; // answered and recorded by the watchdog
            throw e;
        } catch (CancellationException e) {
            String stop = scope.stopped();
            if (stop != null) {
                return stopped(call, stop);
            }
            call.end(CallEvent.Ending.CANCELLED, "cancelled");
            throw e;
        } catch (Exception | Error e) {
            // an Error of a stage (a host channel's, a listener's) too: the call ends FAILED, and says so
            LOG.error("Tool {} failed ({})", name, scope.invocationId(), Execute.shortened(e));
            return Execute.failedResult(call, String.valueOf(e));
        } finally {
            if (!handedOff) {
                record.over(call);
            }
        }
    }

    /**
     * Ends a call whose thread is stuck in its tool past the timeout or cancellation, as the stages
     * after the attempt would have: the host reviews a timed-out result, listeners hear of it, the client
     * gets its answer (none when cancelled).
     */
    private void takenOver(Call call, CallToolResult timedOut) {
        CallToolResult answer = null;
        try {
            if (timedOut == null) {
                String stop = call.scope().stopped();
                if (stop != null) {
                    answer = stopped(call, stop);
                } else {
                    call.end(CallEvent.Ending.CANCELLED, "cancelled");
                }
            } else {
                answer = record.delivered(call, review.review(call, timedOut));
            }
        } catch (CancellationException e) {
            String stop = call.scope().stopped();
            answer = stop == null ? null : stopped(call, stop);
            call.end(CallEvent.Ending.CANCELLED, "cancelled");
        } catch (HostWait.Failed e) {
            call.end(CallEvent.Ending.FAILED, e.getMessage());
            answer = CallToolResult.error(e.getMessage());
        } catch (RuntimeException e) {
            LOG.error("Tool {}: its timed-out call could not be ended ({})", call.name(), call.scope().invocationId(), e);
            answer = timedOut;
        } finally {
            record.over(call);
        }
        call.scope().respond(answer);
    }

    /** The answer to a call the host stopped: it ran no further, and the caller reads why. */
    private static CallToolResult stopped(Call call, String reason) {
        call.step("stop", false, reason);
        call.end(CallEvent.Ending.CANCELLED, "stopped by the host: " + reason);
        return CallToolResult.error("The host stopped the call of " + call.name() + ": " + reason);
    }

    /** Whether the call becomes a task (the tasks extension, for clients that declare it). */
    private static TaskMode taskMode(Call call) {
        RequestScope scope = call.scope();
        String support = call.tool().taskSupport();
        if (!scope.era().offersTasks() || "none".equals(support)) {
            return TaskMode.NONE;
        }
        boolean declared = Tasks.declared(scope);
        if ("required".equals(support) && !declared) {
            call.end(CallEvent.Ending.INVALID, "the tool runs only as a task and the client takes no tasks");
            throw Tasks.required();
        }
        if (!declared) {
            return TaskMode.NONE;
        }
        return call.tool().inputBeforeTask() ? TaskMode.AFTER_INPUT : TaskMode.NOW;
    }

    /** The policy's say over what a caller sees and uses, for the lists, resources and prompts. */
    public Authorize authorize() {
        return authorize;
    }

    /** The shares of the tool threads, taken by the engine before a call runs. */
    public ToolShares shares() {
        return shares;
    }

    /** The tasks of the tasks extension. */
    public Tasks tasks() {
        return tasks;
    }

    /** Obtains input for prompts and resources the same way as for tools. */
    public InputRounds rounds() {
        return rounds;
    }
}
