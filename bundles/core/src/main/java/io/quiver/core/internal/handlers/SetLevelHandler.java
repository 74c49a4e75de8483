package io.quiver.core.internal.handlers;

import io.quiver.api.LogLevel;
import io.quiver.core.internal.messages.EmptyResult;
import io.quiver.core.internal.request.MethodHandler;
import io.quiver.core.internal.request.RequestScope;
import io.quiver.core.internal.rpc.McpException;
import tools.jackson.databind.node.ObjectNode;

/** {@code logging/setLevel}: the minimum level of log messages this session receives. */
final class SetLevelHandler implements MethodHandler<EmptyResult> {

    @Override
    public EmptyResult handle(RequestScope scope, ObjectNode params) {
        String name = Params.requireString(params, "level");
        LogLevel level = LogLevel.fromWire(name);
        if (level == null) {
            throw McpException.invalidParams("Invalid params: unknown log level '" + name + "'");
        }
        scope.session().logLevel(level);
        return EmptyResult.INSTANCE;
    }
}
