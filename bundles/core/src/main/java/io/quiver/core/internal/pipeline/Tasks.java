package io.quiver.core.internal.pipeline;

import io.quiver.api.CallerIdentity;
import io.quiver.api.call.CallEvent;
import io.quiver.api.input.InputRequest;
import io.quiver.api.input.InputResponse;
import io.quiver.core.internal.messages.CallToolResult;
import io.quiver.core.internal.messages.EmptyResult;
import io.quiver.core.internal.messages.InputRequiredResult;
import io.quiver.core.internal.messages.Result;
import io.quiver.core.internal.messages.TaskInfo;
import io.quiver.core.internal.messages.TaskStatus;
import io.quiver.core.internal.request.Counts;
import io.quiver.core.internal.request.Owner;
import io.quiver.core.internal.request.RequestScope;
import io.quiver.core.internal.rpc.ErrorCodes;
import io.quiver.core.internal.rpc.McpException;
import io.quiver.core.internal.rpc.RpcError;
import io.quiver.core.internal.settings.EngineSettings;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BiPredicate;
import java.util.function.IntSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.JsonNode;

/**
 * The tasks extension ({@code io.modelcontextprotocol/tasks}, 2026-07-28): tool calls that run on
 * after the request is answered, polled with {@code tasks/get}, given input with
 * {@code tasks/update} and stopped with {@code tasks/cancel}. A task runs the same {@link AttemptLoop}
 * as a call, its input parked in the task ({@code input_required}) until {@code tasks/update} brings
 * it. Tasks belong to the caller that started them, end when their TTL does (a running one is
 * cancelled), and their number is bounded.
 */
public final class Tasks {

    public static final String EXTENSION = "io.modelcontextprotocol/tasks";

    /** How often clients are asked to poll a task (ms). */
    static final long POLL_INTERVAL_MS = 250;

    private static final Logger LOG = LoggerFactory.getLogger(Tasks.class);

    private final SecureRandom random = new SecureRandom();
    private final Map<String, Task> tasks = new ConcurrentHashMap<>();
    /** Each owner's tasks that have not ended (working or waiting for input), bounded by maxTasksPerSubject. */
    private final ConcurrentMap<String, Integer> unfinished = new ConcurrentHashMap<>();
    private final ExecutorService drivers;
    private final ScheduledExecutorService timer;
    private final EngineSettings settings;
    private final ToolAttempts attempts;
    private final HostAnswers hostAnswers;
    private final Review review;
    private final Record record;
    private final IntSupplier maxRounds;
    /** The tools' fair shares: a task's run holds one of its tool's, as a call does. */
    private final ToolShares shares;
    /** Whether a caller may still call a tool now (its catalog has it, the call policy allows it). */
    private final BiPredicate<CallerIdentity, String> mayCall;

