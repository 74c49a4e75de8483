package io.quiver.core.internal.engine;

import io.quiver.api.transport.Exchange;
import io.quiver.api.transport.Inbound;
import io.quiver.api.transport.McpSession;
import io.quiver.api.transport.MessageSink;
import io.quiver.api.transport.Receipt;
import io.quiver.api.transport.Receipt.Reason;
import io.quiver.core.internal.catalog.Catalog;
import io.quiver.core.internal.handlers.Handlers;
import io.quiver.core.internal.pipeline.ToolLimitsRegistry;
import io.quiver.core.internal.pipeline.ToolPipeline;
import io.quiver.core.internal.rpc.ErrorCodes;
import io.quiver.core.internal.rpc.JsonRpc;
import io.quiver.core.internal.rpc.McpException;
import io.quiver.core.internal.rpc.Message;
import io.quiver.core.internal.rpc.RpcError;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The transport-neutral protocol engine: classifies each message, keeps sessions, dispatches
 * requests to one handler per method on its own threads, and fans catalog changes out.
 */
public final class Engine implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(Engine.class);

    private final Catalog catalog;
    private final EngineSettings settings;
    private final SessionRegistry sessions = new SessionRegistry();
    private final Listeners listeners = new Listeners();
    private final ExecutorService requestPool;
    private final ExecutorService toolPool;
    private final ExecutorService taskPool;
    private final ScheduledExecutorService timer;
    private final Map<String, MethodHandler> handlers;
    private final Map<String, MethodHandler> statelessHandlers;
    private final ListChangeNotifier listChanges;
    private final Consumer<Catalog.Kind> catalogListener;

    public Engine(Catalog catalog, EngineSettings settings) {
        this(catalog, settings, new ToolLimitsRegistry());
    }

    public Engine(Catalog catalog, EngineSettings settings, ToolLimitsRegistry limits) {
        this.catalog = catalog;
        this.settings = settings;
        this.requestPool = Pools.bounded("quiver-request", settings.maxConcurrentRequests(), settings.maxQueued());
        this.toolPool = Pools.bounded("quiver-tool", settings.maxConcurrentCalls(), settings.maxQueued());
        this.timer = Pools.timer("quiver-timer");
        this.taskPool = Pools.bounded("quiver-task", settings.maxConcurrentCalls(), settings.maxQueued());
        ToolPipeline pipeline = new ToolPipeline(catalog, toolPool, taskPool, settings, limits);
        this.handlers = Handlers.create(catalog, pipeline, settings);
        this.statelessHandlers = Handlers.createStateless(catalog, pipeline, settings, listeners);
        this.listChanges = new ListChangeNotifier(sessions, listeners, timer, settings.listChangedDebounceMs());
        this.catalogListener = listChanges::changed;
        catalog.addListener(catalogListener);
        long sweep = Math.max(1_000, Math.min(60_000, settings.sessionIdleTimeoutMs() / 4));
        timer.scheduleWithFixedDelay(() -> sessions.expireIdle(settings.sessionIdleTimeoutMs()),
                sweep, sweep, TimeUnit.MILLISECONDS);
    }

    public EngineSettings settings() {
        return settings;
    }

    public SessionRegistry sessions() {
        return sessions;
    }

    public List<String> supportedVersions() {
        return ProtocolVersions.ALL;
    }

    public Optional<McpSession> session(String id) {
        return Optional.ofNullable(sessions.get(id));
    }

    /** Classifies one inbound message; see {@link io.quiver.api.transport.McpEngine#receive}. */
    public Receipt receive(byte[] body, Inbound inbound) {
        JsonRpc.Parsed parsed = JsonRpc.parse(body);
        if (parsed instanceof JsonRpc.Parsed.Bad bad) {
            Reason reason = bad.code() == ErrorCodes.PARSE_ERROR ? Reason.PARSE_ERROR : Reason.INVALID_REQUEST;
            return reject(reason, bad.id(), bad.code(), bad.reason());
        }
        Message message = ((JsonRpc.Parsed.Ok) parsed).message();
        JsonNode id = message instanceof Message.Request r ? r.id() : null;
        ObjectNode params = message instanceof Message.Request r ? r.params()
                : message instanceof Message.Notification n ? n.params() : null;
        if (params != null && Stateless.claims(params, inbound)) {
            return receiveStateless(message, params, inbound);
        }
        if (inbound.protocolVersion() != null && !ProtocolVersions.isSupported(inbound.protocolVersion())) {
            return reject(Reason.UNSUPPORTED_VERSION, id, ErrorCodes.INVALID_REQUEST,
                    "Bad Request: unsupported protocol version " + inbound.protocolVersion()
                            + " (supported: " + String.join(", ", supportedVersions()) + ")");
        }
        if (message instanceof Message.Request request && "initialize".equals(request.method())) {
            if (inbound.sessionId() != null) {
                return reject(Reason.INVALID_REQUEST, id, ErrorCodes.INVALID_REQUEST,
                        "Invalid Request: initialize must not carry a session id");
            }
            Session session = sessions.create(inbound.caller());
            RequestExchange exchange = new RequestExchange(session, null, request);
            session.register(exchange.key, exchange);
            return new Receipt.Pending(session, exchange);
        }
        if (inbound.sessionId() == null) {
            return reject(Reason.SESSION_REQUIRED, id, ErrorCodes.INVALID_REQUEST,
                    "Bad Request: a session id is required (send initialize first)");
        }
        Session session = sessions.get(inbound.sessionId());
        if (session == null) {
            return reject(Reason.SESSION_NOT_FOUND, id, -32001, "Session not found");
        }
        session.touch();
        if (message instanceof Message.Notification notification) {
            onNotification(session, notification);
            return new Receipt.Accepted();
        }
        if (message instanceof Message.Response response) {
            if (!response.id().isString()
                    || !session.completeClientRequest(response.id().stringValue(), response.result(), response.error())) {
                LOG.debug("Session {}: dropped a response to unknown request {}", session.id(), response.id());
            }
            return new Receipt.Accepted();
        }
        RequestExchange exchange = new RequestExchange(session, null, (Message.Request) message);
        if (!session.register(exchange.key, exchange)) {
            return reject(Reason.INVALID_REQUEST, id, ErrorCodes.INVALID_REQUEST, "Invalid Request: the id " + id
                    + " belongs to a request of this session that is still in progress; ids must be unique");
        }
        return new Receipt.Pending(session, exchange);
    }

    /** A 2026-07-28 request: no session; checked, then served by the stateless method table. */
    private Receipt receiveStateless(Message message, ObjectNode params, Inbound inbound) {
        boolean request = message instanceof Message.Request;
        String method = request ? ((Message.Request) message).method() : ((Message.Notification) message).method();
        JsonNode id = request ? ((Message.Request) message).id() : null;
        Peer peer;
        try {
            peer = Stateless.admit(method, params, inbound, request);
        } catch (McpException e) {
            return new Receipt.Rejected(e.reason(), JsonRpc.error(id, e.toError()));
        }
        if (!request) {
            return new Receipt.Accepted();
        }
        if (Stateless.REMOVED.contains(method) || !statelessHandlers.containsKey(method)) {
            return reject(Reason.METHOD_NOT_FOUND, id, ErrorCodes.METHOD_NOT_FOUND, "Method not found: " + method);
        }
        return new Receipt.Pending(null, new RequestExchange(null, peer, (Message.Request) message));
    }

    private static Receipt reject(Reason reason, JsonNode id, int code, String text) {
        return new Receipt.Rejected(reason, JsonRpc.error(id, new RpcError(code, text, null)));
    }

    private void onNotification(Session session, Message.Notification notification) {
        switch (notification.method()) {
            case "notifications/initialized" -> session.markInitialized();
            case "notifications/cancelled" -> {
                JsonNode requestId = notification.params().get("requestId");
                if (requestId == null || !(requestId.isString() || requestId.isIntegralNumber())) {
                    LOG.debug("Session {}: ignored a cancellation without a valid requestId: {}", session.id(),
                            notification.params());
                } else if (!session.cancel(InFlight.key(requestId))) {
                    LOG.debug("Session {}: cancellation of unknown request {}", session.id(), requestId);
                }
            }
            default -> LOG.debug("Session {}: notification {}", session.id(), notification.method());
        }
    }

    /** Tells subscribed sessions that a resource changed. */
    public void resourceUpdated(String uri) {
        for (Session session : sessions.all()) {
            if (session.subscriptions().contains(uri)) {
                session.notify("notifications/resources/updated", Map.of("uri", uri));
            }
        }
        listeners.resourceUpdated(uri);
    }

    @Override
    public void close() {
        catalog.removeListener(catalogListener);
        listeners.closeAll(Map.of("name", settings.serverName(), "version", settings.serverVersion()));
        sessions.closeAll();
        timer.shutdownNow();
        requestPool.shutdownNow();
        toolPool.shutdownNow();
        taskPool.shutdownNow();
    }

    /** One request on its way through a handler. */
    private final class RequestExchange implements Exchange, InFlight {
        private final Session session;
        private final Peer peer;
        private final Message.Request request;
        /** The id's key in the session's requests in flight. */
        final String key;
        private volatile RequestScope scope;
        private volatile boolean cancelledEarly;

        /** A session request ({@code peer} null: taken from the session) or a stateless one ({@code session} null). */
        RequestExchange(Session session, Peer peer, Message.Request request) {
            this.session = session;
            this.peer = peer;
            this.request = request;
            this.key = InFlight.key(request.id());
        }

        @Override
        public String method() {
            return request.method();
        }

        @Override
        public String protocolVersion() {
            return session != null ? session.protocolVersion() : peer.protocolVersion();
        }

        @Override
        public void abandon() {
            RequestScope current = scope;
            if (current == null) {
                // never started: the transport refused it after all
                cancelledEarly = true;
                if (session != null) {
                    session.unregister(key, this);
                }
                return;
            }
            // Session-based revisions: a lost connection is not a cancellation; the response is
            // kept for resumption by the transport. Stateless: closing the stream cancels.
            if (session == null) {
                current.cancel();
            }
        }

        @Override
        public void cancel() {
            RequestScope current = scope;
            if (current == null) {
                cancelledEarly = true;
            } else {
                current.cancel();
            }
        }

        @Override
        public void start(MessageSink sink) {
            RequestScope scope = new RequestScope(session, peer != null ? peer : Peer.of(session), request.id(),
                    request.method(), request.params(), sink);
            this.scope = scope;
            if (cancelledEarly) {
                scope.cancel();
            }
            try {
                requestPool.execute(() -> run(scope, sink));
            } catch (RejectedExecutionException e) {
                if (session != null) {
                    session.unregister(key, this);
                }
                sink.complete(JsonRpc.error(request.id(),
                        new RpcError(ErrorCodes.INTERNAL_ERROR, "Server busy: too many requests in progress", null)));
            }
        }

        private void run(RequestScope scope, MessageSink sink) {
            byte[] response;
            try {
                MethodHandler handler = (session == null ? statelessHandlers : handlers).get(request.method());
                if (handler == null) {
                    throw new McpException(ErrorCodes.METHOD_NOT_FOUND, "Method not found: " + request.method());
                }
                Object result = handler.handle(scope, request.params());
                if (session == null && result != null) {
                    result = StatelessResults.decorate(request.method(), result, settings);
                } else if (result != null) {
                    result = OlderRevisions.adapt(request.method(), session.protocolVersion(), result);
                }
                if (result == StatelessResults.KEEP_OPEN) {
                    return;
                }
                response = scope.isCancelled() ? null : JsonRpc.result(request.id(), result);
            } catch (McpException e) {
                if (e.reason() != null && !scope.isCancelled()) {
                    if (session != null) {
                        session.unregister(key, this);
                    }
                    sink.fail(e.reason(), JsonRpc.error(request.id(), e.toError()));
                    return;
                }
                response = JsonRpc.error(request.id(), e.toError());
            } catch (CancellationException e) {
                response = null;
            } catch (RuntimeException | Error e) {
                LOG.error("Request {} ({}) failed{}", request.method(), scope.invocationId(),
                        session == null ? "" : " in session " + session.id(), e);
                response = JsonRpc.error(request.id(), new RpcError(ErrorCodes.INTERNAL_ERROR, "Internal error", null));
            } finally {
                if (session != null) {
                    session.unregister(key, this);
                }
            }
            if (scope.isCancelled() && !"initialize".equals(request.method())) {
                response = null;
            }
            sink.complete(response);
        }
    }
}
