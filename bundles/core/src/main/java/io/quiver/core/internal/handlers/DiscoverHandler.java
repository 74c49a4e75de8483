package io.quiver.core.internal.handlers;

import io.quiver.core.internal.messages.DiscoverResult;
import io.quiver.core.internal.messages.ProtocolVersions;
import io.quiver.core.internal.messages.ServerCapabilities;
import io.quiver.core.internal.pipeline.Tasks;
import io.quiver.core.internal.request.MethodHandler;
import io.quiver.core.internal.request.RequestScope;
import io.quiver.core.internal.settings.EngineSettings;
import java.util.Map;
import tools.jackson.databind.node.ObjectNode;

/** {@code server/discover} (2026-07-28): the revisions, capabilities and instructions of this server. */
final class DiscoverHandler implements MethodHandler<DiscoverResult> {

    private final EngineSettings settings;

    DiscoverHandler(EngineSettings settings) {
        this.settings = settings;
    }

    @Override
    public DiscoverResult handle(RequestScope scope, ObjectNode params) {
        String instructions = settings.config().instructions();
        return new DiscoverResult(ProtocolVersions.NEWEST_FIRST, ServerCapabilities.all(Map.of(Tasks.EXTENSION,
                Map.of())), instructions.isBlank() ? null : instructions);
    }
}
