package io.quiver.core.internal.handlers;

import io.quiver.api.ProtocolError;
import io.quiver.api.RequestContext;
import io.quiver.api.completion.Completer;
import io.quiver.api.completion.Completion;
import io.quiver.api.completion.CompletionRequest;
import io.quiver.api.call.Target;
import io.quiver.core.internal.catalog.Catalog;
import io.quiver.core.internal.pipeline.Authorize;
import io.quiver.core.internal.messages.CompleteResult;
import io.quiver.core.internal.request.MethodHandler;
import io.quiver.core.internal.request.RequestScope;
import io.quiver.core.internal.rpc.ErrorCodes;
import io.quiver.core.internal.rpc.McpException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code completion/complete}: asks the completer registered for the prompt or template, if any (one the
 * caller may see).
 */
final class CompletionHandler implements MethodHandler<CompleteResult> {

    private static final Logger LOG = LoggerFactory.getLogger(CompletionHandler.class);
    private static final int MAX_VALUES = 100;

    private final Catalog catalog;
    private final Authorize authorize;

    CompletionHandler(Catalog catalog, Authorize authorize) {
        this.catalog = catalog;
        this.authorize = authorize;
    }

    @Override
    public CompleteResult handle(RequestScope scope, ObjectNode params) {
        ObjectNode ref = Params.optionalObject(params, "ref");
        ObjectNode argument = Params.optionalObject(params, "argument");
        if (ref == null || argument == null) {
            throw McpException.invalidParams("Invalid params: 'ref' and 'argument' are required");
        }
        String type = Params.requireString(ref, "type");
        String target = switch (type) {
            case "ref/prompt" -> {
                String name = Params.requireString(ref, "name");
                if (catalog.prompts(scope.caller()).get(name) == null || !authorize.allows(scope.caller(), Target.prompt(name))) {
                    throw McpException.invalidParams("Unknown prompt: " + name);
                }
                yield name;
            }
            case "ref/resource" -> {
                String uri = Params.requireString(ref, "uri");
                boolean template = catalog.templates(scope.caller()).get(uri) != null
                        && authorize.allows(scope.caller(), Target.resourceTemplate(uri));
                boolean resource = catalog.resources(scope.caller()).get(uri) != null
                        && authorize.allows(scope.caller(), Target.resource(uri));
                if (!template && !resource) {
                    throw McpException.invalidParams("Unknown resource template: " + uri);
                }
                yield uri;
            }
            default -> throw McpException.invalidParams("Invalid params: unknown ref type '" + type + "'");
        };
        String argumentName = Params.requireString(argument, "name");
        String value = argument.path("value").asString("");
        Map<String, String> resolved = new LinkedHashMap<>();
        ObjectNode context = Params.optionalObject(params, "context");
        if (context != null && context.path("arguments").isObject()) {
            for (Map.Entry<String, JsonNode> e : context.path("arguments").properties()) {
                resolved.put(e.getKey(), e.getValue().asString(""));
            }
        }
        Completer completer = catalog.completers(scope.caller()).get(Catalog.completerKey(type, target));
        Completion completion = Completion.none();
        if (completer != null) {
            try {
                Completion answer = completer.complete(new Request(argumentName, value, Map.copyOf(resolved), scope));
                if (answer != null) {
                    completion = answer;
                }
            } catch (ProtocolError refusal) {
                // the completer's own answer (an upstream server's error, say)
                throw new McpException(refusal.code(), refusal.getMessage(), refusal.data());
            } catch (Exception e) {
                LOG.error("Completion for {} {} failed ({})", type, target, scope.invocationId(), e);
                throw new McpException(ErrorCodes.INTERNAL_ERROR, "Completion failed");
            }
        }
        List<String> values = completion.values();
        boolean cut = values.size() > MAX_VALUES;
        return new CompleteResult(new CompleteResult.Values(cut ? List.copyOf(values.subList(0, MAX_VALUES)) : values,
                completion.total() != null ? completion.total() : values.size(), completion.hasMore() || cut));
    }

    private record Request(String argument, String value, Map<String, String> resolvedArguments,
            RequestContext context) implements CompletionRequest {
    }
}
