package io.quiver.core.internal.handlers;

import io.quiver.core.internal.catalog.Catalog;
import io.quiver.core.internal.pipeline.ToolPipeline;
import io.quiver.core.internal.request.Listeners;
import io.quiver.core.internal.request.MethodHandler;
import io.quiver.core.internal.settings.EngineSettings;
import java.util.Map;

/** The method table: one handler per MCP method. */
public final class Handlers {

    private Handlers() {
    }

    /** The stateless era's method table: no session methods, plus discovery and listening. */
    public static Map<String, MethodHandler> statelessTable(Catalog catalog, ToolPipeline pipeline,
            EngineSettings settings, Listeners listeners) {
        return Map.ofEntries(
                Map.entry("server/discover", new DiscoverHandler(settings)),
                Map.entry("subscriptions/listen", new ListenHandler(listeners)),
                Map.entry("tools/list", new ToolsListHandler(catalog, () -> settings.config().pageSize())),
                Map.entry("tools/call", new ToolsCallHandler(pipeline)),
                Map.entry("resources/list", new ResourcesListHandler(catalog, () -> settings.config().pageSize())),
                Map.entry("resources/templates/list", new ResourceTemplatesListHandler(catalog, () -> settings.config().pageSize())),
                Map.entry("resources/read", new ResourcesReadHandler(catalog, pipeline)),
                Map.entry("prompts/list", new PromptsListHandler(catalog, () -> settings.config().pageSize())),
                Map.entry("prompts/get", new PromptsGetHandler(catalog, pipeline)),
                Map.entry("completion/complete", new CompletionHandler(catalog)),
                Map.entry("tasks/get", new TasksGetHandler(pipeline)),
                Map.entry("tasks/update", new TasksUpdateHandler(pipeline)),
                Map.entry("tasks/cancel", new TasksCancelHandler(pipeline)));
    }

    /** The session era's method table. */
    public static Map<String, MethodHandler> sessionTable(Catalog catalog, ToolPipeline pipeline, EngineSettings settings) {
        return Map.ofEntries(
                Map.entry("initialize", new InitializeHandler(settings)),
                Map.entry("ping", new PingHandler()),
                Map.entry("logging/setLevel", new SetLevelHandler()),
                Map.entry("tools/list", new ToolsListHandler(catalog, () -> settings.config().pageSize())),
                Map.entry("tools/call", new ToolsCallHandler(pipeline)),
                Map.entry("resources/list", new ResourcesListHandler(catalog, () -> settings.config().pageSize())),
                Map.entry("resources/templates/list", new ResourceTemplatesListHandler(catalog, () -> settings.config().pageSize())),
                Map.entry("resources/read", new ResourcesReadHandler(catalog, pipeline)),
                Map.entry("resources/subscribe", new ResourcesSubscribeHandler(catalog)),
                Map.entry("resources/unsubscribe", new ResourcesUnsubscribeHandler()),
                Map.entry("prompts/list", new PromptsListHandler(catalog, () -> settings.config().pageSize())),
                Map.entry("prompts/get", new PromptsGetHandler(catalog, pipeline)),
                Map.entry("completion/complete", new CompletionHandler(catalog)));
    }
}
