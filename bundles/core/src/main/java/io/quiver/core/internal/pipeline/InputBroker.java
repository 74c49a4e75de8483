package io.quiver.core.internal.pipeline;

import io.quiver.api.ClientInfo;
import io.quiver.api.content.Content;
import io.quiver.api.input.InputRequest;
import io.quiver.api.input.InputResponse;
import io.quiver.core.internal.json.Json;
import io.quiver.core.internal.messages.InputRequiredResult;
import io.quiver.core.internal.messages.ProtocolVersions;
import io.quiver.core.internal.request.RequestScope;
import io.quiver.core.internal.rpc.McpException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;
import tools.jackson.databind.JsonNode;

/**
 * The wire forms of a tool's input requests ({@code elicitation/create}, {@code sampling/createMessage},
 * {@code roots/list}) and of their answers; and, for session clients, asking on the call's own stream.
 */
final class InputBroker {

    /** The client cannot answer: it did not declare the capability. */
    static final class Unanswerable extends Exception {
        private static final long serialVersionUID = 1L;

        Unanswerable(String message) {
            super(message, null, false, false);
        }
    }

    private final LongSupplier timeoutMs;

    InputBroker(LongSupplier timeoutMs) {
        this.timeoutMs = timeoutMs;
    }

    /** Asks a session client and waits for its answer. */
    InputResponse obtain(RequestScope scope, InputRequest request) throws Unanswerable {
        if (NonBlocking.here()) {
            throw new Unanswerable("This tool is declared non-blocking (mcp.tool.blocking=false) and asked for "
                    + capability(request) + ", which needs waiting for the client; such a tool may not ask for input.");
        }
        if (request instanceof InputRequest.Elicitation && !ProtocolVersions.atLeast(scope.protocolVersion(), ELICITATION)) {
            throw new Unanswerable("This tool needs elicitation, which protocol revision " + scope.protocolVersion()
                    + " does not have (it came with " + ELICITATION + ").");
        }
        Map<String, Object> undeclared = undeclared(scope.client(), request);
        if (undeclared != null) {
            throw new Unanswerable("This tool needs " + (undeclared.get("elicitation") instanceof Map<?, ?> m && !m.isEmpty()
                    ? "elicitation in form mode and the client declared only other modes."
                    : capability(request) + " and the client did not declare that capability."));
        }
        JsonNode answer = scope.askClient(method(request), params(request), timeoutMs.getAsLong());
        return checked(request, answer);
    }

    /**
     * Reads an answer as {@link #answer} does, and holds an accepted form to its {@code requestedSchema}, as the
     * host's answers are: the tool gets the types it asked for.
     *
     * @throws McpException (-32602) when it does not have the request's result shape or does not fit the form
     */
    static InputResponse checked(InputRequest request, JsonNode answer) {
        InputResponse typed = answer(request, answer);
        String misfit = HostAnswers.misfit(request, typed);
        if (misfit != null) {
            throw McpException.invalidParams("Invalid params: the answer to input request '" + request.key()
                    + "' does not fit its requestedSchema: " + misfit);
        }
        return typed;
    }

    /** The revision that brought elicitation. */
    static final String ELICITATION = "2025-06-18";

    /**
     * What a request needs of the client's capabilities that the client did not declare, as a missing-capability
     * error names it ({@code {"sampling": {}}}); null when it is declared. Quiver's questions are forms: a client
     * whose {@code elicitation} names modes without {@code form} (URL mode only) cannot answer them, one that names
     * none takes forms (as before modes existed).
     */
    static Map<String, Object> undeclared(ClientInfo client, InputRequest request) {
        String capability = capability(request);
        if (!client.supports(capability)) {
            return Map.of(capability, Map.of());
        }
        if (request instanceof InputRequest.Elicitation && client.capabilities().get(capability) instanceof Map<?, ?> modes
                && (modes.containsKey("url") || modes.containsKey("form")) && !modes.containsKey("form")) {
            return Map.of(capability, Map.of("form", Map.of()));
        }
        return null;
    }

