package io.quiver.upstream.internal;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import io.quiver.api.Outcome;
import io.quiver.api.ProtocolError;
import io.quiver.api.RequestContext;
import io.quiver.api.Tool;
import io.quiver.api.ToolCall;
import io.quiver.api.ToolResult;
import io.quiver.api.input.InputRequest;
import io.quiver.api.input.InputResponse;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * One upstream tool as a Quiver {@link Tool}: each attempt is one {@code tools/call} to the server,
 * with the validated arguments, a progress token whose notifications become the caller's progress,
 * and the trusted invocation context in {@code _meta} ({@value #TOOL_META}, {@value #CONTEXT_META}),
 * built here from the pipeline's values; the caller's own {@code _meta} never reaches the server.
 * A cancelled call (by the client, its timeout or shutdown) is cancelled upstream. A call whose
 * connection ends before the answer ends with an error and is not sent again.
 *
 * <p>The result is passed on block for block, except one made of exactly one text block whose whole
 * text is Quiver's Outcome envelope ({@link #envelope}): that is read as the outcome it states.
 */
final class ProxyTool implements Tool {

    static final String TOOL_META = "io.quiver/tool";
    static final String CONTEXT_META = "io.quiver/context";
    /** The envelope's discriminating member. */
    static final String OUTCOME = "io.quiver/outcome";
    /** How often a waiting call looks whether it was cancelled. */
    private static final long CANCEL_POLL_MS = 25;

    private final Upstream upstream;
    private final String upstreamName;

    ProxyTool(Upstream upstream, String upstreamName) {
        this.upstream = upstream;
        this.upstreamName = upstreamName;
    }

    @Override
    public Outcome call(ToolCall call) throws Exception {
        Upstream.Generation g = upstream.ready();
        if (g == null) {
            return Outcome.done(ToolResult.error(upstream.unavailable() + "; try again once it is ready."));
        }
        RequestContext context = call.context();
        String token = "quiver-" + context.invocationId();
        ObjectNode params = McpClient.JSON.createObjectNode().put("name", upstreamName);
        params.set("arguments", McpClient.JSON.valueToTree(call.arguments()));
        ObjectNode meta = params.putObject("_meta");
        meta.put("progressToken", token);
        ObjectNode tool = meta.putObject(TOOL_META);
        tool.put("name", call.name()).put("upstreamName", upstreamName).put("server", g.serverName());
        ObjectNode trusted = meta.putObject(CONTEXT_META);
        trusted.put("invocationId", context.invocationId());
        trusted.set("arguments", McpClient.JSON.valueToTree(call.arguments()));
        trusted.set("answers", answers(call.answers()));
        trusted.put("tenant", context.caller().tenant());
        if (context.caller().project() != null) {
            trusted.put("project", context.caller().project());
        }
        g.client.onProgress(token, p -> context.progress(p.path("progress").asDouble(),
                p.path("total").isNumber() ? p.path("total").asDouble() : null,
                p.path("message").isString() ? p.path("message").asString() : null));
        McpClient.Request request = g.client.request("tools/call", params);
        try {
            JsonNode result;
            while (true) {
                try {
                    result = request.answer().get(CANCEL_POLL_MS, TimeUnit.MILLISECONDS);
                    break;
                } catch (TimeoutException e) {
                    if (context.isCancelled()) {
                        g.client.cancel(request, "the caller cancelled the call or it timed out");
                        return Outcome.done(ToolResult.error("The call was cancelled."));
                    }
                } catch (InterruptedException e) {
                    // the engine stops the attempt (cancelled, timed out, shutting down): so does the server
                    g.client.cancel(request, "the caller cancelled the call or it timed out");
                    Thread.currentThread().interrupt();
                    return Outcome.done(ToolResult.error("The call was cancelled."));
                } catch (ExecutionException e) {
                    if (e.getCause() instanceof McpClient.RpcError rpc) {
                        throw new ProtocolError(rpc.code, rpc.getMessage());
                    }
                    return Outcome.done(ToolResult.error("The upstream server " + g.serverName()
                            + " stopped before it answered (" + e.getCause().getMessage() + "). Whether the call took"
                            + " effect there is unknown; Quiver did not send it again."));
                }
            }
            return outcome(result);
        } finally {
            g.client.forgetProgress(token);
        }
    }

    private static JsonNode answers(Map<String, InputResponse> answers) {
        ObjectNode out = McpClient.JSON.createObjectNode();
        answers.forEach((key, answer) -> out.set(key, McpClient.JSON.valueToTree(answer)));
        return out;
    }

    /** The result as it came, or the outcome its envelope states. */
    static Outcome outcome(JsonNode result) {
        JsonNode content = result.path("content");
        boolean isError = result.path("isError").asBoolean(false);
        if (content.isArray() && content.size() == 1 && "text".equals(content.get(0).path("type").asString(""))) {
            Outcome stated = envelope(content.get(0).path("text").asString(""), isError);
            if (stated != null) {
                return stated;
            }
        }
        return Outcome.done(Results.toolResult(result));
    }

    /**
     * Quiver's Outcome envelope: a JSON object whose {@value #OUTCOME} member is {@code done},
     * {@code error} or {@code needs_input}.
     * <pre>
     * {"io.quiver/outcome": "done", "content": "text" | [content blocks], "structuredContent": {...}}
     * {"io.quiver/outcome": "error", "message": "what went wrong"}
     * {"io.quiver/outcome": "needs_input", "requests": [{"key": "k", "message": "question", "schema": {...}}]}
     * </pre>
     * Null when the text is not one (it is then passed on as it is). A text that is one but does not
     * follow the shape is a failed call saying what is wrong, never silently dropped; an upstream
     * {@code isError} wins over a stated {@code done}.
     */
    static Outcome envelope(String text, boolean isError) {
        String trimmed = text.strip();
        if (!trimmed.startsWith("{") || !trimmed.contains(OUTCOME)) {
            return null;
        }
        JsonNode node;
        try {
            node = McpClient.JSON.readTree(trimmed);
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
                    List<io.quiver.api.content.Content> blocks = c == null || c.isNull() ? List.of()
                            : c.isString() ? List.of(new io.quiver.api.content.TextContent(c.asString()))
                            : c.isArray() ? Results.content(c) : null;
                    if (blocks == null) {
                        return malformed("content must be a string or an array of content blocks");
                    }
                    JsonNode s = node.get("structuredContent");
                    if (isError) {
                        return Outcome.done(new ToolResult(blocks.isEmpty() ? List.of(new io.quiver.api.content.TextContent(
                                "The upstream tool failed.")) : blocks, null, true, Map.of()));
                    }
                    return Outcome.done(new ToolResult(blocks,
                            s == null || s.isNull() ? null : McpClient.JSON.treeToValue(s, Object.class), false, Map.of()));
                }
                case "error" -> {
                    JsonNode m = node.get("message");
                    if (m == null || !m.isString()) {
                        return malformed("an error needs a message string");
                    }
                    return Outcome.done(ToolResult.error(m.asString()));
                }
                case "needs_input" -> {
                    JsonNode requests = node.get("requests");
                    if (requests == null || !requests.isArray() || requests.isEmpty()) {
                        return malformed("needs_input needs a non-empty requests array");
                    }
                    List<InputRequest> asked = new ArrayList<>();
                    for (JsonNode r : requests) {
                        JsonNode key = r.get("key");
                        JsonNode message = r.get("message");
                        JsonNode schema = r.get("schema");
                        if (key == null || !key.isString() || key.asString().isEmpty() || message == null
                                || !message.isString()) {
                            return malformed("each request needs a key and a message string");
                        }
                        if (schema != null && !schema.isObject()) {
                            return malformed("a request's schema must be a JSON object");
                        }
                        @SuppressWarnings("unchecked")
                        Map<String, Object> requested = schema == null ? defaultSchema()
                                : McpClient.JSON.treeToValue(schema, LinkedHashMap.class);
                        asked.add(new InputRequest.Elicitation(key.asString(), message.asString(), requested));
                    }
                    return new Outcome.NeedsInput(asked);
                }
                default -> {
                    return malformed(OUTCOME + " must be done, error or needs_input, not '" + kind + "'");
                }
            }
        } catch (IllegalArgumentException | JacksonException e) {
            return malformed(e.getMessage());
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

    private static Outcome malformed(String why) {
        return Outcome.done(ToolResult.error("The upstream tool answered with a Quiver outcome envelope that is not"
                + " valid: " + why + "."));
    }
}
