package io.quiver.upstream.internal;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * The JSON-RPC side of a connection to an upstream server: numbered requests and their answers,
 * notifications both ways, progress by token, and the server's own requests. Once {@link Handshake}
 * has agreed on a revision, a stateless one (2026-07-28) puts the protocol version, the client's
 * identity and its capabilities into every request's {@code _meta}; a session revision has said them
 * once, in {@code initialize}.
 *
 * <p>The server's own requests ({@code elicitation/create}, {@code sampling/createMessage},
 * {@code roots/list}) go to the request of ours they belong to, when it registered a
 * {@link ServerRequests} handler (a {@code tools/call}, which passes them to the user who made the
 * call): the one whose response stream carried them (HTTP), else the only such request in flight. A
 * request that belongs to none is refused with a JSON-RPC error; {@code ping} is answered.
 */
final class McpClient implements Connection.Listener {

    /** The session revisions Quiver's client speaks, newest first. */
    static final List<String> SESSION_VERSIONS = List.of("2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05");
    /** The stateless revisions it speaks (per-request {@code _meta}, no {@code initialize}), newest first. */
    static final List<String> STATELESS_VERSIONS = List.of("2026-07-28");

    static final String META_VERSION = "io.modelcontextprotocol/protocolVersion";
    static final String META_CAPABILITIES = "io.modelcontextprotocol/clientCapabilities";
    static final String META_CLIENT = "io.modelcontextprotocol/clientInfo";

    /** The methods a server asks its client with; the capability each needs. */
    static final Map<String, String> SERVER_REQUESTS = Map.of("elicitation/create", "elicitation",
            "sampling/createMessage", "sampling", "roots/list", "roots");

    static final JsonMapper JSON = JsonMapper.builder().build();

    /** A JSON-RPC error the server answered. */
    static final class RpcError extends Exception {
        private static final long serialVersionUID = 1L;
        final int code;
        final transient JsonNode data;

        RpcError(int code, String message, JsonNode data) {
            super(message, null, false, false);
            this.code = code;
            this.data = data;
        }

