package io.quiver.core.internal.handlers;

import io.quiver.api.RequestContext;
import io.quiver.api.input.InputResponse;
import io.quiver.api.prompt.PromptArgument;
import io.quiver.api.prompt.PromptRequest;
import io.quiver.api.call.Target;
import io.quiver.core.internal.catalog.Catalog;
import io.quiver.core.internal.catalog.PromptEntry;
import io.quiver.core.internal.messages.GetPromptResult;
import io.quiver.core.internal.messages.Result;
import io.quiver.core.internal.pipeline.ToolPipeline;
import io.quiver.core.internal.request.MethodHandler;
import io.quiver.core.internal.request.RequestScope;
import io.quiver.core.internal.rpc.McpException;
import java.util.LinkedHashMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** {@code prompts/get}: renders a prompt after checking its required arguments. */
final class PromptsGetHandler implements MethodHandler<Result> {

    private static final Logger LOG = LoggerFactory.getLogger(PromptsGetHandler.class);

    private final Catalog catalog;
    private final ToolPipeline pipeline;

    PromptsGetHandler(Catalog catalog, ToolPipeline pipeline) {
        this.catalog = catalog;
        this.pipeline = pipeline;
    }

    @Override
    public Result handle(RequestScope scope, ObjectNode params) {
        String name = Params.requireString(params, "name");
        PromptEntry entry = catalog.prompts(scope.caller()).get(name);
        if (entry == null || !pipeline.authorize().allows(scope.caller(), Target.prompt(name))) {
            throw McpException.invalidParams("Unknown prompt: " + name);
        }
        Map<String, String> arguments = new LinkedHashMap<>();
        ObjectNode given = Params.optionalObject(params, "arguments");
        if (given != null) {
            for (Map.Entry<String, JsonNode> e : given.properties()) {
                if (!e.getValue().isString()) {
                    throw McpException.invalidParams("Invalid params: argument '" + e.getKey() + "' must be a string");
                }
                arguments.put(e.getKey(), e.getValue().stringValue());
            }
        }
        for (PromptArgument argument : entry.arguments()) {
            if (argument.required() && !arguments.containsKey(argument.name())) {
                throw McpException.invalidParams("Missing required argument: " + argument.name());
            }
        }
        Map<String, String> values = Map.copyOf(arguments);
        return pipeline.rounds().runAsking(scope, "prompts/get " + name, params,
                answers -> GetPromptResult.of(entry.prompt().get(new Request(name, values, scope, answers))),
                "Rendering the prompt failed");
    }

    private record Request(String name, Map<String, String> arguments, RequestContext context,
            Map<String, InputResponse> answers) implements PromptRequest {
    }
}
