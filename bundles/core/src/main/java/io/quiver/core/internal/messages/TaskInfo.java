package io.quiver.core.internal.messages;

import com.fasterxml.jackson.annotation.JsonIgnore;
import io.quiver.core.internal.rpc.RpcError;
import java.util.Map;

/**
 * A task of the tasks extension: as its creation answers a {@code tools/call} ({@code resultType: task},
 * no details), and as {@code tasks/get} shows it (with the input it waits for, its result or its error).
 */
public record TaskInfo(String taskId, TaskStatus status, String createdAt, String lastUpdatedAt, long ttlMs,
        long pollIntervalMs, Map<String, InputRequiredResult.InputRequestWire> inputRequests, Object result,
        RpcError error, @JsonIgnore boolean created) implements Result {

    @Override
    public String resultType() {
        return created ? "task" : "complete";
    }
}
