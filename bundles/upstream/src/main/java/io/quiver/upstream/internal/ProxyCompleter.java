package io.quiver.upstream.internal;

import java.util.ArrayList;
import java.util.List;

import io.quiver.api.completion.Completer;
import io.quiver.api.completion.Completion;
import io.quiver.api.completion.CompletionRequest;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Completions for an argument of an upstream prompt ({@code ref/prompt}, asked under the server's own name
 * for it) or resource template ({@code ref/resource}): each {@code completion/complete} is passed on to the
 * server ({@link Forwarded}) with the arguments already resolved, and its values passed back.
 */
final class ProxyCompleter implements Completer {

    private final Upstream upstream;
    private final String refType;
    /** The prompt's name at the server, or the template's URI template. */
    private final String ref;

    ProxyCompleter(Upstream upstream, String refType, String ref) {
        this.upstream = upstream;
        this.refType = refType;
        this.ref = ref;
    }

    @Override
    public Completion complete(CompletionRequest request) {
        ObjectNode params = McpClient.JSON.createObjectNode();
        params.putObject("ref").put("type", refType).put(refType.equals("ref/prompt") ? "name" : "uri", ref);
        params.putObject("argument").put("name", request.argument()).put("value", request.value());
        if (!request.resolvedArguments().isEmpty()) {
            ObjectNode resolved = params.putObject("context").putObject("arguments");
            request.resolvedArguments().forEach(resolved::put);
        }
        JsonNode completion = Forwarded.request(upstream, "completion/complete", params, request.context()).path("completion");
        List<String> values = new ArrayList<>();
        for (JsonNode value : completion.path("values")) {
            if (value.isString()) {
                values.add(value.asString());
            }
        }
        JsonNode total = completion.path("total");
        return new Completion(values, total.canConvertToInt() ? Integer.valueOf(total.asInt()) : null,
                completion.path("hasMore").asBoolean(false));
    }
}
