package io.quiver.core.internal.handlers;

import io.quiver.core.internal.json.Json;
import io.quiver.core.internal.request.MethodHandler;
import io.quiver.core.internal.request.ProtocolVersions;
import io.quiver.core.internal.request.RequestScope;
import io.quiver.core.internal.settings.EngineSettings;
import tools.jackson.databind.node.ObjectNode;

/** {@code server/discover} (2026-07-28): the revisions, capabilities and instructions of this server. */
final class DiscoverHandler implements MethodHandler {

    private final EngineSettings settings;

    DiscoverHandler(EngineSettings settings) {
        this.settings = settings;
    }

    @Override
    public Object handle(RequestScope scope, ObjectNode params) {
        ObjectNode result = Json.MAPPER.createObjectNode();
        result.putArray("supportedVersions").add(ProtocolVersions.STATELESS);
        ObjectNode capabilities = InitializeHandler.capabilities();
        capabilities.putObject("extensions").putObject(io.quiver.core.internal.pipeline.Tasks.EXTENSION);
        result.set("capabilities", capabilities);
        if (!settings.config().instructions().isBlank()) {
            result.put("instructions", settings.config().instructions());
        }
        return result;
    }
}
