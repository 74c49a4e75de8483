package io.quiver.launcher;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Several clients (the Quiver containers attached to a {@link SharedUpstream}) over one MCP connection:
 * the JSON-RPC routing, without the process.
 *
 * <ul>
 * <li>A request of an attachment goes out under an id of the connection's own ({@link #wireId}), its
 *     {@code _meta.progressToken} under a token of the connection's own; the response, and the progress
 *     notifications of that token, come back to that attachment with its own id and token.
 *     {@code notifications/cancelled} of an attachment names the request by the connection's id.</li>
 * <li>The server's notifications go to every attachment (a changed tool list concerns them all).</li>
 * <li>The server's {@code ping} and {@code roots/list} are answered here (roots: the host's, given to the
 *     {@link SharedUpstream}); {@code elicitation/create} and {@code sampling/createMessage} go to the one
 *     attachment with a {@code tools/call} in flight, and are refused with a JSON-RPC error when none or
 *     several have (which caller asked cannot be told apart over a shared stdio connection); anything
 *     else is refused as an unknown method.</li>
 * <li>An attachment that detaches has its requests in flight cancelled upstream, and the server's
 *     questions to it answered with an error; the connection goes on.</li>
 * <li>When the connection ends every attachment gets one last frame, not JSON-RPC:
 *     <code>{"quiver.closed": "why"}</code>, and the attachment is over.</li>
 * </ul>
 */
final class UpstreamMux {

    static final JsonMapper JSON = JsonMapper.builder().build();
    /** The member of the frame that tells an attachment the connection ended. */
    static final String CLOSED = "quiver.closed";
    /** JSON-RPC: internal error, method not found. */
    private static final int INTERNAL_ERROR = -32603;
    private static final int METHOD_NOT_FOUND = -32601;

    /** Where messages to the server go; throws when the connection is gone. */
    interface Wire {
        void send(ObjectNode message) throws IOException;
    }

    /** A request on the connection: an attachment's (with its own id and token) or the mux's own. */
    private record Pending(Attachment from, JsonNode id, String method, JsonNode token, String wireToken,
            CompletableFuture<JsonNode> own) {
    }

    private final String name;
    private final Wire wire;
    private final ArrayNode roots;
    private final Object lock = new Object();
    private long ids;
    private long attachments;
    private final Map<Long, Pending> pending = new ConcurrentHashMap<>();
    private final Map<String, Long> tokens = new ConcurrentHashMap<>();
    /** The server's own requests handed to an attachment, by their id as JSON text. */
    private final Map<String, Attachment> asked = new ConcurrentHashMap<>();
    private final List<Attachment> attached = new ArrayList<>();
    private volatile String ended;

    /**
     * @param name the upstream's name, for messages
     * @param roots the {@code Root}s ({@code uri}, optional {@code name}) {@code roots/list} answers with
     */
    UpstreamMux(String name, Wire wire, ArrayNode roots) {
        this.name = name;
        this.wire = wire;
        this.roots = roots.deepCopy();
    }

    /** One client over the connection; {@link #accept} takes its messages, {@link #close} detaches it. */
    final class Attachment implements Consumer<String>, AutoCloseable {
        private final long number;
        private final Consumer<String> receiver;
        /** Its requests in flight: its id as JSON text to the connection's id. */
        private final Map<String, Long> wireIds = new ConcurrentHashMap<>();
        private volatile boolean detached;

        private Attachment(long number, Consumer<String> receiver) {
            this.number = number;
            this.receiver = receiver;
        }

