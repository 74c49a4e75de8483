package io.quiver.core.internal.request;

import io.quiver.api.CallerIdentity;
import io.quiver.api.ClientInfo;
import io.quiver.api.LogLevel;
import io.quiver.api.transport.McpSession;
import io.quiver.api.transport.MessageSink;
import io.quiver.api.transport.StreamPolicy;
import io.quiver.core.internal.messages.ProtocolVersions;
import io.quiver.core.internal.rpc.JsonRpc;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import tools.jackson.databind.JsonNode;

/** The state of one session: negotiated revision, client, log level, requests in flight (its resource subscriptions are the engine's ResourceWatches). */
public final class Session implements McpSession {

    private final String id;
    private final Era era;
    /** Who the session's latest request proved to be: the same principal throughout, its roles as its credential says now. */
    private volatile CallerIdentity caller;
    private final String address;
    private final Consumer<Session> onEnd;
    private final AtomicReference<MessageSink> stream = new AtomicReference<>();
    private final Map<String, InFlight> inflight = new ConcurrentHashMap<>();
    private final Map<String, CompletableFuture<JsonNode>> clientRequests = new ConcurrentHashMap<>();
    private final AtomicLong clientRequestIds = new AtomicLong();
    private final List<Runnable> closeActions = new CopyOnWriteArrayList<>();

    private volatile String protocolVersion = ProtocolVersions.LATEST_SESSION;
    private volatile ClientInfo client = new ClientInfo("unknown", "", Map.of());
    private volatile LogLevel logLevel;
    private volatile boolean open = true;
    private volatile long lastActivity = System.nanoTime();
    /** Whether the client sent anything after its initialize. */
    private volatile boolean heardFrom;
    private volatile boolean initialized;

    Session(String id, Era era, CallerIdentity caller, String address, Consumer<Session> onEnd) {
        this.id = id;
        this.era = era;
        this.caller = caller;
        this.address = address;
        this.onEnd = onEnd;
    }

    /** The client address the session was opened from (empty when unknown). */
    public String address() {
        return address;
    }

    @Override
    public String id() {
        return id;
    }

    @Override
    public String protocolVersion() {
        return protocolVersion;
    }

    @Override
    public CallerIdentity caller() {
        return caller;
    }

    /**
     * Takes the caller a request of this session was authenticated as (the same principal: {@link
     * CallerIdentity#samePrincipal}), so that its roles are those its credential carries now: a role taken away
     * from a key, or a narrower token, applies from the session's next request, not from its next session.
     */
    public void authenticatedAs(CallerIdentity now) {
        if (now != null && now.authenticated() && caller.samePrincipal(now) && !caller.equals(now)) {
            caller = now;
        }
    }

    @Override
    public StreamPolicy streamPolicy() {
        return era.streamPolicy(protocolVersion);
    }

    public ClientInfo client() {
        return client;
    }

    /** Records what {@code initialize} negotiated. */
    public void initialize(String version, ClientInfo clientInfo) {
        this.protocolVersion = version;
        this.client = clientInfo;
        this.initialized = true;
    }

    /** Whether an {@code initialize} has negotiated the session. */
    public boolean initialized() {
        return initialized;
    }

    /** The minimum level of log messages the client wants, or {@code null} for all. */
    public LogLevel logLevel() {
        return logLevel;
    }

    public void logLevel(LogLevel level) {
        this.logLevel = level;
    }

    /** Requests being served. */
    public int inflight() {
        return inflight.size();
    }

    /** Milliseconds since the last message. */
    public long idleMillis() {
        return (System.nanoTime() - lastActivity) / 1_000_000L;
    }

    /** A message from the client arrived. */
    public void touch() {
        lastActivity = System.nanoTime();
        heardFrom = true;
    }

    /** Whether the session saw no traffic for {@code idleNanos} and has nothing in flight or attached. */
    public boolean idleFor(long idleNanos) {
        return inflight.isEmpty() && stream.get() == null && System.nanoTime() - lastActivity > idleNanos;
    }

    /** Whether the client sent nothing since its initialize, {@code nanos} ago or longer. */
    public boolean silentSinceInitializeFor(long nanos) {
        return !heardFrom && inflight.isEmpty() && stream.get() == null && System.nanoTime() - lastActivity > nanos;
    }

    // --- requests in flight --------------------------------------------------------------------

    /**
     * Registers a request in flight under its id; false when the session has ended or a request
     * with the same id is still in flight (JSON-RPC ids are unique among outstanding requests).
     */
    public boolean register(String requestKey, InFlight request) {
        return open && inflight.putIfAbsent(requestKey, request) == null;
    }

    public void unregister(String requestKey, InFlight request) {
        inflight.remove(requestKey, request);
    }

    /** Cancels a request in flight; false when there is none with that id. */
    public boolean cancel(String requestKey) {
        InFlight request = inflight.get(requestKey);
        if (request == null) {
            return false;
        }
        request.cancel();
        return true;
    }

    // --- server-to-client requests -------------------------------------------------------------

    /** Allocates an id and a future for a request to the client. */
    public String newClientRequest(CompletableFuture<JsonNode> future) {
        String requestId = "quiver-" + clientRequestIds.incrementAndGet();
        clientRequests.put(requestId, future);
        return requestId;
    }

    public void forgetClientRequest(String requestId) {
        clientRequests.remove(requestId);
    }

    /** A response from the client; false when nothing waits for it. */
    public boolean completeClientRequest(String requestId, JsonNode result, JsonNode error) {
        CompletableFuture<JsonNode> future = clientRequests.remove(requestId);
        if (future == null) {
            return false;
        }
        if (error != null) {
            future.completeExceptionally(new ClientError(error));
        } else {
            future.complete(result);
        }
        return true;
    }

    // --- the session stream --------------------------------------------------------------------

    @Override
    public AutoCloseable attach(MessageSink sink) {
        if (!open || !stream.compareAndSet(null, sink)) {
            return null;
        }
        touch();
        return () -> {
            stream.compareAndSet(sink, null);
            touch();
        };
    }

    @Override
    public boolean hasStream() {
        return stream.get() != null;
    }

    /**
     * Ends the session stream with a last message (the server is stopping); the session itself
     * stays until it is closed.
     */
    public void endStream(byte[] last) {
        MessageSink sink = stream.getAndSet(null);
        if (sink != null) {
            sink.send(last);
            sink.complete(null);
        }
    }

    /** Sends a notification on the session stream; dropped when no stream is attached. */
    public void notify(String method, Object params) {
        MessageSink sink = stream.get();
        if (sink != null && open) {
            sink.send(JsonRpc.notification(method, params));
        }
    }

    // --- lifecycle -----------------------------------------------------------------------------

    @Override
    public void close() {
        if (!open) {
            return;
        }
        open = false;
        inflight.values().forEach(InFlight::cancel);
        clientRequests.values().forEach(f -> f.cancel(true));
        clientRequests.clear();
        stream.set(null);
        onEnd.accept(this);
        closeActions.forEach(Runnable::run);
    }

    @Override
    public boolean isOpen() {
        return open;
    }

    @Override
    public void onClose(Runnable action) {
        closeActions.add(action);
        if (!open && closeActions.remove(action)) {
            action.run();
        }
    }

    /** A JSON-RPC error the client answered a server request with; its message is the client's. */
    static final class ClientError extends RuntimeException {
        private static final long serialVersionUID = 1L;

        ClientError(JsonNode error) {
            super(error.path("message").asString("client error"), null, false, false);
        }
    }
}
