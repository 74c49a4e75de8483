package io.quiver.core.internal.handlers;

import io.quiver.api.call.Target;
import io.quiver.core.internal.catalog.Catalog;
import io.quiver.core.internal.catalog.PromptEntry;
import io.quiver.core.internal.catalog.ResourceEntry;
import io.quiver.core.internal.catalog.TemplateEntry;
import io.quiver.core.internal.catalog.ToolEntry;
import io.quiver.core.internal.messages.Lists;
import io.quiver.core.internal.pipeline.Authorize;
import io.quiver.core.internal.pipeline.ToolPipeline;
import io.quiver.core.internal.request.Listeners;
import io.quiver.core.internal.request.MethodHandler;
import io.quiver.core.internal.settings.EngineSettings;
import java.util.HashMap;
import java.util.Map;
import java.util.function.IntSupplier;

/** The method tables: one handler per MCP method, for each era. */
public final class Handlers {

    private Handlers() {
    }

    /** The stateless era's method table: no session methods, plus discovery, listening and tasks. */
    public static Map<String, MethodHandler> statelessTable(Catalog catalog, ToolPipeline pipeline,
            EngineSettings settings, Listeners listeners, ResourceWatches watches) {
        Map<String, MethodHandler> table = common(catalog, pipeline, settings);
        table.put("server/discover", new DiscoverHandler(settings));
        table.put("subscriptions/listen", new ListenHandler(listeners, settings::maxListeners, watches, settings));
        table.put("tasks/get", new TasksGetHandler(pipeline));
        table.put("tasks/update", new TasksUpdateHandler(pipeline));
        table.put("tasks/cancel", new TasksCancelHandler(pipeline));
        return Map.copyOf(table);
    }

    /** The session era's method table. */
    public static Map<String, MethodHandler> sessionTable(Catalog catalog, ToolPipeline pipeline, EngineSettings settings,
            ResourceWatches watches) {
        Map<String, MethodHandler> table = common(catalog, pipeline, settings);
        table.put("initialize", new InitializeHandler(settings));
        table.put("ping", new PingHandler());
        table.put("logging/setLevel", new SetLevelHandler());
        table.put("resources/subscribe", new ResourcesSubscribeHandler(watches, settings));
        table.put("resources/unsubscribe", new ResourcesUnsubscribeHandler(watches));
        return Map.copyOf(table);
    }

    /** The methods both eras have. */
    private static Map<String, MethodHandler> common(Catalog catalog, ToolPipeline pipeline, EngineSettings settings) {
        Authorize authorize = pipeline.authorize();
        IntSupplier pageSize = () -> settings.config().pageSize();
        Map<String, MethodHandler> table = new HashMap<>();
        table.put("tools/list", new ListHandler<>(caller -> catalog.tools(caller).values(), ToolEntry::name,
                e -> Target.tool(e.name()), ToolEntry::descriptor, Lists.Tools::new, authorize, pageSize));
        table.put("tools/call", new ToolsCallHandler(pipeline));
        table.put("resources/list", new ListHandler<>(caller -> catalog.resources(caller).values(), ResourceEntry::uri,
                e -> Target.resource(e.uri()), ResourceEntry::descriptor, Lists.Resources::new, authorize, pageSize));
        table.put("resources/templates/list", new ListHandler<>(caller -> catalog.templates(caller).values(),
                TemplateEntry::uriTemplate, e -> Target.resourceTemplate(e.uriTemplate()), TemplateEntry::descriptor,
                Lists.ResourceTemplates::new, authorize, pageSize));
        table.put("resources/read", new ResourcesReadHandler(catalog, pipeline));
        table.put("prompts/list", new ListHandler<>(caller -> catalog.prompts(caller).values(), PromptEntry::name,
                e -> Target.prompt(e.name()), PromptEntry::descriptor, Lists.Prompts::new, authorize, pageSize));
        table.put("prompts/get", new PromptsGetHandler(catalog, pipeline));
        table.put("completion/complete", new CompletionHandler(catalog, authorize));
        return table;
    }
}
