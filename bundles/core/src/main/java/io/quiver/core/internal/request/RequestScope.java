package io.quiver.core.internal.request;

import io.quiver.api.CallerIdentity;
import io.quiver.api.ClientInfo;
import io.quiver.api.LogLevel;
import io.quiver.api.RequestContext;
import io.quiver.api.transport.MessageSink;
import io.quiver.core.internal.json.Json;
import io.quiver.core.internal.messages.ProtocolVersions;
import io.quiver.core.internal.messages.Result;
import io.quiver.core.internal.rpc.ErrorCodes;
import io.quiver.core.internal.rpc.JsonRpc;
import io.quiver.core.internal.rpc.McpException;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * One request being served: the per-request context handlers and tools see. Interim messages go to
 * the request's own sink (the POST stream), so they reach the client before the response.
 */
public final class RequestScope implements RequestContext {

    /** The prefix of the protocol's own {@code _meta} keys, which {@link #meta()} leaves out. */
    private static final String PROTOCOL_KEYS = "io.modelcontextprotocol/";

    private final Era era;
    private final Session session;
    /** The revision whose progress notifications first carry a message. */
    private static final String PROGRESS_MESSAGE = "2025-03-26";
    private final Peer peer;
    private final JsonNode requestId;
    private final ObjectNode params;
    private final MessageSink sink;
    private final String invocationId;
    private final JsonNode progressToken;
    private final List<Runnable> cancelActions = new CopyOnWriteArrayList<>();
    private volatile boolean cancelled;
    private volatile String stopped;
    /**
     * While the request runs on its transport's thread (see {@code Exchange.run}): how to answer it
     * from another thread (a tool that overran its timeout holds this one); else null.
     */
    private volatile Consumer<Result> responder;

    /** @param session the request's session, or {@code null} in the stateless era */
    public RequestScope(Era era, Session session, Peer peer, JsonNode requestId, ObjectNode params, MessageSink sink) {
        this(era, session, peer, requestId, params, sink, InvocationIds.next());
    }

    private RequestScope(Era era, Session session, Peer peer, JsonNode requestId, ObjectNode params, MessageSink sink,
            String invocationId) {
        this.invocationId = invocationId;
        this.era = era;
        this.session = session;
        this.peer = peer;
        this.requestId = requestId;
        this.params = params;
        this.sink = sink;
        JsonNode token = params.path("_meta").get("progressToken");
        this.progressToken = token != null && (token.isString() || token.isIntegralNumber()) ? token : null;
    }

    /**
     * The request's session: there is one in the session era (whose methods {@code initialize},
     * {@code logging/setLevel} and the subscriptions work on it), none in the stateless era.
     */
    public Session session() {
        return session;
    }

    /** The era the request belongs to: what differs between the protocol eras, it decides. */
    public Era era() {
        return era;
    }

    public Peer peer() {
        return peer;
    }

    /**
     * A scope for work that outlives the request (a task): same invocation, caller, client and
     * arguments, but its own cancellation and no stream (tasks send no progress or log messages).
     */
    public RequestScope detached() {
        return new RequestScope(era, null, peer, requestId, params, new MessageSink() {
            @Override
            public void send(byte[] message) {
            }

            @Override
            public void complete(byte[] response) {
            }
        }, invocationId);
    }

    /** Where this request's messages go. */
    public MessageSink sink() {
        return sink;
    }

    public JsonNode requestId() {
        return requestId;
    }

    public ObjectNode params() {
        return params;
    }

    @Override
    public String invocationId() {
        return invocationId;
    }

    @Override
    public CallerIdentity caller() {
        return peer.caller();
    }

    @Override
    public ClientInfo client() {
        return peer.client();
    }

    @Override
    public String protocolVersion() {
        return peer.protocolVersion();
    }

    @Override
    public void progress(double progress, Double total, String message) {
        if (progressToken == null || cancelled) {
            return;
        }
        Map<String, Object> p = new LinkedHashMap<>();
        p.put("progressToken", progressToken);
        p.put("progress", progress);
        if (total != null) {
            p.put("total", total);
        }
        if (message != null && ProtocolVersions.atLeast(peer.protocolVersion(), PROGRESS_MESSAGE)) {
            p.put("message", message);
        }
        sink.send(JsonRpc.notification("notifications/progress", p));
    }