        /** One message of the client's (JSON text); throws {@link UncheckedIOException} when it cannot go out. */
        @Override
        public void accept(String message) {
            try {
                fromClient(this, message);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        /** Detaches: its requests in flight are cancelled upstream; the connection goes on. Idempotent. */
        @Override
        public void close() {
            detach(this);
        }

        boolean detached() {
            return detached;
        }

        private void deliver(JsonNode message) {
            if (!detached) {
                receiver.accept(JSON.writeValueAsString(message));
            }
        }

        @Override
        public String toString() {
            return "attachment " + number + " of " + name;
        }
    }

    /**
     * Attaches a client: the server's messages for it go to {@code receiver} as JSON text.
     *
     * @throws IOException when the connection has ended
     */
    Attachment attach(Consumer<String> receiver) throws IOException {
        synchronized (lock) {
            String why = ended;
            if (why != null) {
                throw new IOException("the shared upstream " + name + " is not running (" + why + ")");
            }
            Attachment a = new Attachment(++attachments, receiver);
            attached.add(a);
            return a;
        }
    }

    /** The attachments, in the order they came. */
    List<Attachment> attachments() {
        synchronized (lock) {
            return List.copyOf(attached);
        }
    }

    /** The connection's id of a request an attachment has in flight under its own id, or -1. */
    long wireId(Attachment a, JsonNode id) {
        Long wire = a.wireIds.get(key(id));
        return wire == null ? -1 : wire;
    }

    /** A request of the mux's own (the handshake's); the future fails when the server refuses it or the connection ends. */
    CompletableFuture<JsonNode> request(String method, ObjectNode params) {
        CompletableFuture<JsonNode> answer = new CompletableFuture<>();
        long id;
        synchronized (lock) {
            id = ++ids;
            pending.put(id, new Pending(null, null, method, null, null, answer));
        }
        ObjectNode message = JSON.createObjectNode().put("jsonrpc", "2.0").put("id", id).put("method", method);
        if (params != null) {
            message.set("params", params);
        }
        try {
            send(message);
        } catch (IOException e) {
            pending.remove(id);
            answer.completeExceptionally(e);
        }
        return answer;
    }

    /** A notification of the mux's own ({@code notifications/initialized}). */
    void notify(String method, ObjectNode params) throws IOException {
        ObjectNode message = JSON.createObjectNode().put("jsonrpc", "2.0").put("method", method);
        if (params != null) {
            message.set("params", params);
        }
        send(message);
    }

    private void send(ObjectNode message) throws IOException {
        String why = ended;
        if (why != null) {
            throw new IOException("the shared upstream " + name + " is not running (" + why + ")");
        }
        wire.send(message);
    }

    private void fromClient(Attachment from, String text) throws IOException {
        if (from.detached) {
            throw new IOException(from + " is detached");
        }
        JsonNode parsed;
        try {
            parsed = JSON.readTree(text);
        } catch (JacksonException e) {
            throw new IOException("not a JSON-RPC message: " + e.getOriginalMessage(), e);
        }
        if (!(parsed instanceof ObjectNode message)) {
            throw new IOException("not a JSON-RPC message: " + text);
        }
        JsonNode method = message.get("method");
        JsonNode id = message.get("id");
        if (method == null || !method.isString()) {
            // a response to one of the server's requests: its id is the server's own
            if (id != null) {
                asked.remove(key(id));
            }
            send(message);
            return;
        }
        if (id == null || id.isNull()) {
            clientNotification(from, method.asString(), message);
            return;
        }
        if ("initialize".equals(method.asString())) {
            // the host initialized the connection once; a client's initialize would start a second session
            from.deliver(error(id, INTERNAL_ERROR, "the host's shared connection to " + name + " is initialized"
                    + " already; its initialize result is the service's property"));
            return;
        }
        ObjectNode out = message.deepCopy();
        long wireId;
        String wireToken = null;
        JsonNode token = null;
        synchronized (lock) {
            wireId = ++ids;
            JsonNode meta = out.path("params").get("_meta");
            if (meta instanceof ObjectNode m && m.hasNonNull("progressToken")) {
                token = m.get("progressToken");
                wireToken = "quiver-shared-" + wireId;
                m.put("progressToken", wireToken);
                tokens.put(wireToken, wireId);
            }
            pending.put(wireId, new Pending(from, id, method.asString(), token, wireToken, null));
            from.wireIds.put(key(id), wireId);
        }
        out.put("id", wireId);
        try {
            send(out);
        } catch (IOException e) {
            forget(wireId);
            throw e;
        }
    }

    private void clientNotification(Attachment from, String method, ObjectNode message) throws IOException {
        switch (method) {
            case "notifications/initialized":
                return; // the host sent it once
            case "notifications/cancelled": {
                JsonNode requestId = message.path("params").get("requestId");
                Long wireId = requestId == null ? null : from.wireIds.get(key(requestId));
                if (wireId == null || forget(wireId) == null) {
                    return; // answered already, or never ours
                }
                ObjectNode out = message.deepCopy();
                ((ObjectNode) out.get("params")).put("requestId", wireId);
                send(out);
                return;
            }
            default:
                send(message);
        }
    }

    /** One message of the server's. */
    void fromServer(ObjectNode message) {
        JsonNode method = message.get("method");
        JsonNode id = message.get("id");
        if (method != null && method.isString()) {
            if (id != null && !id.isNull()) {
                serverRequest(id, method.asString(), message);
            } else {
                serverNotification(method.asString(), message);
            }
            return;
        }
        if (id == null || !id.canConvertToLong()) {
            return;
        }
        Pending p = forget(id.asLong());
        if (p == null) {
            return; // cancelled, or of an attachment gone
        }
        if (p.own() != null) {
            JsonNode error = message.get("error");
            if (error != null && error.isObject()) {
                p.own().completeExceptionally(new IOException(p.method() + ": the server answered error "
                        + error.path("code").asInt() + ": " + error.path("message").asString("")));
            } else {
                p.own().complete(message.has("result") ? message.get("result") : JSON.createObjectNode());
            }
            return;
        }
        ObjectNode back = message.deepCopy();
        back.set("id", p.id());
        p.from().deliver(back);
    }

    private void serverNotification(String method, ObjectNode message) {
        if ("notifications/progress".equals(method)) {
            JsonNode token = message.path("params").get("progressToken");
            Long wireId = token == null ? null : tokens.get(token.asString(""));
            Pending p = wireId == null ? null : pending.get(wireId);
            if (p != null && p.from() != null) {
                ObjectNode back = message.deepCopy();
                ((ObjectNode) back.get("params")).set("progressToken", p.token());
                p.from().deliver(back);
            }
            return;
        }
        if ("notifications/cancelled".equals(method)) {
            // the server gives up one of its own requests: it goes to the attachment that has it
            JsonNode requestId = message.path("params").get("requestId");
            Attachment to = requestId == null ? null : asked.remove(key(requestId));
            if (to != null) {
                to.deliver(message);
            }
            return;
        }
        for (Attachment a : attachments()) {
            a.deliver(message);
        }
    }

    private void serverRequest(JsonNode id, String method, ObjectNode message) {
        switch (method) {
            case "ping" -> answer(id, JSON.createObjectNode());
            case "roots/list" -> {
                ObjectNode result = JSON.createObjectNode();
                result.set("roots", roots.deepCopy());
                answer(id, result);
            }
            case "elicitation/create", "sampling/createMessage" -> {
                List<Attachment> calling = new ArrayList<>();
                for (Pending p : pending.values()) {
                    if (p.from() != null && "tools/call".equals(p.method()) && !calling.contains(p.from())) {
                        calling.add(p.from());
                    }
                }
                if (calling.size() != 1) {
                    refuse(id, INTERNAL_ERROR, method + " over the host's shared connection to " + name + ": it cannot"
                            + " tell which caller asked (" + (calling.isEmpty() ? "no Quiver container has"
                            : calling.size() + " Quiver containers have") + " a tool call in flight; it passes the"
                            + " request on only when exactly one has)");
                    return;
                }
                Attachment to = calling.get(0);
                asked.put(key(id), to);
                to.deliver(message);
            }
            default -> refuse(id, METHOD_NOT_FOUND, "the host's shared connection does not offer " + method);
        }
    }

    private void answer(JsonNode id, JsonNode result) {
        ObjectNode message = JSON.createObjectNode().put("jsonrpc", "2.0");
        message.set("id", id);
        message.set("result", result);
        quietly(message);
    }

    private void refuse(JsonNode id, int code, String text) {
        quietly(error(id, code, text));
    }

    private void quietly(ObjectNode message) {
        try {
            send(message);
        } catch (IOException e) {
            // the connection is gone; its end is reported separately
        }
    }

    private static ObjectNode error(JsonNode id, int code, String text) {
        ObjectNode message = JSON.createObjectNode().put("jsonrpc", "2.0");
        message.set("id", id);
        message.putObject("error").put("code", code).put("message", text);
        return message;
    }

    private Pending forget(long wireId) {
        Pending p = pending.remove(wireId);
        if (p != null) {
            if (p.wireToken() != null) {
                tokens.remove(p.wireToken());
            }
            if (p.from() != null) {
                p.from().wireIds.remove(key(p.id()));
            }
        }
        return p;
    }

    private void detach(Attachment a) {
        synchronized (lock) {
            if (a.detached) {
                return;
            }
            a.detached = true;
            attached.remove(a);
        }
        for (Map.Entry<Long, Pending> e : List.copyOf(pending.entrySet())) {
            if (e.getValue().from() == a && forget(e.getKey()) != null) {
                ObjectNode params = JSON.createObjectNode().put("requestId", e.getKey())
                        .put("reason", "the Quiver container that made the request detached from the shared connection");
                try {
                    notify("notifications/cancelled", params);
                } catch (IOException gone) {
                    return;
                }
            }
        }
        for (Map.Entry<String, Attachment> e : List.copyOf(asked.entrySet())) {
            if (e.getValue() == a && asked.remove(e.getKey()) != null) {
                refuse(JSON.readTree(e.getKey()), INTERNAL_ERROR, "the Quiver container this request went to"
                        + " detached from the shared connection");
            }
        }
    }

    /** The connection ended: every attachment is told (and is over), the mux's own requests fail. */
    void end(String why) {
        List<Attachment> was;
        synchronized (lock) {
            if (ended != null) {
                return;
            }
            ended = why;
            was = List.copyOf(attached);
            attached.clear();
        }
        for (Long id : List.copyOf(pending.keySet())) {
            Pending p = forget(id);
            if (p != null && p.own() != null) {
                p.own().completeExceptionally(new IOException(why));
            }
        }
        asked.clear();
        ObjectNode frame = JSON.createObjectNode().put(CLOSED, why);
        for (Attachment a : was) {
            try {
                a.deliver(frame);
            } finally {
                a.detached = true;
            }
        }
    }

    /** Why the connection ended, or null while it runs. */
    String ended() {
        return ended;
    }

    private static String key(JsonNode id) {
        return JSON.writeValueAsString(id);
    }
}
