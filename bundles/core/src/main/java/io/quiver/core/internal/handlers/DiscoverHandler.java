package io.quiver.core.internal.handlers;

import io.quiver.core.internal.engine.EngineSettings;
import io.quiver.core.internal.engine.MethodHandler;
import io.quiver.core.internal.engine.RequestScope;
import io.quiver.core.internal.engine.Stateless;
import io.quiver.core.internal.json.Json;
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
        result.putArray("supportedVersions").add(Stateless.VERSION);
        ObjectNode capabilities = InitializeHandler.capabilities();
        capabilities.putObject("extensions").putObject(io.quiver.core.internal.pipeline.Tasks.EXTENSION);
        result.set("capabilities", capabilities);
        if (!settings.config().instructions().isBlank()) {
            result.put("instructions", settings.config().instructions());
        }
        return result;
    }
}
