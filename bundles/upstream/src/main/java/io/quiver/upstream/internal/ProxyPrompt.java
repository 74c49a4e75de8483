package io.quiver.upstream.internal;

import java.util.ArrayList;
import java.util.List;

import io.quiver.api.prompt.Prompt;
import io.quiver.api.prompt.PromptArgument;
import io.quiver.api.prompt.PromptMessage;
import io.quiver.api.prompt.PromptRequest;
import io.quiver.api.prompt.PromptResult;
import io.quiver.lib.content.ContentJson;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * One upstream prompt as a Quiver {@link Prompt}: its arguments as the server listed them, and each
 * {@code prompts/get} passed on to the server under the server's own name for it ({@link Forwarded}),
 * its messages passed back block for block.
 */
final class ProxyPrompt implements Prompt {

    private final Upstream upstream;
    private final String upstreamName;
    private final List<PromptArgument> arguments;

    ProxyPrompt(Upstream upstream, String upstreamName, JsonNode listing) {
        this.upstream = upstream;
        this.upstreamName = upstreamName;
        this.arguments = arguments(listing);
    }

    /** The arguments of a listed prompt; one without a name is left out. */
    static List<PromptArgument> arguments(JsonNode listing) {
        List<PromptArgument> out = new ArrayList<>();
        for (JsonNode a : listing.path("arguments")) {
            String name = a.path("name").asString("");
            if (!name.isEmpty()) {
                out.add(new PromptArgument(name, a.path("description").isString() ? a.path("description").asString() : null,
                        a.path("required").asBoolean(false)));
            }
        }
        return List.copyOf(out);
    }

    @Override
    public List<PromptArgument> arguments() {
        return arguments;
    }

    @Override
    public PromptResult get(PromptRequest request) {
        ObjectNode params = McpClient.JSON.createObjectNode().put("name", upstreamName);
        ObjectNode given = params.putObject("arguments");
        request.arguments().forEach(given::put);
        JsonNode result = Forwarded.request(upstream, "prompts/get", params, request.context());
        List<PromptMessage> messages = new ArrayList<>();
        for (JsonNode message : result.path("messages")) {
            String role = message.path("role").asString("");
            messages.add(new PromptMessage(role.equals("assistant") ? "assistant" : "user",
                    ContentJson.block(message.path("content"))));
        }
        return new PromptResult(result.path("description").isString() ? result.path("description").asString() : null,
                messages);
    }
}
