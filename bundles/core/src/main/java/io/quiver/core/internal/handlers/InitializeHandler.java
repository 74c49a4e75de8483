package io.quiver.core.internal.handlers;

import io.quiver.api.ClientInfo;
import io.quiver.core.internal.json.Json;
import io.quiver.core.internal.request.MethodHandler;
import io.quiver.core.internal.request.ProtocolVersions;
import io.quiver.core.internal.request.RequestScope;
import io.quiver.core.internal.settings.EngineSettings;
import java.util.Map;
import tools.jackson.databind.node.ObjectNode;

/** {@code initialize}: negotiates the revision and records the client's capabilities in the session. */
final class InitializeHandler implements MethodHandler {

    private final EngineSettings settings;

    InitializeHandler(EngineSettings settings) {
        this.settings = settings;
    }

    /** What the server offers, the same in every revision. */
    static ObjectNode capabilities() {
        ObjectNode server = Json.MAPPER.createObjectNode();
        server.putObject("tools").put("listChanged", true);
        server.putObject("resources").put("subscribe", true).put("listChanged", true);
        server.putObject("prompts").put("listChanged", true);
        server.putObject("logging");
        server.putObject("completions");
        return server;
    }

    @Override
    public Object handle(RequestScope scope, ObjectNode params) {
        String requested = Params.requireString(params, "protocolVersion");
        ObjectNode capabilities = Params.optionalObject(params, "capabilities");
        ObjectNode clientInfo = Params.optionalObject(params, "clientInfo");
        String version = ProtocolVersions.negotiate(requested);
        @SuppressWarnings("unchecked")
        Map<String, Object> caps = capabilities == null ? Map.of() : Json.MAPPER.convertValue(capabilities, Map.class);
        ClientInfo client = new ClientInfo(
                clientInfo == null ? "unknown" : clientInfo.path("name").asString("unknown"),
                clientInfo == null ? "" : clientInfo.path("version").asString(""), caps);
        scope.session().initialize(version, client);

        ObjectNode result = Json.MAPPER.createObjectNode();
        result.put("protocolVersion", version);
        result.set("capabilities", capabilities());
        ObjectNode info = result.putObject("serverInfo");
        info.put("name", settings.config().serverName());
        info.put("version", settings.serverVersion());
        if (ProtocolVersions.atLeast(version, "2025-06-18")) {
            info.put("title", "Quiver MCP server");
        }
        if (!settings.config().instructions().isBlank()) {
            result.put("instructions", settings.config().instructions());
        }
        return result;
    }
}
