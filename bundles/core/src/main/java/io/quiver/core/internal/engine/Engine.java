package io.quiver.core.internal.engine;

import io.quiver.api.CallerIdentity;
import io.quiver.api.resource.Subscribable;
import io.quiver.api.transport.Exchange;
import io.quiver.api.transport.Inbound;
import io.quiver.api.transport.McpSession;
import io.quiver.api.transport.MessageSink;
import io.quiver.api.transport.Receipt.Reason;
import io.quiver.api.transport.Receipt;
import io.quiver.api.transport.StreamPolicy;
import io.quiver.core.internal.catalog.Catalog;
import io.quiver.core.internal.era.SessionEra;
import io.quiver.core.internal.era.StatelessEra;
import io.quiver.core.internal.exec.Workers;
import io.quiver.core.internal.messages.ListenEnded;
import io.quiver.core.internal.messages.Meta;
import io.quiver.core.internal.messages.ProtocolVersions;
import io.quiver.core.internal.messages.Result;
import io.quiver.core.internal.messages.StreamOpen;
import io.quiver.core.internal.pipeline.NonBlocking;
import io.quiver.core.internal.pipeline.ToolShares;
import io.quiver.core.internal.request.Era;
import io.quiver.core.internal.request.InFlight;
import io.quiver.core.internal.request.Listeners;
import io.quiver.core.internal.request.MethodHandler;
import io.quiver.core.internal.request.Peer;
import io.quiver.core.internal.request.RequestScope;
import io.quiver.core.internal.request.Session;
import io.quiver.core.internal.request.SessionRegistry;
import io.quiver.core.internal.rpc.ErrorCodes;
import io.quiver.core.internal.rpc.JsonRpc;
import io.quiver.core.internal.rpc.McpException;
import io.quiver.core.internal.rpc.Message;
import io.quiver.core.internal.rpc.RpcError;
import io.quiver.core.internal.settings.EngineConfig;
import io.quiver.core.internal.settings.EngineSettings;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The transport-neutral protocol engine: classifies each message, keeps sessions, dispatches
 * requests to one handler per method, and fans catalog changes out.
 *
 * <p>Scheduling: control methods (ping, lists, initialize, discovery, listening, task status) are
 * quick and touch no tool code, so they run at once on the caller's thread and never wait behind
 * tool calls. Methods that run extension code go to the work pool; a {@code tools/call} first gets
 * its tool's share ({@link ToolShares}), waiting for it without a thread.
 */
