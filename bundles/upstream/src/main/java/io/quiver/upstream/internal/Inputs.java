package io.quiver.upstream.internal;

import io.quiver.lib.content.ContentJson;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;

import io.quiver.api.ClientInfo;
import io.quiver.api.content.Content;
import io.quiver.api.input.InputRequest;
import io.quiver.api.input.InputResponse;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * An upstream server's questions as the tool API's input requests, and the caller's answers as the
 * results the server expects: {@code elicitation/create} (form mode) as {@link InputRequest.Elicitation},
 * {@code sampling/createMessage} (text, image and audio messages, no tool use) as
 * {@link InputRequest.Sampling}, {@code roots/list} as {@link InputRequest.Roots}.
 */
final class Inputs {

    private Inputs() {
    }

    /**
     * Why a question cannot be put to the caller, or null when it can: its client must have declared the
     * capability, and the question must be one the tool API can carry.
     */
    static String refusal(CallExchange.Question q, ClientInfo client) {
        String capability = McpClient.SERVER_REQUESTS.get(q.method());
        if (capability == null) {
            return "the server asked with " + q.method() + ", which is not a request a client answers";
        }
        if (!client.supports(capability)) {
            return "the server asked with " + q.method() + " and the calling client did not declare the " + capability
                    + " capability";
        }
        ObjectNode p = q.params();
        switch (q.method()) {
            case "elicitation/create" -> {
                String mode = p.path("mode").asString("form");
                if (!mode.equals("form")) {
                    return "the server asked for an elicitation in " + mode + " mode; Quiver passes on form mode only";
                }
                if (!p.path("requestedSchema").isObject()) {
                    return "the server's elicitation has no requestedSchema object";
                }
            }
            case "sampling/createMessage" -> {
                if (p.has("tools") || p.has("toolChoice")) {
                    return "the server asked for sampling with tools, which Quiver does not pass on";
                }
                if (!p.path("messages").isArray() || !p.path("maxTokens").canConvertToInt()) {
                    return "the server's sampling request has no messages array or maxTokens";
                }
                for (JsonNode m : p.path("messages")) {
                    if (content(m.path("content")) == null) {
                        return "the server's sampling request has a message Quiver cannot pass on (only text, image"
                                + " and audio content)";
                    }
                }
            }
            default -> {
                // roots/list takes nothing
            }
        }
        return null;
    }

    /** The question as an input request under a key (one {@link #refusal} found nothing against). */
    @SuppressWarnings("unchecked")
    static InputRequest request(String key, CallExchange.Question q) {
        ObjectNode p = q.params();
        return switch (q.method()) {
            case "elicitation/create" -> new InputRequest.Elicitation(key, p.path("message").asString(""),
                    McpClient.JSON.treeToValue(p.get("requestedSchema"), LinkedHashMap.class));
            case "sampling/createMessage" -> {
                List<InputRequest.SamplingMessage> messages = new ArrayList<>();
                for (JsonNode m : p.path("messages")) {
                    messages.add(new InputRequest.SamplingMessage(m.path("role").asString("user"), content(m.path("content"))));
                }
                yield new InputRequest.Sampling(key, messages, p.path("maxTokens").asInt(),
                        p.path("systemPrompt").isString() ? p.get("systemPrompt").asString() : null);
            }
            default -> new InputRequest.Roots(key);
        };
    }

    /** A sampling message's content: one text, image or audio block (or an array of exactly one); else null. */
    private static Content content(JsonNode content) {
        JsonNode block = content.isArray() && content.size() == 1 ? content.get(0) : content;
        String type = block.path("type").asString("");
        return block.isObject() && List.of("text", "image", "audio").contains(type) ? ContentJson.block(block) : null;
    }

    /** The caller's answer as the result of the method the server asked with. */
    static JsonNode result(InputResponse answer) {
        ObjectNode out = McpClient.JSON.createObjectNode();
        if (answer instanceof InputResponse.Elicited e) {
            out.put("action", e.action());
            if (e.accepted()) {
                out.set("content", McpClient.JSON.valueToTree(e.content()));
            }
        } else if (answer instanceof InputResponse.Sampled s) {
            out.put("role", s.role() == null ? "assistant" : s.role());
            out.set("content", ContentJson.json(s.content()));
            out.put("model", s.model() == null ? "unknown" : s.model());
            if (s.stopReason() != null) {
                out.put("stopReason", s.stopReason());
            }
        } else if (answer instanceof InputResponse.RootList r) {
            ArrayNode roots = out.putArray("roots");
            for (InputResponse.Root root : r.roots()) {
                ObjectNode o = roots.addObject().put("uri", root.uri());
                if (root.name() != null) {
                    o.put("name", root.name());
                }
            }
        }
        return out;
    }

    /**
     * What a stateless revision's call declares it can answer: what the calling client declared of
     * elicitation (form mode), sampling and roots, since its questions go to that client.
     */
    static ObjectNode capabilities(ClientInfo client) {
        ObjectNode out = McpClient.JSON.createObjectNode();
        for (String capability : List.of("elicitation", "sampling", "roots")) {
            if (client.supports(capability)) {
                out.putObject(capability);
            }
        }
        return out;
    }
}