    Tasks(ExecutorService drivers, ScheduledExecutorService timer, EngineSettings settings, ToolAttempts attempts,
            HostAnswers hostAnswers, Review review, Record record, IntSupplier maxRounds, ToolShares shares,
            BiPredicate<CallerIdentity, String> mayCall) {
        this.shares = shares;
        this.mayCall = mayCall;
        this.drivers = drivers;
        this.timer = timer;
        this.settings = settings;
        this.attempts = attempts;
        this.hostAnswers = hostAnswers;
        this.review = review;
        this.record = record;
        this.maxRounds = maxRounds;
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

    /** Starts a task for a call with the answers it gathered so far; the task owns the call from now on. */
    TaskInfo start(Call call, Map<String, InputResponse> answers) {
        Task task = create(call, true);
        task.answers.putAll(answers);
        synchronized (task) {
            drive(task, true);
            return describe(task, false);
        }
    }

    /** A task already completed with the call's result (a tool that gathered input, then just finished). */
    TaskInfo completed(Call call, CallToolResult result) {
        Task task = create(call, false); // its tool has run: nothing to bound (maxTasks neither), a refusal would hide it
        synchronized (task) {
            task.result = result;
            task.status(TaskStatus.COMPLETED);
            return describe(task, false);
        }
    }

    /** @param bounded whether the task counts against its owner's maxTasksPerSubject (one that has not ended) */
    private Task create(Call call, boolean bounded) {
        RequestScope scope = call.scope();
        String owner = owner(scope);
        if (scope.caller() != null && scope.caller().authenticated()) {
            makeRoom(owner);
        }
        if (tasks.size() >= settings.config().maxTasks()) {
            expire();
        }
        if (bounded && tasks.size() >= settings.config().maxTasks()) {
            throw new McpException(ErrorCodes.INTERNAL_ERROR, "Server busy: too many tasks");
        }
        // an authenticated subject's: the unauthenticated local callers are one owner, and bounded together by maxTasks
        boolean counted = bounded && scope.caller() != null && scope.caller().authenticated();
        int most = settings.config().maxTasksPerSubject();
        if (counted && !Counts.take(unfinished, owner, most)) {
            throw new McpException(ErrorCodes.SERVER_UNAVAILABLE, "Server busy: " + most + " of your tasks are working or"
                    + " waiting for input, the most one caller may have (maxTasksPerSubject); try again when one has"
                    + " ended, or cancel one");
        }
        byte[] bytes = new byte[16];
        random.nextBytes(bytes);
        call.handOff(scope.detached());
        call.escalate("running as a task");
        long ttl = settings.config().taskTtlMs();
        Task task = new Task(HexFormat.of().formatHex(bytes), owner, call, ttl, counted);
        tasks.put(task.id, task);
        task.expiry = timer.schedule(() -> expire(task), ttl, TimeUnit.MILLISECONDS);
        return task;
    }

    /**
     * One subject keeps at most a sixteenth of maxTasks (finished ones included, which stay until their TTL): at its
     * share, its oldest finished task goes to make room, so that one subject's quick tasks cannot fill maxTasks and
     * refuse every other tenant's for an hour.
     */
    private void makeRoom(String owner) {
        int share = Math.max(settings.config().maxTasksPerSubject() + 1, settings.config().maxTasks() / 16);
        Task oldest = null;
        int kept = 0;
        for (Task task : tasks.values()) {
            if (task.owner.equals(owner)) {
                kept++;
                boolean finished;
                synchronized (task) {
                    finished = task.terminal();
                }
                if (finished && (oldest == null || task.createdAt.isBefore(oldest.createdAt))) {
                    oldest = task;
                }
            }
        }
        if (kept >= share && oldest != null) {
            expire(oldest);
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
        String tool = task.call.name();
        if (!mayCall.test(scope.caller(), tool)) {
            // the caller lost the tool since the task began (a scope rule, a grant): its task does not run on for it
            stop(task, "the caller may no longer call " + tool);
            throw Resolve.unknownTool(tool);
        }
        if (responses == null || !responses.isObject()) {
            throw McpException.invalidParams("Invalid params: inputResponses must be an object");
        }
        synchronized (task) {
            for (Map.Entry<String, JsonNode> e : responses.properties()) {
                InputRequest request = task.outstanding.get(e.getKey());
                if (request != null) {
                    task.answers.put(e.getKey(), InputBroker.checked(request, e.getValue()));
                    task.outstanding.remove(e.getKey());
                }
            }
            if (task.status == TaskStatus.INPUT_REQUIRED && task.outstanding.isEmpty()) {
                task.status(TaskStatus.WORKING);
                drive(task, false);
            }
        }
    }

    /** {@code tasks/cancel}: stops a running task; a finished one stays as it is. */
    public void cancel(RequestScope scope, String taskId) {
        stop(find(scope, taskId), "cancelled by the client");
    }

    /** Cancels a task that has not ended; the call is over. */
    private void stop(Task task, String why) {
        synchronized (task) {
            if (task.terminal()) {
                return;
            }
            task.status(TaskStatus.CANCELLED);
            task.outstanding.clear();
            if (task.turn != null) {
                shares.withdraw(task.call.name(), task.turn); // waiting for its tool's turn: out of the queue
            }
            task.call.scope().cancel();
            if (task.running != null) {
                task.running.cancel(true);
            }
            if (task.releaseTurn != null) {
                // a run cancelled while queued for a task thread never runs its own release; one that runs gives
                // its turn back a moment early (it is interrupted), and only once
                task.releaseTurn.run();
            }
        }
        task.call.end(CallEvent.Ending.CANCELLED, why);
        over(task);
    }

    /**
     * Caller thread: under the task's lock. The run takes one of its tool's fair share of the tool threads, as a
     * call does (the request that started the task gave its own back when it was answered): waiting in the tool's
     * queue when the share is taken, failing when that queue is full, so that tasks of one tool cannot take every
     * tool thread from the others.
     */
    private void drive(Task task, boolean first) {
        String tool = task.call.name();
        AtomicBoolean released = new AtomicBoolean();
        Runnable releaseOnce = () -> {
            if (released.compareAndSet(false, true)) {
                shares.release(tool);
            }
        };
        ToolShares.Waiter turn = new ToolShares.Waiter() {
            @Override
            public void start() {
                synchronized (task) {
                    if (task.terminal()) {
                        releaseOnce.run(); // cancelled or expired while it waited
                        return;
                    }
                    task.releaseTurn = releaseOnce;
                    try {
                        task.running = drivers.submit(() -> {
                            try {
                                run(task);
                            } finally {
                                releaseOnce.run();
                            }
                        });
                    } catch (RejectedExecutionException e) {
                        releaseOnce.run();
                        fail(task, "Server busy", "no task thread free");
                    }
                }
            }

            @Override
            public void busy(String reason) {
                synchronized (task) {
                    fail(task, reason, reason);
                }
            }
        };
        task.turn = turn;
        // the first run queues whatever the tool's queue holds: the request that starts the task holds a share of the
        // tool until it is answered, which it is at once, so a tool of one share would otherwise refuse every task
        shares.admit(tool, turn, first);
    }

    /** Under the task's lock: the task fails before its tool ran this time. */
    private void fail(Task task, String message, String why) {
        if (task.terminal()) {
            return;
        }
        task.error = new RpcError(ErrorCodes.SERVER_UNAVAILABLE, message, null);
        task.status(TaskStatus.FAILED);
        task.call.end(CallEvent.Ending.FAILED, why);
        timer.execute(() -> over(task));
    }

    /** One run of the task's attempt loop: to its end, or until it parks waiting for input. */
    private void run(Task task) {
        Call call = task.call;
        AttemptLoop.End end;
        try {
            end = AttemptLoop.run(attempts.runner(call, true, false), new TaskInput(task, maxRounds.getAsInt()), hostAnswers.of(call),
                    maxRounds.getAsInt());
        } catch (McpException e) {
            call.end(CallEvent.Ending.FAILED, e.getMessage());
            finish(task, null, e.toError());
            return;
        } catch (CancellationException e) {
            return;
        } catch (Exception e) {
            if (!call.scope().isCancelled()) {
                LOG.error("Task {} of tool {} failed", task.id, call.name(), e);
            }
            call.end(CallEvent.Ending.FAILED, String.valueOf(e));
            finish(task, null, new RpcError(ErrorCodes.INTERNAL_ERROR, "Internal error", null));
            return;
        }
        if (end instanceof AttemptLoop.End.Done done) {
            finish(task, review.review(call, (CallToolResult) done.result()), null);
        }
        // parked: the task waits in input_required (set by TaskInput) for tasks/update
    }

    /** The task ends with a result or an error, unless it ended already (cancelled, expired). */
    private void finish(Task task, CallToolResult result, RpcError error) {
        CallToolResult delivered = result;
        if (result != null) {
            try {
                delivered = record.delivered(task.call, result); // recorded before anyone can read it
            } catch (CancellationException e) {
                return; // cancelled meanwhile: the cancellation ended the task
            }
        }
        synchronized (task) {
            if (task.terminal()) {
                return;
            }
            task.result = delivered;
            task.error = error;
            task.status(error != null ? TaskStatus.FAILED : TaskStatus.COMPLETED);
        }
        over(task);
    }

    /** The task's call is over (the task stays visible until its TTL). */
    private void over(Task task) {
        ended(task);
        record.over(task.call);
    }

    /** The task ended (once for each task): it no longer counts against its owner's maxTasksPerSubject. */
    private void ended(Task task) {
        if (task.counted) {
            Counts.give(unfinished, task.owner);
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
        return Owner.of(scope.caller());
    }

    /** Drops tasks past their TTL (they are invisible already; this frees their room). */
    void expire() {
        long now = System.currentTimeMillis();
        for (Task task : List.copyOf(tasks.values())) {
            if (task.expiresAtMillis < now) {
                expire(task);
            }
        }
    }

    /** A task's TTL is over: it is forgotten, and stopped if it still runs or waits. */
    private void expire(Task task) {
        if (tasks.remove(task.id, task)) {
            stop(task, "expired after " + task.ttlMs + " ms");
            if (task.expiry != null) {
                task.expiry.cancel(false);
            }
        }
    }

    /** Stops every task that has not ended (the server stops): each is cancelled and recorded as such. */
    public void stopAll(String why) {
        int stopped = 0;
        for (Task task : List.copyOf(tasks.values())) {
            boolean live;
            synchronized (task) {
                live = !task.terminal();
            }
            if (live) {
                stop(task, why);
                stopped++;
            }
        }
        if (stopped > 0) {
            LOG.info("Stopping: cancelled {} task(s) that had not ended", stopped);
        }
    }

    /** How many tasks are kept now. */
    int size() {
        return tasks.size();
    }

    /** The answers of a task: its own, parked in the task until {@code tasks/update} brings the rest. */
    private static final class TaskInput implements AttemptLoop.Source {

        private final Task task;
        private final int maxRounds;

        TaskInput(Task task, int maxRounds) {
            this.task = task;
            this.maxRounds = maxRounds;
        }

        @Override
        public Map<String, InputResponse> answers() {
            synchronized (task) {
                return Map.copyOf(task.answers);
            }
        }

        @Override
        public void accept(String key, InputResponse answer) {
            synchronized (task) {
                task.answers.put(key, answer);
            }
        }

        @Override
        public Optional<Result> obtain(List<InputRequest> missing) {
            InputBroker.requireDeclared(task.call.scope().client(), missing);
            synchronized (task) {
                if (task.rounds >= maxRounds) {
                    throw AttemptLoop.tooManyRounds(maxRounds); // each tasks/update runs a fresh loop: the task counts
                }
                task.rounds++;
                if (!task.terminal()) {
                    for (InputRequest request : missing) {
                        task.outstanding.put(request.key(), request);
                    }
                    task.status(TaskStatus.INPUT_REQUIRED);
                }
            }
            return Optional.of(EmptyResult.INSTANCE);
        }
    }
}