    @Override
    public void log(LogLevel level, String logger, Object data) {
        if (cancelled) {
            return;
        }
        LogLevel least = peer.logLevel();
        if (least == null ? !era.logsUnasked() : level.compareTo(least) < 0) {
            return;
        }
        Map<String, Object> p = new LinkedHashMap<>();
        p.put("level", level.wireName());
        if (logger != null) {
            p.put("logger", logger);
        }
        p.put("data", data == null ? "" : data);
        sink.send(JsonRpc.notification("notifications/message", p));
    }

    /** Whether the request runs on its transport's thread, which may wait for a tool to finish. */
    public boolean inline() {
        return responder != null;
    }

    /**
     * The request runs on its transport's thread from now on ({@code answer}: how to answer it from
     * another thread), or no longer ({@code null}).
     */
    public void inline(Consumer<Result> answer) {
        this.responder = answer;
    }

    /**
     * Answers an inline request now, from whatever thread (a watchdog taking over a call whose thread
     * is stuck in a tool); {@code null} for a cancelled request. What the serving thread returns later
     * is not sent.
     */
    public void respond(Result result) {
        Consumer<Result> answer = responder;
        if (answer != null) {
            answer.accept(result);
        }
    }

    @Override
    public boolean isCancelled() {
        return cancelled || (session != null && !session.isOpen());
    }

    @Override
    @SuppressWarnings("unchecked")
    public Map<String, Object> meta() {
        JsonNode meta = params.get("_meta");
        if (meta == null || !meta.isObject()) {
            return Map.of();
        }
        Map<String, Object> out = new LinkedHashMap<>();
        meta.properties().forEach(e -> {
            String key = e.getKey();
            if (!key.equals("progressToken") && !key.startsWith(PROTOCOL_KEYS)) {
                out.put(key, Json.MAPPER.treeToValue(e.getValue(), Object.class));
            }
        });
        return Collections.unmodifiableMap(out);
    }

    /**
     * Ends the request from the server's side (the embedding host stopped its call): cancelled like a
     * client's cancellation, except that the client is answered, with {@code reason}
     * ({@link #stopped()}). The first reason stays.
     */
    public void stop(String reason) {
        synchronized (this) {
            if (stopped == null && !cancelled) {
                stopped = reason == null || reason.isBlank() ? "stopped" : reason;
            }
        }
        cancel();
    }

    /** Why the host stopped the request, or {@code null}: it was not stopped (it may be cancelled). */
    public String stopped() {
        return stopped;
    }

    /** Marks the request cancelled and runs the registered cancel actions. */
    public void cancel() {
        if (cancelled) {
            return;
        }
        cancelled = true;
        for (Runnable action : cancelActions) {
            action.run();
        }
    }

    /** Runs {@code action} when the request is cancelled (at once if it already is). */
    public AutoCloseable onCancel(Runnable action) {
        cancelActions.add(action);
        if (cancelled) {
            action.run();
        }
        return () -> cancelActions.remove(action);
    }

    /**
     * Sends a request to the client on this request's stream and waits for the answer.
     *
     * @throws CancellationException when the request is cancelled while waiting
     * @throws McpException when the client answers with an error or not in time
     */
    public JsonNode askClient(String clientMethod, Object clientParams, long timeoutMs) {
        if (!era.asksClient()) {
            throw new IllegalStateException("the " + era.name() + " sends no requests to the client");
        }
        CompletableFuture<JsonNode> answer = new CompletableFuture<>();
        String id = session.newClientRequest(answer);
        try (AutoCloseable hook = onCancel(() -> answer.cancel(false))) {
            sink.send(JsonRpc.request(id, clientMethod, clientParams));
            return answer.get(timeoutMs, TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            throw new McpException(ErrorCodes.INTERNAL_ERROR,
                    "The client did not answer " + clientMethod + " within " + timeoutMs + " ms");
        } catch (ExecutionException e) {
            if (e.getCause() instanceof Session.ClientError error) {
                throw new McpException(ErrorCodes.INTERNAL_ERROR,
                        "The client refused " + clientMethod + ": " + error.getMessage());
            }
            throw new McpException(ErrorCodes.INTERNAL_ERROR, "The client did not answer " + clientMethod);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CancellationException("interrupted");
        } catch (CancellationException e) {
            throw e;
        } catch (Exception e) {
            throw new McpException(ErrorCodes.INTERNAL_ERROR, "The client did not answer " + clientMethod);
        } finally {
            session.forgetClientRequest(id);
        }
    }
}