    /**
     * Refuses input requests that the client declared no way to answer, with the missing capabilities (-32021):
     * asked anyway, a 2026-07-28 request or task would wait for answers that cannot come.
     */
    static void requireDeclared(ClientInfo client, List<InputRequest> requests) {
        Map<String, Object> required = new LinkedHashMap<>();
        for (InputRequest request : requests) {
            Map<String, Object> undeclared = undeclared(client, request);
            if (undeclared != null) {
                required.putAll(undeclared);
            }
        }
        if (!required.isEmpty()) {
            throw McpException.missingCapability(required);
        }
    }

    /** The client capability a request needs. */
    static String capability(InputRequest request) {
        if (request instanceof InputRequest.Elicitation) {
            return "elicitation";
        }
        return request instanceof InputRequest.Sampling ? "sampling" : "roots";
    }

    /** The method that asks for it. */
    static String method(InputRequest request) {
        if (request instanceof InputRequest.Elicitation) {
            return "elicitation/create";
        }
        return request instanceof InputRequest.Sampling ? "sampling/createMessage" : "roots/list";
    }

    /** The request as an {@code input_required} result names it. */
    static InputRequiredResult.InputRequestWire wire(InputRequest request) {
        return new InputRequiredResult.InputRequestWire(method(request), params(request));
    }

    /** The params of that method. */
    static Map<String, Object> params(InputRequest request) {
        Map<String, Object> params = new LinkedHashMap<>();
        if (request instanceof InputRequest.Elicitation e) {
            params.put("message", e.message());
            params.put("requestedSchema", e.requestedSchema());
        } else if (request instanceof InputRequest.Sampling s) {
            params.put("messages", s.messages());
            params.put("maxTokens", s.maxTokens());
            if (s.systemPrompt() != null) {
                params.put("systemPrompt", s.systemPrompt());
            }
        }
        return params;
    }

    /**
     * Reads the client's answer to a request.
     *
     * @throws McpException (-32602) when the answer does not have the request's result shape
     */
    static InputResponse answer(InputRequest request, JsonNode answer) {
        if (answer == null || !answer.isObject()) {
            throw malformed(request);
        }
        if (request instanceof InputRequest.Elicitation) {
            String action = answer.path("action").asString("");
            if (!List.of("accept", "decline", "cancel").contains(action)) {
                throw malformed(request);
            }
            if (answer.has("content") && !answer.get("content").isObject() && !answer.get("content").isNull()) {
                throw malformed(request);
            }
            @SuppressWarnings("unchecked")
            Map<String, Object> content = answer.path("content").isObject()
                    ? Json.MAPPER.convertValue(answer.get("content"), Map.class) : Map.of();
            return new InputResponse.Elicited(action, content);
        }
        if (request instanceof InputRequest.Sampling) {
            Content content;
            try {
                content = Json.MAPPER.treeToValue(answer.path("content"), Content.class);
            } catch (RuntimeException e) {
                throw malformed(request);
            }
            if (content == null) { // no content at all: nothing was sampled, and a tool would read null
                throw malformed(request);
            }
            return new InputResponse.Sampled(answer.path("role").asString("assistant"), content,
                    answer.path("model").asString(null), answer.path("stopReason").asString(null));
        }
        if (!answer.path("roots").isArray()) {
            throw malformed(request);
        }
        List<InputResponse.Root> roots = new ArrayList<>();
        for (JsonNode root : answer.path("roots")) {
            roots.add(new InputResponse.Root(root.path("uri").asString(""), root.path("name").asString(null)));
        }
        return new InputResponse.RootList(roots);
    }

    private static McpException malformed(InputRequest request) {
        return McpException.invalidParams("Invalid params: the answer to input request '" + request.key()
                + "' is not a valid " + method(request) + " result");
    }
}
