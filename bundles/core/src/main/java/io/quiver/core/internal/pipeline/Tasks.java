package io.quiver.core.internal.pipeline;

import io.quiver.api.Outcome;
import io.quiver.api.input.InputRequest;
import io.quiver.api.input.InputResponse;
import io.quiver.core.internal.catalog.ToolEntry;
import io.quiver.core.internal.messages.CallToolResult;
import io.quiver.core.internal.messages.InputRequiredResult;
import io.quiver.core.internal.messages.TaskInfo;
import io.quiver.core.internal.messages.TaskStatus;
import io.quiver.core.internal.request.RequestScope;
import io.quiver.core.internal.rpc.ErrorCodes;
import io.quiver.core.internal.rpc.McpException;
import io.quiver.core.internal.rpc.RpcError;
import io.quiver.core.internal.settings.EngineSettings;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The tasks extension ({@code io.modelcontextprotocol/tasks}, 2026-07-28): tool calls that run on
 * after the request is answered, polled with {@code tasks/get}, given input with
 * {@code tasks/update} and stopped with {@code tasks/cancel}. Tasks belong to the caller that
 * started them, expire after their TTL, and their number is bounded.
 */
public final class Tasks {

    public static final String EXTENSION = "io.modelcontextprotocol/tasks";

    /** How often clients are asked to poll a task (ms). */
    static final long POLL_INTERVAL_MS = 250;

    private static final Logger LOG = LoggerFactory.getLogger(Tasks.class);

    /** What the tool pipeline does for a task: one attempt with the answers so far. */
    interface Attempts {
        Outcome attempt(RequestScope scope, ToolEntry tool, ObjectNode arguments,
                Map<String, InputResponse> answers, long timeoutMs);

        CallToolResult finish(ToolEntry tool, Outcome.Done done);
    }

    private final SecureRandom random = new SecureRandom();
    private final Map<String, Task> tasks = new ConcurrentHashMap<>();
    private final ExecutorService drivers;
    private final Attempts attempts;
    private final EngineSettings settings;

    Tasks(ExecutorService drivers, Attempts attempts, EngineSettings settings) {
        this.drivers = drivers;
        this.attempts = attempts;
        this.settings = settings;
    }

    /** Whether the request's client declared the extension. */
    public static boolean declared(RequestScope scope) {
        return scope.client().capabilities().get("extensions") instanceof Map<?, ?> extensions
                && extensions.containsKey(EXTENSION);
    }

    /** The -32021 error for a request that needs the extension. */
    public static McpException required() {
        return McpException.missingCapability(Map.of("extensions", Map.of(EXTENSION, Map.of())));
    }

    /** Starts a task for a call; answers gathered before (input-before-task tools) come along. */
    TaskInfo start(RequestScope scope, ToolEntry tool, ObjectNode arguments, Map<String, InputResponse> answers,
            CallToolResult finishedResult) {
        if (tasks.size() >= settings.config().maxTasks()) {
            expire();
        }
        if (tasks.size() >= settings.config().maxTasks()) {
            throw new McpException(ErrorCodes.INTERNAL_ERROR, "Server busy: too many tasks");
        }
        byte[] bytes = new byte[16];
        random.nextBytes(bytes);
        Task task = new Task(HexFormat.of().formatHex(bytes), owner(scope), tool, arguments, scope.detached(),
                settings.config().taskTtlMs());
        task.answers.putAll(answers);
        tasks.put(task.id, task);
        synchronized (task) {
            if (finishedResult != null) {
                task.result = finishedResult;
                task.status(TaskStatus.COMPLETED);
            } else {
                drive(task);
            }
            return describe(task, false);
        }
    }

    /** {@code tasks/get}. */
    public TaskInfo get(RequestScope scope, String taskId) {
        Task task = find(scope, taskId);
        synchronized (task) {
            return describe(task, true);
        }
    }

    /** {@code tasks/update}: answers outstanding input requests; the task goes on once all are answered. */
    public void update(RequestScope scope, String taskId, JsonNode responses) {
        Task task = find(scope, taskId);
        if (responses == null || !responses.isObject()) {
            throw McpException.invalidParams("Invalid params: inputResponses must be an object");
        }
        synchronized (task) {
            for (Map.Entry<String, JsonNode> e : responses.properties()) {
                InputRequest request = task.outstanding.get(e.getKey());
                if (request != null) {
                    task.answers.put(e.getKey(), InputBroker.answer(request, e.getValue()));
                    task.outstanding.remove(e.getKey());
                }
            }
            if (task.status == TaskStatus.INPUT_REQUIRED && task.outstanding.isEmpty()) {
                task.status(TaskStatus.WORKING);
                drive(task);
            }
        }
    }

