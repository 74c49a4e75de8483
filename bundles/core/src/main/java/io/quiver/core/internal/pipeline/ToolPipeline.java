package io.quiver.core.internal.pipeline;

import com.networknt.schema.Error;
import io.quiver.api.Outcome;
import io.quiver.api.ToolResult;
import io.quiver.api.input.InputResponse;
import io.quiver.core.internal.catalog.Catalog;
import io.quiver.core.internal.catalog.ToolEntry;
import io.quiver.core.internal.engine.ToolAdmission;
import io.quiver.core.internal.json.Json;
import io.quiver.core.internal.messages.CallToolResult;
import io.quiver.core.internal.messages.Result;
import io.quiver.core.internal.request.RequestScope;
import io.quiver.core.internal.rpc.McpException;
import io.quiver.core.internal.settings.EngineConfig;
import io.quiver.core.internal.settings.EngineSettings;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The {@code tools/call} pipeline: resolve, validate, execute (timeout, cancellation, progress),
 * obtain input and re-execute, respond. The engine has admitted the call to its tool's share of the
 * tool threads before it gets here ({@link ToolAdmission}).
 */
public final class ToolPipeline {

    private static final Logger LOG = LoggerFactory.getLogger(ToolPipeline.class);

    private final Catalog catalog;
    private final ExecutorService toolPool;
    private final EngineSettings settings;
    private final ToolLimitsRegistry limits;
    private final RequestState requestState;
    private final InputRounds rounds;
    private final Tasks tasks;

    public ToolPipeline(Catalog catalog, ExecutorService toolPool, ExecutorService taskPool, EngineSettings settings,
            ToolLimitsRegistry limits) {
        this.catalog = catalog;
        this.limits = limits;
        this.tasks = new Tasks(taskPool, new Tasks.Attempts() {
            @Override
            public Outcome attempt(RequestScope scope, ToolEntry tool, ObjectNode arguments,
                    Map<String, InputResponse> answers, long timeoutMs) {
                return ToolPipeline.this.attempt(scope, tool, arguments, answers, timeoutMs);
            }

            @Override
            public CallToolResult finish(ToolEntry tool, Outcome.Done done) {
                return bounded(tool, done);
            }
        }, settings);
        this.toolPool = toolPool;
        this.settings = settings;
        EngineConfig c = settings.config();
        this.requestState = new RequestState(keys(c), c.requestStateTtlMs());
        this.rounds = new InputRounds(new InputBroker(() -> settings.config().clientRequestTimeoutMs()), requestState,
                () -> settings.config().maxInputRounds());
    }

    /** Follows a configuration change (the request-state keys and lifetime; the rest is read on use). */
    public void reconfigure() {
        EngineConfig c = settings.config();
        requestState.configure(keys(c), c.requestStateTtlMs());
    }

    /** The request-state keys, each element of the setting split on commas. */
    private static List<String> keys(EngineConfig c) {
        return Arrays.stream(c.requestStateKeys()).flatMap(k -> Arrays.stream(k.split(","))).map(String::trim)
                .filter(k -> !k.isEmpty()).toList();
    }

    /**
     * Runs one call; unknown tools are a protocol error, everything else a result. A session call
     * obtains input by asking the client; a stateless (2026-07-28) call answers
     * {@code input_required} instead and picks the answers up from the retry.
     */
    public Result call(RequestScope scope, String name, ObjectNode given, ObjectNode params) {
        ToolEntry tool = catalog.tools().get(name);
        if (tool == null) {
            throw McpException.invalidParams("Unknown tool: " + name);
        }
        ObjectNode arguments = given == null ? Json.MAPPER.createObjectNode() : given;
        if (scope.peer().headers() != null) {
            ParamHeaders.check(tool.descriptor().inputSchema(), arguments, scope.peer());
        }
        List<Error> problems = tool.inputSchema().validate(arguments);
        if (!problems.isEmpty()) {
            return CallToolResult.error("Invalid arguments for tool " + name + ": "
                    + problems.stream().map(Error::toString).collect(Collectors.joining("; ")));
        }
        boolean escalate = false;
        if (scope.era().offersTasks() && !"none".equals(tool.taskSupport())) {
            // tasks extension (2026-07-28): task tools become tasks for clients that declare it
            boolean declared = Tasks.declared(scope);
            if ("required".equals(tool.taskSupport()) && !declared) {
                throw Tasks.required();
            }
            if (declared && !tool.inputBeforeTask()) {
                return tasks.start(scope, tool, arguments, Map.of(), null);
            }
            escalate = declared;
        }
        boolean asTask = escalate;
        try {
            return rounds.run(scope, "tools/call " + name, params, answers -> {
                Outcome outcome = attempt(scope, tool, arguments, answers);
                if (outcome == null) {
                    return new InputRounds.Attempt.Done(failed(scope, tool));
                }
                if (outcome instanceof Outcome.Done done) {
                    // an input-before-task tool with all it needs answers with a task
                    return new InputRounds.Attempt.Done(asTask
                            ? tasks.start(scope, tool, arguments, answers, bounded(tool, done)) : bounded(tool, done));
                }
                return new InputRounds.Attempt.Needs(((Outcome.NeedsInput) outcome).requests());
            });
        } catch (InputBroker.Unanswerable e) {
            return CallToolResult.error(e.getMessage());
        } catch (McpException | CancellationException e) {
            throw e;
        } catch (Exception e) {
            LOG.error("Tool {} failed ({})", tool.name(), scope.invocationId(), e);
            return failed(scope, tool);
        }
    }

