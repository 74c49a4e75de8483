package io.quiver.lib.external;

import io.quiver.api.Outcome;
import io.quiver.api.ToolResult;
import io.quiver.api.content.Content;
import io.quiver.api.content.TextContent;
import io.quiver.api.input.InputRequest;
import io.quiver.lib.content.ContentJson;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Quiver's Outcome envelope: how a tool outside Java (an upstream server's tool, a local command)
 * states the outcome a Java tool returns, as one JSON object whose {@value #OUTCOME} member is
 * {@code done}, {@code error} or {@code needs_input}.
 * <pre>
 * {"io.quiver/outcome": "done", "content": "text" | [content blocks], "structuredContent": {...}}
 * {"io.quiver/outcome": "error", "message": "what went wrong"}
 * {"io.quiver/outcome": "needs_input", "requests": [{"key": "k", "message": "question", "schema": {...},
 *                                                    "sensitive": false}]}
 * </pre>
 * A request without a {@code schema} asks for one text field, {@code answer}.
 */
public final class OutcomeEnvelope {

    /** The envelope's discriminating member. */
    public static final String OUTCOME = "io.quiver/outcome";

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private OutcomeEnvelope() {
    }

    /**
     * The outcome a text states, or null when the text is not an envelope (it is then the tool's
     * output as it is). A text that is one but does not follow the shape is a failed call saying what
     * is wrong, never silently dropped; a failure of the tool ({@code failed}: an upstream's
     * {@code isError}, a command's non-zero exit status) wins over a stated {@code done}.
     *
     * @param text the whole text the tool answered with
     * @param failed whether the tool itself reported a failure besides the text
     * @param author who answered, for messages, e.g. {@code The upstream tool}
     */
    public static Outcome read(String text, boolean failed, String author) {
        String trimmed = text.strip();
        if (!trimmed.startsWith("{") || !trimmed.contains(OUTCOME)) {
            return null;
        }
        JsonNode node;
        try {
            node = JSON.readTree(trimmed);
        } catch (JacksonException e) {
            return null;
        }
        if (node == null || !node.isObject() || !node.has(OUTCOME)) {
            return null;
        }
        String kind = node.get(OUTCOME).asString("");
        try {
            switch (kind) {
                case "done" -> {
                    JsonNode c = node.get("content");
                    List<Content> blocks = c == null || c.isNull() ? List.of()
                            : c.isString() ? List.of(new TextContent(c.asString()))
                            : c.isArray() ? ContentJson.content(c) : null;
                    if (blocks == null) {
                        return malformed(author, "content must be a string or an array of content blocks");
                    }
                    JsonNode s = node.get("structuredContent");
                    if (failed) {
                        return Outcome.done(new ToolResult(blocks.isEmpty() ? List.of(new TextContent(author + " failed."))
                                : blocks, null, true, Map.of()));
                    }
                    return Outcome.done(new ToolResult(blocks,
                            s == null || s.isNull() ? null : JSON.treeToValue(s, Object.class), false, Map.of()));
                }
                case "error" -> {
                    JsonNode m = node.get("message");
                    if (m == null || !m.isString()) {
                        return malformed(author, "an error needs a message string");
                    }
                    return Outcome.done(ToolResult.error(m.asString()));
                }
                case "needs_input" -> {
                    JsonNode requests = node.get("requests");
                    if (requests == null || !requests.isArray() || requests.isEmpty()) {
                        return malformed(author, "needs_input needs a non-empty requests array");
                    }
                    List<InputRequest> asked = new ArrayList<>();
                    for (JsonNode r : requests) {
                        JsonNode key = r.get("key");
                        JsonNode message = r.get("message");
                        JsonNode schema = r.get("schema");
                        if (key == null || !key.isString() || key.asString().isEmpty() || message == null
                                || !message.isString()) {
                            return malformed(author, "each request needs a key and a message string");
                        }
                        if (schema != null && !schema.isObject()) {
                            return malformed(author, "a request's schema must be a JSON object");
                        }
                        @SuppressWarnings("unchecked")
                        Map<String, Object> requested = schema == null ? defaultSchema()
                                : JSON.treeToValue(schema, LinkedHashMap.class);
                        JsonNode sensitive = r.get("sensitive");
                        if (sensitive != null && !sensitive.isBoolean()) {
                            return malformed(author, "a request's sensitive must be true or false");
                        }
                        asked.add(new InputRequest.Elicitation(key.asString(), message.asString(), requested,
                                sensitive != null && sensitive.asBoolean()));
                    }
                    return new Outcome.NeedsInput(asked);
                }
                default -> {
                    return malformed(author, OUTCOME + " must be done, error or needs_input, not '" + kind + "'");
                }
            }
        } catch (IllegalArgumentException | JacksonException e) {
            return malformed(author, e.getMessage());
        }
    }

    /** A one-field form: the answer as text. */
    private static Map<String, Object> defaultSchema() {
        Map<String, Object> schema = new LinkedHashMap<>();
        schema.put("type", "object");
        schema.put("properties", Map.of("answer", Map.of("type", "string")));
        schema.put("required", List.of("answer"));
        return schema;
    }

    private static Outcome malformed(String author, String why) {
        return Outcome.done(ToolResult.error(author + " answered with a Quiver outcome envelope that is not valid: "
                + why + "."));
    }
}
