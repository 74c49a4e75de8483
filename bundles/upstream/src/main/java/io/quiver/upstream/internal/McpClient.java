package io.quiver.upstream.internal;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * The JSON-RPC side of a connection to an upstream server: numbered requests and their answers,
 * notifications both ways, progress by token, and the server's own requests, which Quiver refuses
 * cleanly (it declares no client capabilities, so a well-behaved server sends none).
 */
final class McpClient implements Connection.Listener {

    /** The session revisions Quiver's client speaks, newest first; it offers the first. */
    static final List<String> VERSIONS = List.of("2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05");

    static final JsonMapper JSON = JsonMapper.builder().build();

    /** A JSON-RPC error the server answered. */
    static final class RpcError extends Exception {
        private static final long serialVersionUID = 1L;
        final int code;

        RpcError(int code, String message) {
            super(message, null, false, false);
            this.code = code;
        }
    }

    /** The connection ended before the answer came. */
    static final class Lost extends Exception {
        private static final long serialVersionUID = 1L;

        Lost(String why) {
            super(why, null, false, false);
        }
    }

    /** What the client tells its owner. */
    interface Events {
        void notification(String method, JsonNode params);

        void closed(String why, boolean clean);
    }

    private final Connection connection;
    private final Events events;
    private final AtomicLong ids = new AtomicLong();
    private final Map<Long, CompletableFuture<JsonNode>> pending = new ConcurrentHashMap<>();
    private final Map<String, Consumer<JsonNode>> progress = new ConcurrentHashMap<>();
    private volatile String endedWhy;

    McpClient(Connection connection, Events events) {
        this.connection = connection;
        this.events = events;
    }

    /** Sends a request; the future completes with its result, or {@link RpcError} or {@link Lost}. */
    Request request(String method, ObjectNode params) {
        long id = ids.incrementAndGet();
        CompletableFuture<JsonNode> answer = new CompletableFuture<>();
        pending.put(id, answer);
        ObjectNode message = JSON.createObjectNode().put("jsonrpc", "2.0").put("id", id).put("method", method);
        if (params != null) {
            message.set("params", params);
        }
        String ended = endedWhy;
        if (ended != null) {
            pending.remove(id);
            answer.completeExceptionally(new Lost(ended));
            return new Request(id, answer);
        }
        try {
            connection.send(message);
        } catch (IOException e) {
            pending.remove(id);
            answer.completeExceptionally(new Lost(e.getMessage()));
        }
        return new Request(id, answer);
    }

    /** A request in flight. */
    record Request(long id, CompletableFuture<JsonNode> answer) {
    }

    void notify(String method, ObjectNode params) {
        ObjectNode message = JSON.createObjectNode().put("jsonrpc", "2.0").put("method", method);
        if (params != null) {
            message.set("params", params);
        }
        try {
            connection.send(message);
        } catch (IOException e) {
            // the connection is gone; its end is reported separately
        }
    }

    /** Tells the server a request is no longer wanted and forgets it. */
    void cancel(Request request, String reason) {
        if (pending.remove(request.id()) != null) {
            notify("notifications/cancelled", JSON.createObjectNode().put("requestId", request.id()).put("reason", reason));
            request.answer().cancel(false);
        }
    }

    /** Routes {@code notifications/progress} carrying the token to the consumer, until removed. */
    void onProgress(String token, Consumer<JsonNode> consumer) {
        progress.put(token, consumer);
    }

    void forgetProgress(String token) {
        progress.remove(token);
    }

    @Override
    public void message(ObjectNode message) {
        JsonNode method = message.get("method");
        JsonNode id = message.get("id");
        if (method != null && method.isString()) {
            if (id != null && !id.isNull()) {
                refuse(id, method.asString());
            } else if ("notifications/progress".equals(method.asString())) {
                JsonNode params = message.path("params");
                Consumer<JsonNode> consumer = progress.get(params.path("progressToken").asString(""));
                if (consumer != null) {
                    consumer.accept(params);
                }
            } else {
                events.notification(method.asString(), message.get("params"));
            }
            return;
        }
        if (id == null || !id.canConvertToLong()) {
            return;
        }
        CompletableFuture<JsonNode> answer = pending.remove(id.asLong());
        if (answer == null) {
            return;
        }
        JsonNode error = message.get("error");
        if (error != null && error.isObject()) {
            answer.completeExceptionally(new RpcError(error.path("code").asInt(-32603),
                    error.path("message").asString("the server answered an error")));
        } else {
            answer.complete(message.has("result") ? message.get("result") : JSON.createObjectNode());
        }
    }

    /** The server's own requests: {@code ping} is answered, anything else refused with -32601. */
    private void refuse(JsonNode id, String method) {
        ObjectNode answer = JSON.createObjectNode().put("jsonrpc", "2.0");
        answer.set("id", id);
        if ("ping".equals(method)) {
            answer.putObject("result");
        } else {
            answer.putObject("error").put("code", -32601).put("message",
                    "Quiver's client does not offer " + method + " to upstream servers");
        }
        try {
            connection.send(answer);
        } catch (IOException e) {
            // gone
        }
    }

    @Override
    public void closed(String why, boolean clean) {
        endedWhy = why;
        for (Long id : List.copyOf(pending.keySet())) {
            CompletableFuture<JsonNode> answer = pending.remove(id);
            if (answer != null) {
                answer.completeExceptionally(new Lost(why));
            }
        }
        events.closed(why, clean);
    }
}