public final class Engine implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(Engine.class);

    /** Control methods that touch no other request or stream: served on a thread that must not wait. */
    private static final Set<String> QUICK = Set.of("initialize", "ping", "logging/setLevel", "tools/list",
            "resources/list", "resources/templates/list", "prompts/list", "resources/subscribe",
            "resources/unsubscribe", "server/discover");

    /** Methods served on the caller's thread: no extension code, no waiting (the quick ones, listen, task status). */
    private static final Set<String> CONTROL = Stream.concat(QUICK.stream(),
            Stream.of("subscriptions/listen", "tasks/get", "tasks/update", "tasks/cancel")).collect(Collectors.toUnmodifiableSet());

    private final Catalog catalog;
    private final EngineSettings settings;
    private final Workers workers;
    private final SessionEra sessionEra;
    private final StatelessEra statelessEra;
    private final SessionRegistry sessions = new SessionRegistry();
    private final Listeners listeners;
    private final ToolShares shares;
    private final ListChangeNotifier listChanges;
    private final Catalog.Listener catalogListener;
    /** Requests started and not yet answered (listen streams included until they end). */
    private final Set<RequestExchange> inflight = ConcurrentHashMap.newKeySet();
    private final AtomicBoolean draining = new AtomicBoolean();
    private final Hears hears;
    private volatile boolean accepting = true;

    /**
     * @param shares the tool shares a {@code tools/call} waits for before it runs
     * @param listeners the listen streams, shared with the stateless era's {@code subscriptions/listen}
     * @param sessionEra the session era with its method table
     * @param statelessEra the stateless era with its method table
     * @param hears who hears of a resource's update: its subscribers who could read it, or who subscribed through
     *     the service that announced it
     */
    public Engine(Catalog catalog, EngineSettings settings, ToolShares shares, Workers workers,
            Listeners listeners, SessionEra sessionEra, StatelessEra statelessEra,
            Hears hears) {
        this.hears = hears;
        this.catalog = catalog;
        this.settings = settings;
        this.shares = shares;
        this.workers = workers;
        this.listeners = listeners;
        this.sessionEra = sessionEra;
        this.statelessEra = statelessEra;
        this.listChanges = new ListChangeNotifier(sessions, listeners, workers.timer(),
                () -> settings.config().listChangedDebounceMs());
        this.catalogListener = listChanges::changed;
        catalog.addListener(catalogListener);
        workers.timer().schedule(this::sweep, sweepDelayMs(), TimeUnit.MILLISECONDS);
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

    /** Takes a new configuration: pools, limits and timeouts change in place; sessions and streams stay. */
    public void reconfigure(EngineConfig next) {
        settings.update(next);
        workers.resize(next);
    }

    private void sweep() {
        try {
            EngineConfig c = settings.config();
            sessions.expireIdle(c.sessionIdleTimeoutMs(), c.handshakeTimeoutMs());
        } catch (RuntimeException e) {
            LOG.warn("Expiring idle sessions failed", e);
        } finally {
            try {
                workers.timer().schedule(this::sweep, sweepDelayMs(), TimeUnit.MILLISECONDS);
            } catch (RejectedExecutionException e) {
                // closed
            }
        }
    }

    private long sweepDelayMs() {
        EngineConfig c = settings.config();
        return Math.max(1_000, Math.min(60_000, Math.min(c.sessionIdleTimeoutMs(), c.handshakeTimeoutMs()) / 4));
    }

    /** Classifies one inbound message; see {@link io.quiver.api.transport.McpEngine#receive}. */
    public Receipt receive(byte[] body, Inbound inbound) {
        return receive(JsonRpc.parse(body), inbound);
    }

    /** {@code McpEngine.receiveNow}: only requests that may be served without waiting, else null. */
    public Receipt receiveNow(byte[] body, Inbound inbound) {
        JsonRpc.Parsed parsed = JsonRpc.parse(body);
        // only requests that may be served without waiting; notifications and responses act on other requests
        return parsed instanceof JsonRpc.Parsed.Ok ok && ok.message() instanceof Message.Request request
                && (QUICK.contains(request.method()) || "tools/call".equals(request.method()))
                ? receive(parsed, inbound) : null;
    }

    private Receipt receive(JsonRpc.Parsed parsed, Inbound inbound) {
        if (parsed instanceof JsonRpc.Parsed.Batch batch) {
            return receiveBatch(batch.elements(), inbound);
        }
        if (parsed instanceof JsonRpc.Parsed.Bad bad) {
            Reason reason = bad.code() == ErrorCodes.PARSE_ERROR ? Reason.PARSE_ERROR : Reason.INVALID_REQUEST;
            return reject(reason, bad.id(), bad.code(), bad.reason());
        }
        Message message = ((JsonRpc.Parsed.Ok) parsed).message();
        JsonNode id = message instanceof Message.Request r ? r.id() : null;
        if (id != null && !accepting) {
            return reject(Reason.UNAVAILABLE, id, ErrorCodes.SERVER_UNAVAILABLE,
                    "Server unavailable: it is shutting down");
        }
        ObjectNode params = message.params();
        if (params != null && StatelessEra.claims(params, inbound)) {
            return receiveStateless(message, params, inbound);
        }
        if (ProtocolVersions.STATELESS.equals(inbound.protocolVersion())) {
            // the header names the stateless revision, yet there are no params to carry its _meta (a later
            // revision's date falls through to the unsupported version below)
            return reject(Reason.INVALID_REQUEST, id, ErrorCodes.INVALID_REQUEST, "Invalid Request: a "
                    + inbound.protocolVersion() + " message is a request or a notification whose params carry "
                    + Meta.VERSION + " (and that revision sends clients no requests, so nothing is answered by a response)");
        }
        Receipt unsupported = unsupportedVersion(inbound, id);
        if (unsupported != null) {
            return unsupported;
        }
        if (message instanceof Message.Request request && "initialize".equals(request.method())) {
            if (inbound.sessionId() != null) {
                return reject(Reason.INVALID_REQUEST, id, ErrorCodes.INVALID_REQUEST,
                        "Invalid Request: initialize must not carry a session id");
            }
            Session session;
            try {
                session = sessions.create(sessionEra, inbound.caller(), inbound.clientAddress(), settings.maxSessions(),
                        settings.maxSessionsPerClient(), settings.maxSessionsPerSubject());
            } catch (McpException e) {
                return new Receipt.Rejected(e.reason(), JsonRpc.error(id, e.toError()));
            }
            RequestExchange exchange = new RequestExchange(sessionEra, session, null, request);
            session.register(exchange.key, exchange);
            return new Receipt.Pending(session, exchange);
        }
        if (inbound.sessionId() == null) {
            return reject(Reason.SESSION_REQUIRED, id, ErrorCodes.INVALID_REQUEST,
                    "Bad Request: a session id is required (send initialize first)");
        }
        Session session = session(inbound);
        if (session == null) {
            return reject(Reason.SESSION_NOT_FOUND, id, ErrorCodes.SESSION_NOT_FOUND, "Session not found");
        }
        session.touch();
        return receive(session, message);
    }

    /** The refusal of a message whose {@code MCP-Protocol-Version} names no revision of sessions, else null. */
    private Receipt unsupportedVersion(Inbound inbound, JsonNode id) {
        if (inbound.protocolVersion() == null || ProtocolVersions.isSupported(inbound.protocolVersion())) {
            return null;
        }
        return reject(Reason.UNSUPPORTED_VERSION, id, ErrorCodes.INVALID_REQUEST,
                "Bad Request: unsupported protocol version " + inbound.protocolVersion()
                        + " (supported: " + String.join(", ", supportedVersions()) + ")");
    }

    /** The live session the message names, or null: a session belongs to the principal that opened it, to anyone else it does not exist. */
    private Session session(Inbound inbound) {
        Session session = sessions.get(inbound.sessionId());
        if (session == null || !session.caller().samePrincipal(inbound.caller())) {
            return null;
        }
        session.authenticatedAs(inbound.caller());
        return session;
    }

    /** A message of a live session, other than {@code initialize}: a notification or response taken, a request registered. */
    private Receipt receive(Session session, Message message) {
        JsonNode id = message instanceof Message.Request r ? r.id() : null;
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
        RequestExchange exchange = new RequestExchange(sessionEra, session, null, (Message.Request) message);
        if (!session.register(exchange.key, exchange)) {
            return reject(Reason.INVALID_REQUEST, id, ErrorCodes.INVALID_REQUEST, "Invalid Request: the id " + id
                    + " belongs to a request of this session that is still in progress; ids must be unique");
        }
        return new Receipt.Pending(session, exchange);
    }

    /**
     * A JSON-RPC batch: taken only in a session of 2025-03-26, the one revision that has batches (and never
     * with {@code initialize} in it, which opens the session). Its elements are taken in order as each would
     * be alone; its requests are served as one {@link BatchExchange}. A batch of nothing but notifications and
     * responses is accepted; one whose answered elements were all refused is rejected with their errors. While
     * the server stops, a batch's notifications and responses are still taken, and one holding a request is
     * refused (unavailable) without it.
     */
    private Receipt receiveBatch(ArrayNode elements, Inbound inbound) {
        if (elements.isEmpty()) {
            return reject(Reason.INVALID_REQUEST, null, ErrorCodes.INVALID_REQUEST, "Invalid Request: an empty batch");
        }
        if (inbound.sessionId() == null || ProtocolVersions.atLeast(inbound.protocolVersion(), ProtocolVersions.STATELESS)) {
            boolean opens = elements.valueStream().anyMatch(e -> "initialize".equals(e.path("method").asString(null)));
            return reject(Reason.INVALID_REQUEST, null, ErrorCodes.INVALID_REQUEST, opens
                    ? "Invalid Request: initialize must not be part of a JSON-RPC batch; send it alone"
                    : "Invalid Request: batches are taken only in a session of protocol revision " + ProtocolVersions.BATCHES);
        }
        Receipt unsupported = unsupportedVersion(inbound, null);
        if (unsupported != null) {
            return unsupported;
        }
        Session session = session(inbound);
        if (session == null) {
            return reject(Reason.SESSION_NOT_FOUND, null, ErrorCodes.SESSION_NOT_FOUND, "Session not found");
        }
        if (!ProtocolVersions.BATCHES.equals(session.protocolVersion())) {
            return reject(Reason.INVALID_REQUEST, null, ErrorCodes.INVALID_REQUEST, "Invalid Request: this session speaks "
                    + session.protocolVersion() + ", which has no JSON-RPC batches (only " + ProtocolVersions.BATCHES
                    + " has them); send each message alone");
        }
        int most = settings.config().maxBatchSize();
        if (elements.size() > most) {
            return reject(Reason.INVALID_REQUEST, null, ErrorCodes.INVALID_REQUEST, "Invalid Request: a batch of "
                    + elements.size() + " messages; this server takes at most " + most + " in one (maxBatchSize)");
        }
        session.touch();
        List<BatchExchange.Part> parts = new ArrayList<>();
        boolean serving = false;
        boolean stopping = false;
        for (JsonNode element : elements) {
            JsonRpc.Parsed parsed = JsonRpc.parse(element);
            if (parsed instanceof JsonRpc.Parsed.Bad bad) {
                parts.add(BatchExchange.Part.refused(reject(Reason.INVALID_REQUEST, bad.id(), bad.code(), bad.reason()).body()));
                continue;
            }
            Message message = ((JsonRpc.Parsed.Ok) parsed).message();
            boolean stateless = message.params() != null && StatelessEra.claims(message.params(), inbound);
            if (!(message instanceof Message.Request request)) {
                // taken (as alone, a notification of the stateless era is never this session's), also while
                // stopping: a cancellation, a client's answer that a call in flight waits for
                if (!stateless) {
                    receive(session, message);
                }
                continue;
            }
            if (!accepting) {
                stopping = true; // no new request
                continue;
            }
            String refusal = "initialize".equals(request.method()) ? "initialize"
                    : stateless ? "a request of protocol revision " + ProtocolVersions.STATELESS : null;
            Receipt receipt = refusal == null ? receive(session, message) : reject(Reason.INVALID_REQUEST, request.id(),
                    ErrorCodes.INVALID_REQUEST, "Invalid Request: " + refusal + " must not be part of a JSON-RPC batch");
            if (receipt instanceof Receipt.Rejected rejected) {
                parts.add(BatchExchange.Part.refused(rejected.body()));
            } else if (receipt instanceof Receipt.Pending pending) {
                parts.add(BatchExchange.Part.of(pending.exchange()));
                serving = true;
            }
        }
        if (stopping) {
            return reject(Reason.UNAVAILABLE, null, ErrorCodes.SERVER_UNAVAILABLE,
                    "Server unavailable: it is shutting down; the batch's requests were not taken");
        }
        if (parts.isEmpty()) {
            return new Receipt.Accepted();
        }
        if (!serving) {
            return new Receipt.Rejected(Reason.INVALID_REQUEST, BatchExchange.join(parts.stream().map(BatchExchange.Part::error).toList()));
        }
        return new Receipt.Pending(session, new BatchExchange(parts));
    }

    /** A message of the stateless era: no session; checked, then served by that era's method table. */
    private Receipt receiveStateless(Message message, ObjectNode params, Inbound inbound) {
        boolean request = message instanceof Message.Request;
        String method = request ? ((Message.Request) message).method() : ((Message.Notification) message).method();
        JsonNode id = request ? ((Message.Request) message).id() : null;
        Peer peer;
        try {
            peer = statelessEra.admit(method, params, inbound, request);
        } catch (McpException e) {
            return new Receipt.Rejected(e.reason(), JsonRpc.error(id, e.toError()));
        }
        if (!request) {
            return new Receipt.Accepted();
        }
        if (statelessEra.handler(method) == null) {
            return reject(Reason.METHOD_NOT_FOUND, id, ErrorCodes.METHOD_NOT_FOUND, "Method not found: " + method);
        }
        if ("subscriptions/listen".equals(method) && listeners.size() >= settings.maxListeners()) {
            return reject(Reason.UNAVAILABLE, id, ErrorCodes.SERVER_UNAVAILABLE, "Server busy: "
                    + settings.maxListeners() + " listen streams are open, the most this server keeps; try again later");
        }
        return new Receipt.Pending(null, new RequestExchange(statelessEra, null, peer, (Message.Request) message));
    }

    private static Receipt.Rejected reject(Reason reason, JsonNode id, int code, String text) {
        return new Receipt.Rejected(reason, JsonRpc.error(id, new RpcError(code, text, null)));
    }

    private void onNotification(Session session, Message.Notification notification) {
        switch (notification.method()) {
            case "notifications/initialized" -> LOG.debug("Session {}: initialized", session.id());
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

    /**
     * Tells subscribed sessions and listen streams that a resource changed, those whose caller could read it
     * ({@code reads}): a subscriber to a URI of another tenant's view, or one the policy hides from it, hears
     * nothing of it.
     */
    public void resourceUpdated(String uri) {
        resourceUpdated(uri, null);
    }

    /**
     * Tells the sessions and listen streams subscribed to the URI that it changed: those subscribed through
     * {@code source}, or, without one, those whose caller could read it.
     */
    public void resourceUpdated(String uri, Subscribable source) {
        for (Session session : sessions.all()) {
            if (hears.hears(session, session.caller(), uri, source)) {
                session.notify("notifications/resources/updated", Map.of("uri", uri));
            }
        }
        listeners.resourceUpdated(uri, listener -> hears.hears(listener, listener.caller(), uri, source));
    }

    /** Whether a subscriber (a session or listen stream) hears of a URI's update from a service (null: any). */
    @FunctionalInterface
    public interface Hears {
        boolean hears(Object subscriber, CallerIdentity caller, String uri, Subscribable source);
    }

    /**
     * Stops gracefully (see {@link io.quiver.api.transport.McpEngine#drain}): new requests are refused,
     * those in flight get the grace period, the rest are cancelled with an error, streams end with a
     * last message. Only the first call drains.
     */
    public void drain() {
        if (!draining.compareAndSet(false, true)) {
            return;
        }
        accepting = false;
        long grace = settings.config().shutdownGraceMs();
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(grace);
        int waiting = (int) inflight.stream().filter(e -> !e.open).count();
        if (waiting > 0) {
            LOG.info("Stopping: {} request(s) in flight get up to {} ms to finish", waiting, grace);
        }
        while (System.nanoTime() < deadline && inflight.stream().anyMatch(e -> !e.open)) {
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        int cancelled = 0;
        for (RequestExchange exchange : List.copyOf(inflight)) {
            if (!exchange.open && exchange.stop()) {
                cancelled++;
            }
        }
        if (cancelled > 0) {
            LOG.warn("Stopping: cancelled {} request(s) still running after {} ms; their clients got an error",
                    cancelled, grace);
        }
        alsoDrained.run();
        listeners.closeAll(this::listenEnded);
        byte[] last = JsonRpc.notification("notifications/message", Map.of("level", "warning", "logger", "quiver",
                "data", "The server is shutting down"));
        for (Session session : sessions.all()) {
            session.endStream(last);
        }
    }

    /** What else stops with the requests (the tasks still running): set once, before the engine serves. */
    private volatile Runnable alsoDrained = () -> { };

    public void alsoDrains(Runnable more) {
        this.alsoDrained = more;
    }

    /** The last message of a listen stream: its result, written as the stateless era writes results. */
    private byte[] listenEnded(JsonNode subscriptionId) {
        return statelessEra.response(subscriptionId, "subscriptions/listen", ProtocolVersions.STATELESS,
                new ListenEnded(subscriptionId));
    }

    /** Ends every session and stream; the threads are the caller's to close. */
    @Override
    public void close() {
        catalog.removeListener(catalogListener);
        listeners.closeAll(this::listenEnded);
        sessions.closeAll();
    }

    private static final Runnable NOTHING = () -> { };

    /** Runs its action the first time only. */
    private static final class Once implements Runnable {
        private final AtomicBoolean done = new AtomicBoolean();
        private final Runnable action;

        Once(Runnable action) {
            this.action = action;
        }

        @Override
        public void run() {
            if (done.compareAndSet(false, true)) {
                action.run();
            }
        }
    }

    /** One request on its way through a handler. */
    private final class RequestExchange implements Exchange, InFlight {
        private final Era era;
        /** The request's session; null in the stateless era. */
        private final Session session;
        private final Peer peer;
        private final Message.Request request;
        /** The id's key in the session's requests in flight. */
        final String key;
        /** Answered (or given up): nothing more goes to the sink. */
        private final AtomicBoolean answered = new AtomicBoolean();
        private volatile RequestScope scope;
        private volatile MessageSink sink;
        private volatile boolean cancelledEarly;
        /** A stream that stays open after its handler returned (subscriptions/listen). */
        volatile boolean open;
        /** The transport's thread while it serves the request itself ({@link #run}), else null. */
        private volatile Thread caller;

        /** @param peer who sent it, or {@code null} to take it from the session */
        RequestExchange(Era era, Session session, Peer peer, Message.Request request) {
            this.era = era;
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
            return peer != null ? peer.protocolVersion() : session.protocolVersion();
        }

        @Override
        public StreamPolicy streamPolicy() {
            return era.streamPolicy(protocolVersion());
        }

        @Override
        public byte[] refusal(int code, String message) {
            return JsonRpc.error(request.id(), new RpcError(code, message, null));
        }

        @Override
        public void abandon() {
            RequestScope current = scope;
            if (current == null) {
                // never started: the transport refused it after all
                cancelledEarly = true;
                forget();
                return;
            }
            // the session era keeps the response for the client to resume; the stateless era cancels
            if (streamPolicy().cancelOnDisconnect()) {
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

        /** Stopping: cancels the work and answers with an error now; false when it was answered already. */
        boolean stop() {
            boolean stopped = answer(JsonRpc.error(request.id(), new RpcError(ErrorCodes.SERVER_UNAVAILABLE,
                    "Server unavailable: it is shutting down and the request was cancelled", null)));
            RequestScope current = scope;
            if (current != null) {
                current.cancel();
            }
            return stopped;
        }

        @Override
        public void start(MessageSink sink) {
            begin(sink);
        }

        @Override
        public boolean runNow(MessageSink sink) {
            if (!quick()) {
                return false;
            }
            NonBlocking.run(() -> run(sink));
            return true;
        }

        /** Whether serving this request waits on nothing: a control method, or a non-blocking tool's call. */
        @Override
        public boolean quick() {
            String method = request.method();
            if (QUICK.contains(method)) {
                return true;
            }
            MethodHandler<?> handler = era.handler(method);
            return handler != null && handler.quick(peer != null ? peer.caller() : session.caller(), request.params());
        }

        @Override
        public void run(MessageSink sink) {
            caller = Thread.currentThread();
            try {
                begin(sink);
            } finally {
                caller = null;
            }
        }

        private void begin(MessageSink sink) {
            RequestScope scope = new RequestScope(era, session, peer != null ? peer : Peer.of(session), request.id(),
                    request.params(), sink);
            this.sink = sink;
            this.scope = scope;
            inflight.add(this);
            if (cancelledEarly) {
                scope.cancel();
            }
            if (CONTROL.contains(request.method())) {
                run(scope, NOTHING);
                return;
            }
            MethodHandler<?> handler = era.handler(request.method());
            String tool = handler == null ? null : handler.share(scope, request.params());
            if (tool == null) {
                dispatch(() -> run(scope, NOTHING));
                return;
            }
            ToolShares.Waiter waiter = new ToolShares.Waiter() {
                @Override
                public void start() {
                    // the share is given back before the answer goes out: the client's next call finds it free
                    Runnable release = new Once(() -> shares.release(tool));
                    dispatch(() -> {
                        try {
                            run(scope, release);
                        } finally {
                            release.run();
                        }
                    }, release);
                }

                @Override
                public void busy(String reason) {
                    Result answer;
                    try {
                        answer = handler.busy(scope, request.params(), reason);
                    } catch (McpException e) {
                        answer(JsonRpc.error(request.id(), e.toError()));
                        return;
                    }
                    respond(scope, answer);
                }
            };
            if (shares.admit(tool, waiter)) {
                // cancelled while it waits for its turn: out of the queue at once, recorded, and its stream ends now
                scope.onCancel(() -> {
                    if (shares.withdraw(tool, waiter)) {
                        try {
                            workers.requests().execute(() -> run(scope, NOTHING));
                        } catch (RejectedExecutionException e) {
                            run(scope, NOTHING);
                        }
                    }
                });
            }
        }

        private void dispatch(Runnable work) {
            dispatch(work, () -> { });
        }

        private void dispatch(Runnable work, Runnable refused) {
            if (caller == Thread.currentThread() && workers.inline().tryEnter()) {
                // the transport's thread may wait: no hand-off to a request thread
                RequestScope current = scope;
                current.inline(result -> {
                    if (result == null) {
                        answer(null);
                    } else {
                        respond(current, result);
                    }
                });
                try {
                    work.run();
                } finally {
                    current.inline(null);
                    workers.inline().exit();
                }
                return;
            }
            try {
                workers.requests().execute(work);
            } catch (RejectedExecutionException e) {
                refused.run();
                answer(JsonRpc.error(request.id(), new RpcError(ErrorCodes.SERVER_UNAVAILABLE,
                        "Server busy: too many requests in progress; try again shortly", null)));
            }
        }

        /** @param handled run once the handler returned or threw, before the answer is written */
        private void run(RequestScope scope, Runnable handled) {
            if (scope.isCancelled() && !"initialize".equals(request.method())) {
                handled.run();
                MethodHandler<?> handler = era.handler(request.method());
                if (handler != null && scope.stopped() == null) {
                    try {
                        handler.cancelledBeforeRun(scope, request.params()); // a tool call is recorded as cancelled
                    } catch (RuntimeException e) {
                        LOG.warn("A request cancelled before it ran could not be recorded ({})", request.method(), e);
                    }
                }
                answer(null);
                return;
            }
            Result result;
            try {
                MethodHandler<?> handler = era.handler(request.method());
                if (handler == null) {
                    throw new McpException(ErrorCodes.METHOD_NOT_FOUND, "Method not found: " + request.method());
                }
                try {
                    result = handler.handle(scope, request.params());
                } finally {
                    handled.run();
                }
            } catch (McpException e) {
                if (e.reason() != null && !scope.isCancelled()) {
                    if (answered.compareAndSet(false, true)) {
                        forget();
                        sink.fail(e.reason(), JsonRpc.error(request.id(), e.toError()));
                    }
                    return;
                }
                answer(JsonRpc.error(request.id(), e.toError()));
                return;
            } catch (CancellationException e) {
                answer(null);
                return;
            } catch (RuntimeException | Error e) {
                LOG.error("Request {} ({}, {}) failed", request.method(), scope.invocationId(), era.name(), e);
                answer(JsonRpc.error(request.id(), new RpcError(ErrorCodes.INTERNAL_ERROR, "Internal error", null)));
                return;
            }
            if (result instanceof StreamOpen) {
                open = true;
                scope.onCancel(() -> answered.set(true));
                scope.onCancel(this::forget);
                return;
            }
            respond(scope, result);
        }

        /** Answers with a handler's result, written for the client's revision. */
        private void respond(RequestScope scope, Result result) {
            byte[] response;
            try {
                response = era.response(request.id(), request.method(), protocolVersion(), result);
            } catch (RuntimeException e) {
                LOG.error("Request {} ({}): its result could not be written", request.method(), scope.invocationId(), e);
                response = JsonRpc.error(request.id(), new RpcError(ErrorCodes.INTERNAL_ERROR, "Internal error", null));
            }
            // a call the host stopped is answered (with why); one the client cancelled is not
            boolean cancelled = scope.isCancelled() && scope.stopped() == null && !"initialize".equals(request.method());
            answer(cancelled ? null : response);
        }

        /** Sends the response (or none, for a cancelled request) once; false when it was sent already. */
        private boolean answer(byte[] response) {
            if (!answered.compareAndSet(false, true)) {
                return false;
            }
            forget();
            MessageSink target = sink;
            if (target != null) {
                target.complete(response);
            }
            return true;
        }

        /**
         * The exchange is over (answered, or owing no answer). An {@code initialize} that ends without having
         * initialized its session (it failed, was refused or stopped) closes that session, before the answer goes
         * out: its id is not accepted, and an answer still to be written does not name it.
         */
        private void forget() {
            inflight.remove(this);
            if (session != null) {
                session.unregister(key, this); // first: closing the session would cancel this exchange
                if (!session.initialized() && "initialize".equals(request.method())) {
                    session.close();
                }
            }
        }
    }
}
