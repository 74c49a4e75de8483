package io.quiver.core.internal.handlers;

import io.quiver.core.internal.messages.Implementation;
import io.quiver.core.internal.messages.InitializeResult;
import io.quiver.core.internal.messages.ProtocolVersions;
import io.quiver.core.internal.messages.ServerCapabilities;
import io.quiver.core.internal.request.Introductions;
import io.quiver.core.internal.request.MethodHandler;
import io.quiver.core.internal.request.RequestScope;
import io.quiver.core.internal.settings.EngineSettings;
import tools.jackson.databind.node.ObjectNode;

/** {@code initialize}: negotiates the revision and records the client's capabilities in the session. */
final class InitializeHandler implements MethodHandler<InitializeResult> {

    private final EngineSettings settings;

    InitializeHandler(EngineSettings settings) {
        this.settings = settings;
    }

    @Override
    public InitializeResult handle(RequestScope scope, ObjectNode params) {
        String requested = Params.requireString(params, "protocolVersion");
        ObjectNode capabilities = Params.optionalObject(params, "capabilities");
        ObjectNode clientInfo = Params.optionalObject(params, "clientInfo");
        String version = ProtocolVersions.negotiate(requested);
        scope.session().initialize(version, Introductions.client(clientInfo, capabilities));

        String instructions = settings.config().instructions();
        return new InitializeResult(version, ServerCapabilities.all(null),
                new Implementation(settings.config().serverName(), settings.serverVersion(), "Quiver MCP server"),
                instructions.isBlank() ? null : instructions);
    }
}