    /** {@code tasks/cancel}: stops a running task; a finished one stays as it is. */
    public void cancel(RequestScope scope, String taskId) {
        Task task = find(scope, taskId);
        synchronized (task) {
            if (task.terminal()) {
                return;
            }
            task.status(TaskStatus.CANCELLED);
            task.outstanding.clear();
            task.scope.cancel();
            if (task.running != null) {
                task.running.cancel(true);
            }
        }
    }

    private void drive(Task task) {
        try {
            task.running = drivers.submit(() -> run(task));
        } catch (RejectedExecutionException e) {
            task.error = new RpcError(ErrorCodes.INTERNAL_ERROR, "Server busy", null);
            task.status(TaskStatus.FAILED);
        }
    }

    private void run(Task task) {
        Outcome outcome;
        Map<String, InputResponse> answers;
        synchronized (task) {
            answers = Map.copyOf(task.answers);
        }
        try {
            outcome = attempts.attempt(task.scope, task.tool, task.arguments, answers,
                    settings.config().taskTimeoutMs());
        } catch (McpException e) {
            finish(task, null, e.toError());
            return;
        } catch (RuntimeException e) {
            if (!task.scope.isCancelled()) {
                LOG.error("Task {} of tool {} failed", task.id, task.tool.name(), e);
            }
            finish(task, null, new RpcError(ErrorCodes.INTERNAL_ERROR, "Internal error", null));
            return;
        }
        synchronized (task) {
            if (task.terminal()) {
                return;
            }
            if (outcome == null) {
                task.result = CallToolResult.error("The tool " + task.tool.name() + " failed (task " + task.id
                        + "). The server log has the details.");
                task.status(TaskStatus.COMPLETED);
            } else if (outcome instanceof Outcome.Done done) {
                task.result = attempts.finish(task.tool, done);
                task.status(TaskStatus.COMPLETED);
            } else {
                for (InputRequest request : ((Outcome.NeedsInput) outcome).requests()) {
                    if (!task.answers.containsKey(request.key())) {
                        task.outstanding.put(request.key(), request);
                    }
                }
                if (task.outstanding.isEmpty()) {
                    drive(task);
                } else {
                    task.status(TaskStatus.INPUT_REQUIRED);
                }
            }
        }
    }

    private void finish(Task task, CallToolResult result, RpcError error) {
        synchronized (task) {
            if (task.terminal()) {
                return;
            }
            task.result = result;
            task.error = error;
            task.status(error != null ? TaskStatus.FAILED : TaskStatus.COMPLETED);
        }
    }

    private Task find(RequestScope scope, String taskId) {
        Task task = taskId == null ? null : tasks.get(taskId);
        if (task == null || !task.owner.equals(owner(scope)) || task.expiresAtMillis < System.currentTimeMillis()) {
            throw McpException.invalidParams("Unknown task: " + taskId);
        }
        return task;
    }

    /** A task as its creation answers ({@code detailed} false) or as {@code tasks/get} shows it. */
    private TaskInfo describe(Task task, boolean detailed) {
        Map<String, InputRequiredResult.InputRequestWire> requests = null;
        if (detailed && task.status == TaskStatus.INPUT_REQUIRED) {
            requests = new LinkedHashMap<>();
            for (Map.Entry<String, InputRequest> e : task.outstanding.entrySet()) {
                requests.put(e.getKey(), InputBroker.wire(e.getValue()));
            }
        }
        boolean done = detailed && task.status == TaskStatus.COMPLETED;
        boolean failed = detailed && task.status == TaskStatus.FAILED;
        return new TaskInfo(task.id, task.status, task.createdAt.toString(), task.lastUpdatedAt.toString(), task.ttlMs,
                POLL_INTERVAL_MS, requests, done ? task.result : null, failed ? task.error : null, !detailed);
    }

    private static String owner(RequestScope scope) {
        return scope.caller().tenant() + "/" + scope.caller().subject();
    }

    /** Drops tasks past their TTL (expired tasks are already invisible; this frees their room). */
    void expire() {
        long now = System.currentTimeMillis();
        tasks.values().removeIf(t -> t.expiresAtMillis < now);
    }
}