    /** The generic answer for a tool that threw: its message stays in the log. */
    private static CallToolResult failed(RequestScope scope, ToolEntry tool) {
        return CallToolResult.error("The tool " + tool.name() + " failed (invocation " + scope.invocationId()
                + "). The server log has the details.");
    }

    private CallToolResult bounded(ToolEntry tool, Outcome.Done done) {
        long limit = limits.of(tool.name()).maxOutputBytes() > 0 ? limits.of(tool.name()).maxOutputBytes()
                : settings.config().maxOutputBytes();
        return OutputBound.apply(CallToolResult.of(done.result(), tool.mapper().get()), limit);
    }

    /** The tasks of the tasks extension. */
    public Tasks tasks() {
        return tasks;
    }

    /** Obtains input for prompts and resources the same way as for tools. */
    public InputRounds rounds() {
        return rounds;
    }

    /** One attempt on a tool thread; {@code null} when the tool threw. */
    private Outcome attempt(RequestScope scope, ToolEntry tool, ObjectNode arguments,
            Map<String, InputResponse> answers) {
        return attempt(scope, tool, arguments, answers, 0);
    }

    /** @param timeoutOverride above 0: the timeout of a task's attempt */
    private Outcome attempt(RequestScope scope, ToolEntry tool, ObjectNode arguments,
            Map<String, InputResponse> answers, long timeoutOverride) {
        AttemptCall call = new AttemptCall(tool.name(), arguments, answers, scope, tool.mapper().get());
        ToolLimits configured = limits.of(tool.name());
        long timeout = timeoutOverride > 0 ? timeoutOverride : configured.timeoutMs() > 0 ? configured.timeoutMs()
                : tool.timeoutMs() > 0 ? tool.timeoutMs() : settings.config().toolTimeoutMs();
        return run(scope, tool, call, timeout);
    }

    private Outcome run(RequestScope scope, ToolEntry tool, AttemptCall call, long timeout) {
        Future<Outcome> future;
        try {
            future = toolPool.submit(() -> tool.tool().call(call));
        } catch (RejectedExecutionException e) {
            return new Outcome.Done(ToolResult.error("The server is busy: too many tool calls in progress. Try again shortly."));
        }
        try (AutoCloseable hook = scope.onCancel(() -> future.cancel(true))) {
            Outcome outcome = future.get(timeout, TimeUnit.MILLISECONDS);
            if (outcome == null) {
                LOG.error("Tool {} returned no outcome ({})", tool.name(), scope.invocationId());
                return null;
            }
            return outcome;
        } catch (TimeoutException e) {
            future.cancel(true);
            LOG.warn("Tool {} timed out after {} ms ({})", tool.name(), timeout, scope.invocationId());
            return new Outcome.Done(ToolResult.error("The tool " + tool.name() + " timed out after " + timeout + " ms."));
        } catch (CancellationException e) {
            throw e;
        } catch (ExecutionException e) {
            if (e.getCause() instanceof io.quiver.api.ProtocolError refusal) {
                throw new McpException(refusal.code(), refusal.getMessage());
            }
            LOG.error("Tool {} failed ({})", tool.name(), scope.invocationId(), e.getCause());
            return null;
        } catch (InterruptedException e) {
            future.cancel(true);
            Thread.currentThread().interrupt();
            throw new CancellationException("interrupted");
        } catch (Exception e) {
            LOG.error("Tool {} failed ({})", tool.name(), scope.invocationId(), e);
            return null;
        }
    }
}
