package io.quiver.core.internal.era;

import io.quiver.core.internal.json.Json;
import io.quiver.core.internal.request.ProtocolVersions;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Results for clients of older session revisions carry only what their revision defines: strict
 * clients reject content types they do not know. Tool listings lose {@code title},
 * {@code outputSchema} and {@code icons} before 2025-06-18 and {@code annotations} before
 * 2025-03-26; call results lose {@code structuredContent} before 2025-06-18, and content blocks of
 * later types become a text note.
 */
final class OlderRevisions {

    private OlderRevisions() {
    }

    static Object adapt(String method, String version, Object result) {
        if (ProtocolVersions.atLeast(version, "2025-06-18") || !("tools/list".equals(method)
                || "tools/call".equals(method) || "prompts/get".equals(method))) {
            return result;
        }
        JsonNode tree = Json.MAPPER.valueToTree(result);
        if (!tree.isObject()) {
            return result;
        }
        ObjectNode node = (ObjectNode) tree;
        boolean before0326 = !ProtocolVersions.atLeast(version, "2025-03-26");
        if ("tools/list".equals(method)) {
            for (JsonNode tool : node.path("tools")) {
                ObjectNode t = (ObjectNode) tool;
                t.remove("title");
                t.remove("outputSchema");
                t.remove("icons");
                t.remove("execution");
                if (before0326) {
                    t.remove("annotations");
                }
            }
            return node;
        }
        if ("tools/call".equals(method)) {
            node.remove("structuredContent");
            downgrade(node.path("content"), before0326);
        } else {
            for (JsonNode message : node.path("messages")) {
                JsonNode content = message.path("content");
                if (content.isObject() && replaced(content.path("type").asString(""), before0326)) {
                    ((ObjectNode) message).set("content", note(content));
                }
            }
        }
        return node;
    }

    private static void downgrade(JsonNode content, boolean before0326) {
        if (!content.isArray()) {
            return;
        }
        ArrayNode blocks = (ArrayNode) content;
        for (int i = 0; i < blocks.size(); i++) {
            if (replaced(blocks.get(i).path("type").asString(""), before0326)) {
                blocks.set(i, note(blocks.get(i)));
            }
        }
    }

    private static boolean replaced(String type, boolean before0326) {
        return "resource_link".equals(type) || (before0326 && "audio".equals(type));
    }

    private static ObjectNode note(JsonNode block) {
        String text = "resource_link".equals(block.path("type").asString(""))
                ? "[resource: " + block.path("uri").asString("") + "]"
                : "[" + block.path("type").asString("") + " content not shown: the client's protocol revision has no such content]";
        return Json.MAPPER.createObjectNode().put("type", "text").put("text", text);
    }
}