        RpcError(int code, String message) {
            this(code, message, null);
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

    /** Takes the server's requests made while one request of ours is in flight; answers them with {@link #respond}. */
    interface ServerRequests {
        void request(JsonNode id, String method, ObjectNode params);
    }

    private final Connection connection;
    private final Events events;
    private final ObjectNode clientInfo;
    private final ObjectNode capabilities;
    private final AtomicLong ids = new AtomicLong();
    private final Map<Long, CompletableFuture<JsonNode>> pending = new ConcurrentHashMap<>();
    private final Map<Long, ServerRequests> askers = new ConcurrentHashMap<>();
    private final Map<String, Consumer<JsonNode>> progress = new ConcurrentHashMap<>();
    private volatile String endedWhy;
    private volatile String protocolVersion;
    private volatile boolean stateless;

    /**
     * @param clientInfo the {@code Implementation} Quiver's client introduces itself with
     * @param capabilities what it declares in {@code initialize}, and in a stateless revision's requests
     *     unless a request declares its own
     */
    McpClient(Connection connection, Events events, ObjectNode clientInfo, ObjectNode capabilities) {
        this.connection = connection;
        this.events = events;
        this.clientInfo = clientInfo.deepCopy();
        this.capabilities = capabilities.deepCopy();
    }

    /** Quiver's client as it introduces itself ({@code name} and {@code version}, what every revision has). */
    static ObjectNode implementation(String version) {
        return JSON.createObjectNode().put("name", "quiver").put("version", version);
    }

    Connection connection() {
        return connection;
    }

    ObjectNode clientInfo() {
        return clientInfo.deepCopy();
    }

    ObjectNode capabilities() {
        return capabilities.deepCopy();
    }

    /** From now on requests are made in this stateless revision (each carries its {@code _meta}). */
    void stateless(String version) {
        protocolVersion = version;
        stateless = true;
    }

    /** The session revision {@code initialize} agreed on. */
    void session(String version) {
        protocolVersion = version;
        stateless = false;
    }

    boolean isStateless() {
        return stateless;
    }

    /** The revision agreed on, or null before. */
    String protocolVersion() {
        return protocolVersion;
    }

    /** The request metadata of a stateless revision: its version, the client and what it declares. */
    static ObjectNode statelessMeta(ObjectNode meta, String version, ObjectNode clientInfo, ObjectNode capabilities) {
        meta.put(META_VERSION, version);
        if (!meta.has(META_CLIENT)) {
            meta.set(META_CLIENT, clientInfo.deepCopy());
        }
        if (!meta.has(META_CAPABILITIES)) {
            meta.set(META_CAPABILITIES, capabilities.deepCopy());
        }
        return meta;
    }

    /** Sends a request; the future completes with its result, or {@link RpcError} or {@link Lost}. */
    Request request(String method, ObjectNode params) {
        return request(method, params, Map.of(), null);
    }

    /**
     * Sends a request.
     *
     * @param headers transport headers of this request alone (HTTP's {@code Mcp-Param-*})
     * @param asker takes the server's own requests made while this one is in flight, or null
     */
    Request request(String method, ObjectNode params, Map<String, String> headers, ServerRequests asker) {
        long id = ids.incrementAndGet();
        CompletableFuture<JsonNode> answer = new CompletableFuture<>();
        pending.put(id, answer);
        if (asker != null) {
            askers.put(id, asker);
        }
        String version = protocolVersion;
        if (stateless && version != null) {
            if (params == null) {
                params = JSON.createObjectNode();
            }
            JsonNode meta = params.get("_meta");
            statelessMeta(meta instanceof ObjectNode m ? m : params.putObject("_meta"), version, clientInfo, capabilities);
        }
        ObjectNode message = JSON.createObjectNode().put("jsonrpc", "2.0").put("id", id).put("method", method);
        if (params != null) {
            message.set("params", params);
        }
        Request request = new Request(id, answer);
        String ended = endedWhy;
        if (ended != null) {
            forget(id);
            answer.completeExceptionally(new Lost(ended));
            return request;
        }
        try {
            connection.send(message, headers);
        } catch (IOException e) {
            forget(id);
            answer.completeExceptionally(new Lost(e.getMessage()));
        }
        return request;
    }

    /** A request in flight. */
    record Request(long id, CompletableFuture<JsonNode> answer) {
    }

    void notify(String method, ObjectNode params) {
        ObjectNode message = JSON.createObjectNode().put("jsonrpc", "2.0").put("method", method);
        if (params != null) {
            message.set("params", params);
        }
        send(message);
    }

    /** Answers one of the server's requests. */
    void respond(JsonNode id, JsonNode result) {
        ObjectNode answer = JSON.createObjectNode().put("jsonrpc", "2.0");
        answer.set("id", id);
        answer.set("result", result);
        send(answer);
    }

    /** Refuses one of the server's requests. */
    void respondError(JsonNode id, int code, String message) {
        ObjectNode answer = JSON.createObjectNode().put("jsonrpc", "2.0");
        answer.set("id", id);
        answer.putObject("error").put("code", code).put("message", message);
        send(answer);
    }

    private void send(ObjectNode message) {
        try {
            connection.send(message);
        } catch (IOException e) {
            // the connection is gone; its end is reported separately
        }
    }

    /**
     * Tells the server a request is no longer wanted and forgets it: a stateless revision over HTTP
     * closes the request's stream (that is its cancellation there), anything else sends
     * {@code notifications/cancelled}.
     */
    void cancel(Request request, String reason) {
        if (forget(request.id()) != null) {
            boolean streamClosed = connection.abandon(JSON.getNodeFactory().numberNode(request.id()));
            if (!(stateless && streamClosed)) {
                notify("notifications/cancelled", JSON.createObjectNode().put("requestId", request.id()).put("reason", reason));
            }
            request.answer().cancel(false);
        }
    }

    private CompletableFuture<JsonNode> forget(long id) {
        askers.remove(id);
        return pending.remove(id);
    }

    /** Routes {@code notifications/progress} carrying the token to the consumer, until removed. */
    void onProgress(String token, Consumer<JsonNode> consumer) {
        progress.put(token, consumer);
    }

    void forgetProgress(String token) {
        progress.remove(token);
    }

    @Override
    public void message(ObjectNode message, JsonNode relatedTo) {
        JsonNode method = message.get("method");
        JsonNode id = message.get("id");
        if (method != null && method.isString()) {
            if (id != null && !id.isNull()) {
                serverRequest(id, method.asString(), message.get("params"), relatedTo);
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
        askers.remove(id.asLong());
        CompletableFuture<JsonNode> answer = pending.remove(id.asLong());
        if (answer == null) {
            return;
        }
        JsonNode error = message.get("error");
        if (error != null && error.isObject()) {
            answer.completeExceptionally(new RpcError(error.path("code").asInt(-32603),
                    error.path("message").asString("the server answered an error"), error.get("data")));
        } else {
            answer.complete(message.has("result") ? message.get("result") : JSON.createObjectNode());
        }
    }

    /**
     * One of the server's requests: {@code ping} is answered; the input requests go to the request of
     * ours they belong to; the rest, and input requests that belong to none, are refused.
     */
    private void serverRequest(JsonNode id, String method, JsonNode params, JsonNode relatedTo) {
        if ("ping".equals(method)) {
            respond(id, JSON.createObjectNode());
            return;
        }
        String capability = SERVER_REQUESTS.get(method);
        if (capability == null) {
            respondError(id, -32601, "Quiver's client does not offer " + method + " to upstream servers");
            return;
        }
        ServerRequests asker = asker(relatedTo);
        if (asker != null) {
            asker.request(id, method, params instanceof ObjectNode o ? o : JSON.createObjectNode());
        } else if (!capabilities.has(capability)) {
            respondError(id, -32601, "Quiver's client did not declare the " + capability + " capability: it does not"
                    + " offer " + method + " to upstream servers");
        } else {
            respondError(id, -32603, "Quiver passes " + method + " on to the user of a tool call, from within that"
                    + " call; this request belongs to no call in flight (or to one of several it cannot tell apart)");
        }
    }

    /** The request a server request belongs to: the one whose stream carried it, else the only one that asks. */
    private ServerRequests asker(JsonNode relatedTo) {
        if (relatedTo != null && relatedTo.canConvertToLong()) {
            return askers.get(relatedTo.asLong());
        }
        Set<Long> inFlight = askers.keySet();
        if (inFlight.size() == 1) {
            for (Long only : inFlight) {
                return askers.get(only);
            }
        }
        return null;
    }

    @Override
    public void closed(String why, boolean clean) {
        endedWhy = why;
        for (Long id : List.copyOf(pending.keySet())) {
            CompletableFuture<JsonNode> answer = forget(id);
            if (answer != null) {
                answer.completeExceptionally(new Lost(why));
            }
        }
        events.closed(why, clean);
    }
}
