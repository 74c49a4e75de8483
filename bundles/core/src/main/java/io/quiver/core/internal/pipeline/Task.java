package io.quiver.core.internal.pipeline;

import io.quiver.api.input.InputRequest;
import io.quiver.api.input.InputResponse;
import io.quiver.core.internal.messages.CallToolResult;
import io.quiver.core.internal.messages.TaskStatus;
import io.quiver.core.internal.rpc.RpcError;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Future;

/**
 * One task of the tasks extension: a tool call running on after its request was answered. Its mutable
 * state is guarded by the task itself.
 */
final class Task {

    final String id;
    final String owner;
    final Call call;
    final Instant createdAt = Instant.now();
    final long ttlMs;
    final long expiresAtMillis;
    final Map<String, InputResponse> answers = new LinkedHashMap<>();
    final Map<String, InputRequest> outstanding = new LinkedHashMap<>();
    TaskStatus status = TaskStatus.WORKING;
    Instant lastUpdatedAt = createdAt;
    CallToolResult result;
    RpcError error;
    Future<?> running;
    Future<?> expiry;
    /** Its place in its tool's turn ({@link ToolShares}) for the current run, or null. */
    ToolShares.Waiter turn;
    /** Gives the current run's turn back, once (the run's own end, or its cancellation before it ran). */
    Runnable releaseTurn;
    /** How many times the task has parked for input (bounded by maxInputRounds across tasks/update). */
    int rounds;

    /** Whether it counts against its owner's {@code maxTasksPerSubject} until it ends. */
    final boolean counted;

    Task(String id, String owner, Call call, long ttlMs, boolean counted) {
        this.id = id;
        this.counted = counted;
        this.owner = owner;
        this.call = call;
        this.ttlMs = ttlMs;
        this.expiresAtMillis = System.currentTimeMillis() + ttlMs;
    }

    boolean terminal() {
        return status.terminal();
    }

    void status(TaskStatus value) {
        status = value;
        lastUpdatedAt = Instant.now();
    }
}
