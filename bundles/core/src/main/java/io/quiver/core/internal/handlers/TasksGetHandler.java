package io.quiver.core.internal.handlers;

import io.quiver.core.internal.messages.TaskInfo;
import io.quiver.core.internal.pipeline.Tasks;
import io.quiver.core.internal.pipeline.ToolPipeline;
import io.quiver.core.internal.request.MethodHandler;
import io.quiver.core.internal.request.RequestScope;
import tools.jackson.databind.node.ObjectNode;

/** {@code tasks/get} (tasks extension): only for clients that declare the extension. */
final class TasksGetHandler implements MethodHandler<TaskInfo> {

    private final ToolPipeline pipeline;

    TasksGetHandler(ToolPipeline pipeline) {
        this.pipeline = pipeline;
    }

    @Override
    public TaskInfo handle(RequestScope scope, ObjectNode params) {
        if (!Tasks.declared(scope)) {
            throw Tasks.required();
        }
        String taskId = Params.requireString(params, "taskId");
        return pipeline.tasks().get(scope, taskId);
    }
}
