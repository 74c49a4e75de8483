package io.quiver.core.internal.pipeline;

import io.quiver.api.content.Content;
import io.quiver.api.input.InputRequest;
import io.quiver.api.input.InputResponse;
import io.quiver.core.internal.engine.RequestScope;
import io.quiver.core.internal.json.Json;
import io.quiver.core.internal.rpc.McpException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;

/**
 * Obtains answers to a tool's input requests from a session client: {@code elicitation/create},
 * {@code sampling/createMessage} and {@code roots/list}, sent on the call's own stream.
 */
final class InputBroker {

    /** The client cannot answer: it did not declare the capability. */
    static final class Unanswerable extends Exception {
        private static final long serialVersionUID = 1L;

        Unanswerable(String message) {
            super(message, null, false, false);
        }
    }

    private final long timeoutMs;

    InputBroker(long timeoutMs) {
        this.timeoutMs = timeoutMs;
    }

    InputResponse obtain(RequestScope scope, InputRequest request) throws Unanswerable {
        if (request instanceof InputRequest.Elicitation e) {
            return elicit(scope, e);
        }
        if (request instanceof InputRequest.Sampling s) {
            return sample(scope, s);
        }
        return roots(scope);
    }

    private InputResponse elicit(RequestScope scope, InputRequest.Elicitation request) throws Unanswerable {
        require(scope, "elicitation");
        Map<String, Object> params = new LinkedHashMap<>();
        params.put("message", request.message());
        params.put("requestedSchema", request.requestedSchema());
        JsonNode answer = scope.askClient("elicitation/create", params, timeoutMs);
        String action = answer.path("action").asString("");
        if (!List.of("accept", "decline", "cancel").contains(action)) {
            throw new McpException(-32603, "The client answered elicitation/create with an unknown action");
        }
        @SuppressWarnings("unchecked")
        Map<String, Object> content = answer.path("content").isObject()
                ? Json.MAPPER.convertValue(answer.get("content"), Map.class) : Map.of();
        return new InputResponse.Elicited(action, content);
    }

    private InputResponse sample(RequestScope scope, InputRequest.Sampling request) throws Unanswerable {
        require(scope, "sampling");
        Map<String, Object> params = new LinkedHashMap<>();
        params.put("messages", request.messages());
        params.put("maxTokens", request.maxTokens());
        if (request.systemPrompt() != null) {
            params.put("systemPrompt", request.systemPrompt());
        }
        JsonNode answer = scope.askClient("sampling/createMessage", params, timeoutMs);
        Content content;
        try {
            content = Json.MAPPER.treeToValue(answer.path("content"), Content.class);
        } catch (RuntimeException e) {
            throw new McpException(-32603, "The client answered sampling/createMessage with unreadable content");
        }
        return new InputResponse.Sampled(answer.path("role").asString("assistant"), content,
                answer.path("model").asString(null), answer.path("stopReason").asString(null));
    }

    private InputResponse roots(RequestScope scope) throws Unanswerable {
        require(scope, "roots");
        JsonNode answer = scope.askClient("roots/list", null, timeoutMs);
        List<InputResponse.Root> roots = new ArrayList<>();
        for (JsonNode root : answer.path("roots")) {
            roots.add(new InputResponse.Root(root.path("uri").asString(""), root.path("name").asString(null)));
        }
        return new InputResponse.RootList(roots);
    }

    private static void require(RequestScope scope, String capability) throws Unanswerable {
        if (!scope.client().supports(capability)) {
            throw new Unanswerable("This tool needs " + capability + " and the client did not declare that capability.");
        }
    }
}
