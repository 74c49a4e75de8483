package io.quiver.core.internal.handlers;

import io.quiver.core.internal.messages.EmptyResult;
import io.quiver.core.internal.pipeline.Tasks;
import io.quiver.core.internal.pipeline.ToolPipeline;
import io.quiver.core.internal.request.MethodHandler;
import io.quiver.core.internal.request.RequestScope;
import tools.jackson.databind.node.ObjectNode;

/** {@code tasks/cancel} (tasks extension): only for clients that declare the extension. */
final class TasksCancelHandler implements MethodHandler<EmptyResult> {

    private final ToolPipeline pipeline;

    TasksCancelHandler(ToolPipeline pipeline) {
        this.pipeline = pipeline;
    }

    @Override
    public EmptyResult handle(RequestScope scope, ObjectNode params) {
        if (!Tasks.declared(scope)) {
            throw Tasks.required();
        }
        String taskId = Params.requireString(params, "taskId");
        pipeline.tasks().cancel(scope, taskId);
        return EmptyResult.INSTANCE;
    }
}
