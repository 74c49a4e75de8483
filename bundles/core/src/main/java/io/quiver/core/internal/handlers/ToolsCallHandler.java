package io.quiver.core.internal.handlers;

import io.quiver.core.internal.messages.Result;
import io.quiver.core.internal.pipeline.ToolPipeline;
import io.quiver.core.internal.request.MethodHandler;
import io.quiver.core.internal.request.RequestScope;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** {@code tools/call}: hands the call to the execution pipeline. */
final class ToolsCallHandler implements MethodHandler<Result> {

    private final ToolPipeline pipeline;

    ToolsCallHandler(ToolPipeline pipeline) {
        this.pipeline = pipeline;
    }

    @Override
    public boolean quick(io.quiver.api.CallerIdentity caller, ObjectNode params) {
        JsonNode name = params == null ? null : params.get("name");
        return name != null && name.isString() && !params.has("task") && pipeline.quick(caller, name.stringValue());
    }

    @Override
    public Result handle(RequestScope scope, ObjectNode params) {
        String name = Params.requireString(params, "name");
        ObjectNode arguments = Params.optionalObject(params, "arguments");
        return pipeline.call(scope, name, arguments, params);
    }

    @Override
    public String share(RequestScope scope, ObjectNode params) {
        JsonNode name = params.get("name");
        return name != null && name.isString() ? pipeline.shareOf(scope, name.stringValue()) : null;
    }

    @Override
    public void cancelledBeforeRun(RequestScope scope, ObjectNode params) {
        pipeline.cancelledBeforeRun(scope, params.path("name").asString(""));
    }

    @Override
    public Result busy(RequestScope scope, ObjectNode params, String reason) {
        return pipeline.busy(scope, params.path("name").asString(""), reason);
    }
}
