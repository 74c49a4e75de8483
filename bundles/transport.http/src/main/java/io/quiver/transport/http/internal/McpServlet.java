package io.quiver.transport.http.internal;

import io.quiver.api.CallerIdentity;
import io.quiver.api.operator.TransportInfo;
import io.quiver.api.transport.Inbound;
import io.quiver.api.transport.McpEngine;
import io.quiver.api.transport.McpSession;
import io.quiver.api.transport.MessageSink;
import io.quiver.api.transport.Receipt;
import io.quiver.api.transport.StreamPolicy;
import io.quiver.api.transport.TransportErrors;
import io.quiver.lib.config.TypedConfig;
import jakarta.servlet.AsyncContext;
import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Arrays;
import java.util.Enumeration;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The MCP endpoint: POST carries messages in, GET opens or resumes a session's SSE stream,
 * DELETE ends a session. Everything about the protocol itself is the engine's.
 *
 * <p>Request bodies are read without holding a thread ({@link BodyReader}), so slow clients cost a
 * connection, not a thread. SSE streams are counted against {@code maxStreams} and
 * {@code maxStreamsPerSession}; beyond them, and while the engine refuses work, the answer is 503
 * with {@code Retry-After}.
 */
final class McpServlet extends HttpServlet {

    private static final long serialVersionUID = 1L;
    private static final Logger LOG = LoggerFactory.getLogger(McpServlet.class);
    static final String SESSION_HEADER = "Mcp-Session-Id";
    static final String VERSION_HEADER = "MCP-Protocol-Version";
    /** Methods whose answer is a stream that stays open (counted as a stream from the start). */
    private static final Set<String> LISTENING = Set.of("subscriptions/listen");
    private static final String CALL = "tools/call";
    private static final Set<String> CALLS = Set.of(CALL);
    private static final int TOO_MANY_REQUESTS = 429;
    private static final String SLOW_BODIES = "request bodies were not complete within {} ms: answered 408 and closed";

    private final transient McpEngine engine;
    private final transient ScheduledExecutorService timer;
    private final transient StreamBudget budget = new StreamBudget();
    private final transient Throttled slowBodies = new Throttled(LOG, 10_000);
    private final transient Throttled slowHeaders = new Throttled(LOG, 10_000);
    private final transient HeaderWatch headers;
    private final transient Map<String, SessionStreams> streams = new ConcurrentHashMap<>();
    private final transient Map<String, StandaloneStream> standalone = new ConcurrentHashMap<>();
    /** Serve what the lane hands over (a call that may block, a streamed answer), in order. */
    private final transient CallPool calls;
    /** Streams of requests outside a session, with what to do when their client is found gone. */
    private final transient Map<SessionStreams, Runnable> stateless = new ConcurrentHashMap<>();
    private transient volatile HttpConfig config;
    private transient volatile RequestGuard guard;
    private transient volatile int maxStreams;
    /** {@code sseMethods} as a set, read on every request (the configuration proxy copies its array on each read). */
    private transient volatile Set<String> sseMethods = Set.of();
    private final transient Gatekeeper gate;
    /** The credentials of the open GET and listen streams, checked again while they stay open. */
    private final transient StreamCredentials streamCredentials;
    private final transient CallerLimits limits = new CallerLimits();
    private transient volatile Endpoints endpoints;

    McpServlet(McpEngine engine, HttpConfig config, ScheduledExecutorService timer, HeaderWatch headers, Gatekeeper gate) {
        this.engine = engine;
        this.timer = timer;
        this.headers = headers;
        this.gate = gate;
        this.streamCredentials = new StreamCredentials(gate);
        this.calls = new CallPool(timer);
        configure(config);
    }

    /** Closes connections too slow with their headers and forgets idle callers (run once a second). */
    void sweepHeaders() {
        limits.sweep();
        long timeout = config.headerTimeoutMs();
        int closed = headers.sweep(timeout);
        if (closed > 0) {
            slowHeaders.warn(closed, "connections sent no complete request headers within {} ms: closed", timeout);
        }
    }

    /** Takes new settings; requests and streams in progress keep going. */
    void configure(HttpConfig next) {
        this.guard = new RequestGuard(TypedConfig.list(next.allowedHosts()), TypedConfig.list(next.allowedOrigins()));
        gate.configure(next);
        limits.configure(next);
        budget.maxUnsentBytes(next.maxUnsentBytes(), next.maxUnsentBytesTotal());
        calls.resize(callThreads(next), next.maxCallThreads(), next.maxQueuedCalls(), next.callThreadGrowMs());
        this.sseMethods = Set.copyOf(Arrays.asList(next.sseMethods()));
        this.maxStreams = next.maxStreams() > 0 ? next.maxStreams()
                : (int) Math.max(256, Math.min(1_000_000, (Runtime.getRuntime().maxMemory() >> 20) * 8));
        this.config = next;
    }

    /** {@code callThreads}, or by default two per processor and at least four. */
    private static int callThreads(HttpConfig c) {
        return c.callThreads() > 0 ? c.callThreads() : Math.max(4, 2 * Runtime.getRuntime().availableProcessors());
    }

    /** Where the endpoint is served: the default tenant's path and the named tenants' template. */
    void endpoints(Endpoints next) {
        this.endpoints = next;
    }

    /** The guard of Host and Origin headers as configured now. */
    RequestGuard guard() {
        return guard;
    }

    /** Whether a request path (from the server's root) is an MCP endpoint. */
    boolean serves(String path) {
        Endpoints e = endpoints;
        return e != null && e.tenantOf(path) != null;
    }

    /** What the transport holds now: streams, bytes clients have not read, the call pool. */
    TransportInfo status() {
        CallPool.Load load = calls.load();
        return new TransportInfo("http", budget.open(), maxStreams, budget.unsent(), budget.maxUnsentTotal(),
                load.threads(), load.busy(), load.max(), load.queued(), load.maxQueued(), load.stuck());
    }

    /**
     * Serves a request; one that fails unforeseen (an error of the JVM's, such as running out of heap, included)
     * is answered 500 with a JSON-RPC "Internal error" and nothing of the failure: Jetty's own error page would
     * name the exception and its message.
     */
    @Override
    protected void service(HttpServletRequest req, HttpServletResponse resp) throws IOException {
        try {
            serve(req, resp);
        } catch (RuntimeException | Error e) {
            LOG.error("A request to the MCP endpoint failed", e);
            if (resp.isCommitted()) {
                throw e; // part of an answer is out: the connection is cut
            }
            resp.setHeader("Connection", "close");
            if (req.isAsyncStarted()) {
                finish(GuardedAsync.guard(req.getAsyncContext()), HttpServletResponse.SC_INTERNAL_SERVER_ERROR, TransportErrors.INTERNAL_ERROR,
                        "Internal error", true);
            } else {
                fail(resp, HttpServletResponse.SC_INTERNAL_SERVER_ERROR, TransportErrors.INTERNAL_ERROR, "Internal error");
            }
        }
    }

    private void serve(HttpServletRequest req, HttpServletResponse resp) throws IOException {
        String origin = header(req, "Origin");
        if (origin != null) {
            // a page in a browser: a preflight is answered before anything else (it carries no credential), and an
            // answer to a page of an allowed origin says so, or the browser keeps it from the page
            if ("OPTIONS".equals(req.getMethod()) && req.getHeader(CORS_REQUEST_METHOD) != null) {
                preflight(req, resp, origin);
                return;
            }
            if (guard.originListed(origin)) {
                resp.setHeader("Access-Control-Allow-Origin", origin);
                resp.setHeader("Access-Control-Expose-Headers", CORS_EXPOSED);
                resp.addHeader("Vary", "Origin");
            }
        }
        if (req.getAttribute(FastPost.Handover.ATTRIBUTE) instanceof FastPost.Handover handover) {
            handedOver(req, resp, handover);
            return;
        }
        headers.observe(req);
        // the decoded path, without path parameters: the metadata URL names the endpoint the path was found to be
        String path = req.getServletPath() + (req.getPathInfo() == null ? "" : req.getPathInfo());
        Admission admission = admission(name -> header(req, name), path, req.getQueryString(), req.getRemoteAddr(),
                () -> gate.metadataUrl(gate.resource(req, path)), false);
        if (admission instanceof Refused refused) {
            if (refused.challenge() != null) {
                resp.setHeader("WWW-Authenticate", refused.challenge());
            }
            refuseUnread(req, resp, refused.status(), refused.code(), refused.message());
            return;
        }
        CallerIdentity caller = ((Admitted) admission).caller();
        long wait = limits.admit(caller);
        if (wait > 0) {
            resp.setHeader("Retry-After", Long.toString(wait));
            refuseUnread(req, resp, TOO_MANY_REQUESTS, TransportErrors.SERVER_ERROR, overRate(wait));
            return;
        }
        switch (req.getMethod()) {
            case "POST" -> post(req, resp, caller);
            case "GET" -> get(req, resp, caller);
            case "DELETE" -> delete(req, resp, caller);
            default -> {
                resp.setHeader("Allow", "GET, POST, DELETE");
                refuseUnread(req, resp, HttpServletResponse.SC_METHOD_NOT_ALLOWED, TransportErrors.SERVER_ERROR, "Method not allowed");
            }
        }
    }

    private static final String CORS_REQUEST_METHOD = "Access-Control-Request-Method";
    /** The answer headers a page may read besides the always readable ones. */
    private static final String CORS_EXPOSED = "Mcp-Session-Id, MCP-Protocol-Version, WWW-Authenticate, Retry-After";
    /** What a preflight's {@code Access-Control-Request-Headers} may list: header names. */
    private static final java.util.regex.Pattern HEADER_NAMES =
            java.util.regex.Pattern.compile("[A-Za-z0-9!#$%&'*+.^_`|~-]+(\\s*,\\s*[A-Za-z0-9!#$%&'*+.^_`|~-]+)*");

    /**
     * A CORS preflight (an {@code OPTIONS} a browser sends before a page's request): allowed for a page of an origin
     * {@code allowedOrigins} names, on an allowed host, the methods the endpoint has and the headers the page asked
     * for; 403 otherwise.
     */
    private void preflight(HttpServletRequest req, HttpServletResponse resp, String origin) throws IOException {
        RequestGuard g = guard;
        if (!g.hostAllowed(header(req, "Host")) || !g.originListed(origin)) {
            refuseUnread(req, resp, HttpServletResponse.SC_FORBIDDEN, TransportErrors.SERVER_ERROR,
                    "Forbidden: Origin not allowed");
            return;
        }
        resp.setStatus(HttpServletResponse.SC_NO_CONTENT);
        resp.setHeader("Access-Control-Allow-Origin", origin);
        resp.setHeader("Access-Control-Allow-Methods", "GET, POST, DELETE");
        String asked = header(req, "Access-Control-Request-Headers");
        if (asked != null && !asked.isBlank() && HEADER_NAMES.matcher(asked.trim()).matches()) {
            resp.setHeader("Access-Control-Allow-Headers", asked.trim());
        }
        resp.setHeader("Access-Control-Max-Age", "600");
        resp.setHeader("Vary", "Origin, Access-Control-Request-Method, Access-Control-Request-Headers");
    }

    /** What the guards before a request's method make of it. */
    private sealed interface Admission permits Admitted, Refused {
    }

    /** In: the caller in the tenant of the path and the project of the query. */
    private record Admitted(CallerIdentity caller) implements Admission {
    }

    /** Refused, answered without reading the request: {@code challenge} the WWW-Authenticate value, or null. */
    private record Refused(int status, int code, String message, String challenge) implements Admission {
    }

    /**
     * The guards every request passes before its method, in order: Host, Origin, the endpoint of the path
     * (its tenant), the project of the query, the credential and its tenant. The servlet and the core lane
     * both ask. {@code withoutWaiting}: null, nothing asked of an authenticator, when one may wait.
     */
    private Admission admission(UnaryOperator<String> header, String path, String query, String remoteAddr,
            Supplier<String> metadataUrl, boolean withoutWaiting) {
        RequestGuard g = guard;
        if (!g.hostAllowed(header.apply("Host"))) {
            return new Refused(HttpServletResponse.SC_FORBIDDEN, TransportErrors.SERVER_ERROR, "Forbidden: Host not allowed", null);
        }
        if (!g.originAllowed(header.apply("Origin"))) {
            return new Refused(HttpServletResponse.SC_FORBIDDEN, TransportErrors.SERVER_ERROR, "Forbidden: Origin not allowed", null);
        }
        String tenant = endpoints.tenantOf(path);
        if (tenant == null) {
            return new Refused(HttpServletResponse.SC_NOT_FOUND, TransportErrors.INVALID_REQUEST,
                    "Not Found: no MCP endpoint at this path", null);
        }
        String project;
        try {
            project = Endpoints.projectOf(query);
        } catch (Endpoints.BadProject e) {
            return new Refused(HttpServletResponse.SC_BAD_REQUEST, TransportErrors.INVALID_REQUEST, e.getMessage(), null);
        }
        Gatekeeper.Verdict verdict = gate.check(header.apply("Authorization"), remoteAddr, metadataUrl, withoutWaiting);
        if (verdict == null) {
            return null;
        }
        if (verdict instanceof Gatekeeper.Admitted admitted) {
            verdict = gate.place(admitted.caller(), tenant, path, metadataUrl);
        }
        if (verdict instanceof Gatekeeper.Challenged challenged) {
            return new Refused(challenged.status(), TransportErrors.SERVER_ERROR, challenged.message(), challenged.challenge());
        }
        // an authenticated caller's tenant is the path's, as just checked
        return new Admitted(((Gatekeeper.Admitted) verdict).caller().in(tenant, project));
    }

    // --- POST ----------------------------------------------------------------------------------

    private void post(HttpServletRequest req, HttpServletResponse resp, CallerIdentity caller) throws IOException {
        String accept = req.getHeader("Accept");
        if (!MediaTypes.accepts(accept, MediaTypes.JSON) || !MediaTypes.accepts(accept, MediaTypes.SSE)) {
            refuseUnread(req, resp, HttpServletResponse.SC_NOT_ACCEPTABLE, TransportErrors.SERVER_ERROR,
                    "Not Acceptable: the client must accept both application/json and text/event-stream");
            return;
        }
        if (!MediaTypes.isJson(req.getContentType())) {
            refuseUnread(req, resp, HttpServletResponse.SC_UNSUPPORTED_MEDIA_TYPE, TransportErrors.SERVER_ERROR,
                    "Unsupported Media Type: the body must be application/json in UTF-8");
            return;
        }
        if (!MediaTypes.unencoded(header(req, "Content-Encoding"))) {
            resp.setHeader("Accept-Encoding", "identity");
            refuseUnread(req, resp, HttpServletResponse.SC_UNSUPPORTED_MEDIA_TYPE, TransportErrors.SERVER_ERROR,
                    "Unsupported Media Type: the body must be sent without a Content-Encoding");
            return;
        }
        HttpConfig c = config;
        long declared = req.getContentLengthLong();
        if (declared > c.maxBodyBytes() && (declared > c.maxBodyBytes() + c.maxDrainBytes()
                || "100-continue".equalsIgnoreCase(String.valueOf(req.getHeader("Expect")).trim()))) {
            // not worth reading (or not sent yet): answer at once, the connection closes after it
            refuseUnread(req, resp, HttpServletResponse.SC_REQUEST_ENTITY_TOO_LARGE, TransportErrors.SERVER_ERROR, payloadTooLarge(c));
            return;
        }
        byte[] arrived = arrived(req, declared, c);
        if (arrived != null) {
            // the whole body came with the headers (the usual small message): no waiting, no hand-off
            received(req, resp, null, arrived, caller);
            return;
        }
        AsyncContext async = GuardedAsync.start(req);
        async.setTimeout(0);
        LaneThread.Route route = LaneThread.route(); // what the request teaches its connection, once it arrived
        BodyReader.read(req.getInputStream(), c.maxBodyBytes(), c.maxDrainBytes(), declared, c.bodyTimeoutMs(), timer,
                new BodyReader.Outcome() {
                    @Override
                    public void body(byte[] body) {
                        try {
                            LaneThread.routed(route, () -> received(req, resp, async, body, caller));
                        } catch (RuntimeException | Error e) {
                            LOG.error("A POST to the MCP endpoint failed", e);
                            finish(async, HttpServletResponse.SC_INTERNAL_SERVER_ERROR, TransportErrors.INTERNAL_ERROR, "Internal error", true);
                        }
                    }

                    @Override
                    public void tooLarge(boolean drained) {
                        finish(async, HttpServletResponse.SC_REQUEST_ENTITY_TOO_LARGE, TransportErrors.SERVER_ERROR, payloadTooLarge(c), true);
                    }

                    @Override
                    public void tooSlow() {
                        slowBodies.warn(SLOW_BODIES, c.bodyTimeoutMs());
                        finish(async, HttpServletResponse.SC_REQUEST_TIMEOUT, TransportErrors.SERVER_ERROR, requestTimeout(c), true);
                    }

                    @Override
                    public void malformed(Throwable cause) {
                        LOG.debug("A request body that is not HTTP: {}", cause.toString());
                        finish(async, HttpServletResponse.SC_BAD_REQUEST, HttpErrors.PARSE_ERROR, HttpErrors.MALFORMED, true);
                    }

                    @Override
                    public void lost(Throwable cause) {
                        LOG.debug("A client went away while sending its request body: {}", cause.toString());
                        try {
                            async.complete();
                        } catch (IllegalStateException e) {
                            // the container completed it already
                        }
                    }
                });
    }

    /**
     * The body when all of it has already arrived (a declared length that the container holds), read
     * without blocking; null when it has to be waited for.
     */
    private static byte[] arrived(HttpServletRequest req, long declared, HttpConfig c) throws IOException {
        if (declared < 0 || declared > c.maxBodyBytes()) {
            return null;
        }
        ServletInputStream in = req.getInputStream();
        if (in.available() < declared) {
            return null;
        }
        byte[] body = new byte[(int) declared];
        int read = 0;
        while (read < body.length) {
            int n = in.read(body, read, body.length - read);
            if (n < 0) {
                break;
            }
            read += n;
        }
        return read == body.length ? body : Arrays.copyOf(body, read);
    }

    private static String overRate(long waitSeconds) {
        return "Too Many Requests: over this caller's request rate; try again in " + waitSeconds + " s";
    }

    private static String requestTimeout(HttpConfig c) {
        return "Request Timeout: the body did not arrive within " + c.bodyTimeoutMs() + " ms";
    }

    private static String payloadTooLarge(HttpConfig c) {
        return "Payload Too Large: the limit is " + c.maxBodyBytes() + " bytes";
    }

    /**
     * A whole body arrived: the engine classifies it, and the answer starts.
     *
     * @param started the request's async context when the body was read asynchronously, else null
     *     (then the answer is written at once, or an async context starts for a pending exchange)
     */
    private void received(HttpServletRequest req, HttpServletResponse resp, AsyncContext started, byte[] body,
            CallerIdentity caller) {
        received(req, resp, started, body, caller, started == null);
    }

    /**
     * @param here whether the exchange runs on this thread ({@code Exchange.run}); on a
     *     {@link LaneThread} only what waits on nothing does, the rest is handed to its pool
     */
    private void received(HttpServletRequest req, HttpServletResponse resp, AsyncContext started, byte[] body,
            CallerIdentity caller, boolean here) {
        String sessionId = header(req, SESSION_HEADER);
        Inbound inbound = new Inbound(sessionId, header(req, VERSION_HEADER), caller, headers(req),
                req.getRemoteAddr());
        Executor lane = LaneThread.pool();
        Receipt receipt = lane == null ? engine.receive(body, inbound) : engine.receiveNow(body, inbound);
        if (receipt == null) {
            // not for a thread that must not wait: received again on the pool
            hop(req, started, lane, async -> received(req, resp, async, body, caller, true));
            return;
        }
        answer(req, resp, started, receipt, sessionId, caller, here);
    }

    /** What the core lane gave over: served from where it left it. */
    private void handedOver(HttpServletRequest req, HttpServletResponse resp, FastPost.Handover handover) {
        req.removeAttribute(FastPost.Handover.ATTRIBUTE);
        if (handover.receipt() == null) {
            // the engine wants a thread that may wait: received there, as the servlet's own path would
            Executor lane = LaneThread.pool();
            if (lane == null) {
                received(req, resp, null, handover.body(), handover.caller(), true);
            } else {
                hop(req, null, lane, async -> received(req, resp, async, handover.body(), handover.caller(), true));
            }
            return;
        }
        answer(req, resp, null, handover.receipt(), header(req, SESSION_HEADER), handover.caller(), true);
    }

    /** The engine's receipt of a whole body, answered. */
    private void answer(HttpServletRequest req, HttpServletResponse resp, AsyncContext started, Receipt receipt,
            String sessionId, CallerIdentity caller, boolean here) {
        Executor lane = LaneThread.pool();
        if (receipt instanceof Receipt.Accepted) {
            if (started == null) {
                resp.setStatus(HttpServletResponse.SC_ACCEPTED);
            } else {
                resp.setStatus(HttpServletResponse.SC_ACCEPTED);
                started.complete();
            }
            return;
        }
        if (receipt instanceof Receipt.Rejected rejected) {
            int status = HttpErrors.status(rejected.reason());
            if (started == null && lane == null) {
                try {
                    HttpErrors.send(resp, status, rejected.body());
                } catch (IOException e) {
                    LOG.debug("The client left before its answer was written: {}", e.toString());
                }
            } else {
                send(started != null ? started : GuardedAsync.start(req), status, rejected.body()); // without blocking on the lane
            }
            return;
        }
        AsyncContext async = started != null ? started : GuardedAsync.start(req);
        async.setTimeout(0);
        Receipt.Pending pending = (Receipt.Pending) receipt;
        String method = pending.exchange().method();
        HttpConfig c = config;
        // what waits on nothing answers at once: plain JSON on this thread, no stream to resume
        boolean streams = LISTENING.contains(method) || count(pending.exchange().methods(), sseMethods) > 0
                && !(lane != null && pending.exchange().quick());
        if (lane != null && streams) {
            // a streamed answer opens on a call thread, not here: calls queued for the pool hold no stream yet
            // (a session's streams are counted, maxStreamsPerSession), and a stream that stays open goes to
            // Jetty's pool, where the connection's next requests are read too
            Executor off = calls;
            if (LISTENING.contains(method)) {
                LaneThread.needsPool();
                off = lane;
            } else {
                // the output goes non-blocking here, where that costs nothing (ResponseOutput)
                try {
                    ResponseOutput.prepare(async);
                } catch (IOException | IllegalStateException e) {
                    LOG.debug("The client left before its answer began: {}", e.toString());
                }
            }
            hop(req, async, off, same -> pending(req, resp, same, pending, sessionId, caller, streams, true), pending);
            return;
        }
        if (lane == null && pending.exchange().quick() && !LISTENING.contains(method)) {
            LaneThread.waitsOnNothing(); // this connection's next request may start on the lane again
        }
        pending(req, resp, async, pending, sessionId, caller, streams, here);
    }

    // --- the core lane ---------------------------------------------------------------------------

    /**
     * Whether the servlet container has this servlet in service (between {@code init} and {@code destroy}): the
     * core lane serves only what the servlet would, so nothing while it is withdrawn, shadowed or not yet there.
     */
    private final transient AtomicInteger inService = new AtomicInteger();

    @Override
    public void init() {
        inService.incrementAndGet();
    }

    @Override
    public void destroy() {
        inService.decrementAndGet();
    }

    /** Notes the connectors of a server Felix HTTP has just started ({@link HeaderGuard}). */
    void watchServer(Object server) {
        headers.watchServer(server);
    }

    /** Notes the connector a request the core lane looked at came through ({@link HeaderGuard}). */
    void observe(Object connector) {
        headers.observe(connector);
    }

    /**
     * The caller of a POST the core lane may serve, or null: the request takes the servlet untouched, or,
     * refused by the guards every request passes ({@link #admission}), it has been answered here as the servlet
     * answers that, without reading its body. Served there: those guards passed, a credential (if one is asked
     * for) checked without waiting, and a JSON body of a declared length within {@code maxBodyBytes}; the rest
     * of the POST's checks are the servlet's to answer.
     */
    CallerIdentity fastCaller(FastPost post, String path, String query, long length) {
        HttpConfig c = config;
        if (!c.coreLane() || inService.get() <= 0 || endpoints == null) {
            return null;
        }
        Admission admission = admission(post::header, path, query, post.remoteAddr(),
                () -> gate.metadataUrl(gate.resource(post.scheme(), post.authority(), path)), true);
        if (admission instanceof Refused refused) {
            post.answer(refused.status(), refused.challenge() == null ? Map.of("Connection", "close")
                    : Map.of("WWW-Authenticate", refused.challenge(), "Connection", "close"),
                    MediaTypes.JSON, engine.errorResponse(refused.code(), refused.message()), null);
            return null;
        }
        String accept = post.header("Accept");
        if (admission == null || length <= 0 || length > c.maxBodyBytes() || length > Integer.MAX_VALUE - 8
                || post.header("Expect") != null || !MediaTypes.accepts(accept, MediaTypes.JSON)
                || !MediaTypes.accepts(accept, MediaTypes.SSE) || !MediaTypes.isJson(post.header("Content-Type"))
                || post.header("Content-Encoding") != null) {
            return null; // an authenticator that may wait (checked off the lane), or what the servlet answers
        }
        return ((Admitted) admission).caller();
    }

    /**
     * The deadline of a body the core lane waits for, as for one the servlet reads: {@code expired} runs after
     * {@code bodyTimeoutMs} unless the future is cancelled first.
     */
    ScheduledFuture<?> bodyDeadline(Runnable expired) {
        return timer.schedule(expired, config.bodyTimeoutMs(), TimeUnit.MILLISECONDS);
    }

    /**
     * Answers a POST whose body did not arrive within {@code bodyTimeoutMs}, as the servlet does: 408, closed; counted
     * against the caller's rate as the servlet counts every request it reads.
     */
    /** The core lane's body that was not HTTP: 400, the connection closed. */
    void fastMalformed(FastPost post) {
        post.answer(HttpServletResponse.SC_BAD_REQUEST, Map.of("Connection", "close"), MediaTypes.JSON,
                engine.errorResponse(HttpErrors.PARSE_ERROR, HttpErrors.MALFORMED), null);
    }

    void fastTooSlow(FastPost post, CallerIdentity caller) {
        HttpConfig c = config;
        limits.admit(caller);
        slowBodies.warn(SLOW_BODIES, c.bodyTimeoutMs());
        post.answer(HttpServletResponse.SC_REQUEST_TIMEOUT, Map.of("Connection", "close"), MediaTypes.JSON,
                engine.errorResponse(TransportErrors.SERVER_ERROR, requestTimeout(c)), null);
    }

    /**
     * Serves a POST that {@link #fastCaller} let through, whose whole body the core lane read: what waits on
     * nothing is answered right here ({@link FastAnswer}), everything else is handed to the servlet with what
     * was done ({@link FastPost#handOver}).
     */
    void fastServe(FastPost post, byte[] body, CallerIdentity caller) {
        try {
            serveFast(post, body, caller);
        } catch (RuntimeException | Error e) {
            fastFailed(post, e);
        }
    }

    /**
     * Answers a POST of the core lane that failed unforeseen, as {@link #service} answers one of its own: 500, a
     * JSON-RPC "Internal error" and nothing of the failure (unless the answer went out already).
     */
    void fastFailed(FastPost post, Throwable e) {
        LOG.error("A POST to the MCP endpoint failed", e);
        post.answer(HttpServletResponse.SC_INTERNAL_SERVER_ERROR, Map.of("Connection", "close"), MediaTypes.JSON,
                engine.errorResponse(TransportErrors.INTERNAL_ERROR, "Internal error"), null);
    }

    private void serveFast(FastPost post, byte[] body, CallerIdentity caller) {
        // counted here, once: the servlet does not count a request the core lane hands over
        long wait = limits.admit(caller);
        if (wait > 0) {
            post.answer(TOO_MANY_REQUESTS, Map.of("Retry-After", Long.toString(wait), "Connection", "close"), MediaTypes.JSON,
                    engine.errorResponse(TransportErrors.SERVER_ERROR, overRate(wait)), null);
            return;
        }
        String sessionId = trimmed(post.header(SESSION_HEADER));
        Inbound inbound = new Inbound(sessionId, trimmed(post.header(VERSION_HEADER)), caller, post.headers(),
                post.remoteAddr());
        Receipt receipt = engine.receiveNow(body, inbound);
        if (receipt == null) {
            post.handOver(new FastPost.Handover(body, caller, null));
            return;
        }
        if (receipt instanceof Receipt.Accepted) {
            post.answer(HttpServletResponse.SC_ACCEPTED, Map.of(), null, null, null);
            return;
        }
        if (receipt instanceof Receipt.Rejected rejected) {
            post.answer(HttpErrors.status(rejected.reason()), Map.of(), MediaTypes.JSON, rejected.body(), null);
            return;
        }
        Receipt.Pending pending = (Receipt.Pending) receipt;
        String method = pending.exchange().method();
        int counted = !pending.exchange().quick() || LISTENING.contains(method) || !budget.unsentRoom() ? -1
                : limits.enterCalls(caller, CALL.equals(method) ? 1 : 0);
        if (counted < 0) {
            // a stream, a tool that may block, clients holding too much unread, a caller at its limit: the
            // servlet's way (which asks the caller's limit again, as for any request it receives)
            post.handOver(new FastPost.Handover(body, caller, pending));
            return;
        }
        Runnable callOver = counted > 0 ? () -> limits.exitCalls(caller, counted) : null;
        if (pending.exchange().streamPolicy().cancelOnDisconnect()) {
            // as the servlet does: a client closing the connection cancels, should the answer come later
            post.watchClose(pending.exchange()::abandon);
        }
        // an initialize's new session is named while it is open when the answer goes out (a failed one closed it)
        McpSession opened = pending.exchange().streamPolicy().resumable() && sessionId == null ? pending.session() : null;
        MessageSink sink = new FastAnswer(post, () -> opened != null && opened.isOpen() ? opened.id() : null, budget);
        boolean ran = false;
        try {
            ran = pending.exchange().runNow(callOver == null ? sink : new ReleasingSink(sink, callOver));
        } finally {
            if (!ran && callOver != null) {
                callOver.run(); // not run here (or it failed): the call's place is given back
            }
        }
        if (!ran) {
            post.handOver(new FastPost.Handover(body, caller, pending));
        }
    }

    private static String trimmed(String value) {
        return value == null || value.isBlank() ? null : value.trim();
    }

    /** How many of the methods an exchange answers (a batch's, or its one) are among {@code which}; no stream made. */
    private static int count(List<String> methods, Set<String> which) {
        int n = 0;
        for (int i = 0; i < methods.size(); i++) {
            if (which.contains(methods.get(i))) {
                n++;
            }
        }
        return n;
    }

    /** Hands the rest of a request to {@code pool}: the request goes async, and errors end it with a 500. */
    private void hop(HttpServletRequest req, AsyncContext started, Executor pool, Consumer<AsyncContext> rest) {
        hop(req, started, pool, rest, null);
    }

    /**
     * {@link #hop} of an exchange the engine received already ({@code pending}, else null): when the rest is not done
     * after all (the pool refuses it, or it fails) it is abandoned, so the session forgets its request ids, and
     * refused with its request's id.
     */
    private void hop(HttpServletRequest req, AsyncContext started, Executor pool, Consumer<AsyncContext> rest,
            Receipt.Pending pending) {
        AsyncContext async = started != null ? started : GuardedAsync.start(req);
        async.setTimeout(0);
        boolean taken = LaneThread.execute(pool, () -> {
            try {
                rest.accept(async);
            } catch (RuntimeException | Error e) {
                LOG.error("A POST to the MCP endpoint failed", e);
                ((HttpServletResponse) async.getResponse()).setHeader("Connection", "close");
                dropped(async, pending, HttpServletResponse.SC_INTERNAL_SERVER_ERROR, TransportErrors.INTERNAL_ERROR,
                        "Internal error");
            }
        });
        if (!taken) {
            dropped(async, pending, HttpServletResponse.SC_SERVICE_UNAVAILABLE, TransportErrors.SERVER_ERROR,
                    "Service Unavailable: the server is too busy; try again shortly");
        }
    }

    private void dropped(AsyncContext async, Receipt.Pending pending, int status, int code, String message) {
        if (pending == null) {
            send(async, status, engine.errorResponse(code, message));
        } else {
            refuse(async, pending, status, code, message);
        }
    }

    private void pending(HttpServletRequest req, HttpServletResponse resp, AsyncContext async, Receipt.Pending pending,
            String sessionId, CallerIdentity caller, boolean streams, boolean here) {
        HttpConfig c = config;
        List<String> methods = pending.exchange().methods();
        // the further requests of a JSON-RPC batch count against the caller's rate as the first did
        long wait = limits.admit(caller, methods.size() - 1);
        if (wait > 0) {
            ((HttpServletResponse) async.getResponse()).setHeader("Retry-After", Long.toString(wait));
            refuse(async, pending, TOO_MANY_REQUESTS, TransportErrors.SERVER_ERROR, overRate(wait));
            return;
        }
        int calls = limits.enterCalls(caller, count(methods, CALLS));
        if (calls < 0) {
            ((HttpServletResponse) async.getResponse()).setHeader("Retry-After", "1");
            refuse(async, pending, TOO_MANY_REQUESTS, TransportErrors.SERVER_ERROR, "Too Many Requests: this caller has "
                    + config.maxConcurrentCallsPerSubject() + " tool calls in progress, the most it may; try again shortly");
            return;
        }
        Runnable callOver = calls > 0 ? () -> limits.exitCalls(caller, calls) : null;
        StreamPolicy policy = pending.exchange().streamPolicy();
        if (!policy.resumable()) {
            postAlone(async, pending, policy, streams, here, callOver, caller);
            return;
        }
        McpSession session = pending.session();
        SessionStreams sessionStreams = streamsOf(session);
        StreamBudget.Ticket ticket = null;
        if (streams) {
            ticket = budget.response(sessionStreams, c.maxStreamsPerSession(), false);
            if (ticket == null) {
                if (callOver != null) {
                    callOver.run();
                }
                refuse(async, pending, HttpServletResponse.SC_SERVICE_UNAVAILABLE, TransportErrors.SERVER_ERROR,
                        streamsFull(c));
                return;
            }
        }
        if (sessionId == null) {
            resp.setHeader(SESSION_HEADER, session.id());
        }
        // an initialize (no session id yet) is never primed: its client has nothing to resume with
        boolean prime = policy.prime() && sessionId != null;
        PostResponse response = new PostResponse(async, sessionStreams, budget, ticket, c.sseRetryMs(), prime, null);
        if (streams) {
            response.streamNow();
            if (policy.pollable() && sessionId != null && c.ssePollingMs() > 0) {
                timer.schedule(response::hangUp, c.ssePollingMs(), TimeUnit.MILLISECONDS);
            }
        }
        serve(pending, sessionId == null ? new NewSessionAnswer(response, session, resp) : response, here, callOver);
    }

    /** Starts the exchange; {@code over} (if any) runs once when its answer is given. */
    private void serve(Receipt.Pending pending, MessageSink response, boolean here, Runnable over) {
        MessageSink sink = over == null ? response : new ReleasingSink(response, over);
        Executor lane = LaneThread.pool();
        if (lane != null) {
            // on the thread that read it when it waits on nothing, else on a call thread (one hand-off),
            // while the lane reads on
            if (pending.exchange().runNow(sink)) {
                return;
            }
            if (!LaneThread.execute(calls, () -> runSeated(pending, sink))) {
                pending.exchange().start(sink); // the call pool's queue is full: the engine's own threads, with their limits
            }
        } else if (here) {
            runSeated(pending, sink);
        } else {
            pending.exchange().start(sink);
        }
    }

    /**
     * Runs the exchange on this thread; on a call thread, one answered from elsewhere while this thread stays
     * in it (a tool that ignores its timeout's interrupt) gives its place in the pool to another.
     */
    private void runSeated(Receipt.Pending pending, MessageSink sink) {
        CallPool.Seat seat = calls.seat();
        pending.exchange().run(seat == null ? sink : seat.watching(sink));
    }

    private String streamsFull(HttpConfig c) {
        return "Service Unavailable: too many open streams (at most " + maxStreams + ", "
                + c.maxStreamsPerSession() + " per session); try again later";
    }

    /**
     * A request whose stream is not resumable (the stateless era): JSON unless notifications come
     * first, no event ids, no resumption; where the policy says so, the client closing the stream
     * cancels the request.
     */
    private void postAlone(AsyncContext async, Receipt.Pending pending, StreamPolicy policy, boolean streams,
            boolean here, Runnable callOver, CallerIdentity caller) {
        HttpConfig c = config;
        StreamBudget.Ticket ticket = null;
        if (streams && LISTENING.contains(pending.exchange().method())) {
            ticket = budget.lasting(null, maxStreams, 0);
            if (ticket == null) {
                refuse(async, pending, HttpServletResponse.SC_SERVICE_UNAVAILABLE, TransportErrors.SERVER_ERROR,
                        streamsFull(c));
                return;
            }
        }
        SessionStreams own = new SessionStreams(false, 1, c.sseBufferEvents());
        Runnable lost = policy.cancelOnDisconnect() ? () -> {
            stateless.remove(own);
            pending.exchange().abandon();
        } : () -> stateless.remove(own);
        stateless.put(own, lost);
        PostResponse response = new PostResponse(async, own, budget, ticket, c.sseRetryMs(), policy.prime(), lost);
        async.addListener(new AsyncListener() {
            @Override
            public void onComplete(AsyncEvent event) {
                if (response.over()) {
                    stateless.remove(own);
                } else {
                    // ended with no answer written: a write of Jetty's own failed (a keep-alive's comment), the
                    // client is gone, and the request is cancelled as when a write of the exchange finds that
                    lost.run();
                }
            }

            @Override
            public void onTimeout(AsyncEvent event) {
                // no timeout is set
            }

            @Override
            public void onError(AsyncEvent event) {
                lost.run();
            }

            @Override
            public void onStartAsync(AsyncEvent event) {
                // not restarted
            }
        });
        if (ticket != null) {
            // a listen stream lasts as a GET stream does: its credential is checked again while it stays open
            HttpServletRequest req = (HttpServletRequest) async.getRequest();
            streamCredentials.hold(own, () -> stateless.containsKey(own), () -> {
                stateless.remove(own);
                pending.exchange().abandon(); // the engine forgets the listener: nothing more is sent to it
                response.complete(null);
            }, header(req, "Authorization"), req.getRemoteAddr(), caller);
        }
        if (policy.cancelOnDisconnect() && JettyWired.WIRED) {
            // before the exchange can end, which ends the watch: a client closing the connection cancels
            // at once, also while nothing is written (a tool at work, a quiet listen stream)
            JettyWired.watchClose(async.getRequest(), lost);
        }
        serve(pending, response, here, callOver);
    }

    private static Map<String, String> headers(HttpServletRequest req) {
        Map<String, String> headers = new HashMap<>();
        if (JettyWired.WIRED && JettyWired.headers(req, headers)) {
            return headers;
        }
        for (Enumeration<String> names = req.getHeaderNames(); names.hasMoreElements();) {
            String name = names.nextElement();
            for (Enumeration<String> values = req.getHeaders(name); values.hasMoreElements();) {
                headers.merge(name.toLowerCase(Locale.ROOT), values.nextElement(), HttpHeaders::joined);
            }
        }
        return headers;
    }

    // --- GET -----------------------------------------------------------------------------------

    private void get(HttpServletRequest req, HttpServletResponse resp, CallerIdentity caller) throws IOException {
        if (!MediaTypes.accepts(req.getHeader("Accept"), MediaTypes.SSE)) {
            fail(resp, HttpServletResponse.SC_NOT_ACCEPTABLE, TransportErrors.SERVER_ERROR,
                    "Not Acceptable: the client must accept text/event-stream");
            return;
        }
        McpSession session = session(req, resp, caller);
        if (session == null) {
            return;
        }
        HttpConfig c = config;
        SessionStreams sessionStreams = streamsOf(session);
        String lastEventId = header(req, "Last-Event-ID");
        SseStream resumed = null;
        long after = -1;
        if (lastEventId != null) {
            int dash = lastEventId.lastIndexOf('-');
            if (dash > 0) {
                resumed = sessionStreams.get(lastEventId.substring(0, dash));
                try {
                    after = Long.parseLong(lastEventId.substring(dash + 1));
                } catch (NumberFormatException e) {
                    resumed = null;
                }
            }
        }
        StreamBudget.Ticket ticket = budget.lasting(sessionStreams, maxStreams, c.maxStreamsPerSession());
        if (ticket == null && resumed == null) {
            StandaloneStream held = standalone.get(session.id());
            if (held != null && held.holdsStream()) {
                // the session takes its own stream over (it believes it lost): the old one ends below, and its
                // place comes back, so a server at its limit does not leave the session without notifications
                ticket = budget.lastingInPlace(sessionStreams);
            }
        }
        if (ticket == null) {
            fail(resp, HttpServletResponse.SC_SERVICE_UNAVAILABLE, TransportErrors.SERVER_ERROR, streamsFull(c));
            return;
        }
        if (resumed != null) {
            AsyncContext async = openSse(req, resp, ticket);
            Connection connection = connect(async, ticket);
            if (connection != null) {
                async.addListener(new StreamListener(resumed, connection));
                resumed.resume(connection, after);
                // held once attached: a round ending it before would find another connection live, and end nothing
                streamCredentials.hold(resumed, connection, header(req, "Authorization"), req.getRemoteAddr(), caller);
            }
            return;
        }
        StandaloneStream current = standalone.computeIfAbsent(session.id(), id -> new StandaloneStream());
        SseStream stream = current.open(session, sessionStreams);
        if (stream == null) { // closed meanwhile
            ticket.release();
            fail(resp, HttpServletResponse.SC_NOT_FOUND, TransportErrors.SESSION_NOT_FOUND, "Session not found");
            return;
        }
        AsyncContext async = openSse(req, resp, ticket);
        Connection connection = connect(async, ticket);
        if (connection != null) {
            async.addListener(new StreamListener(stream, connection));
            stream.open(connection, c.sseRetryMs(), session.streamPolicy().prime());
            streamCredentials.hold(stream, connection, header(req, "Authorization"), req.getRemoteAddr(), caller);
        }
    }

    /** The connection of a stream, or null (its ticket given back) when the client already left. */
    private static Connection connect(AsyncContext async, StreamBudget.Ticket ticket) {
        try {
            return new Connection(async, ticket);
        } catch (IOException | IllegalStateException e) {
            ticket.release();
            try {
                async.complete();
            } catch (IllegalStateException ignored) {
                // completed already
            }
            return null;
        }
    }

    /** Starts a stream's response; when that fails (the client left meanwhile), its place is given back first. */
    private AsyncContext openSse(HttpServletRequest req, HttpServletResponse resp, StreamBudget.Ticket ticket)
            throws IOException {
        try {
            Connection.prepare(resp);
            AsyncContext async = GuardedAsync.start(req);
            async.setTimeout(0);
            resp.flushBuffer();
            return async;
        } catch (IOException | RuntimeException e) {
            ticket.release();
            throw e;
        }
    }

    // --- DELETE --------------------------------------------------------------------------------

    private void delete(HttpServletRequest req, HttpServletResponse resp, CallerIdentity caller) throws IOException {
        McpSession session = session(req, resp, caller);
        if (session == null) {
            return;
        }
        session.close();
        resp.setStatus(HttpServletResponse.SC_OK);
    }

    // -------------------------------------------------------------------------------------------

    /**
     * The live session a GET or DELETE names, or null after answering the error. A session belongs to
     * the caller that opened it: to anyone else it does not exist. A request naming a revision without
     * sessions gets 405.
     */
    private McpSession session(HttpServletRequest req, HttpServletResponse resp, CallerIdentity caller)
            throws IOException {
        String version = header(req, VERSION_HEADER);
        if (version != null && !engine.supportedVersions().contains(version)) {
            fail(resp, HttpServletResponse.SC_BAD_REQUEST, TransportErrors.INVALID_REQUEST,
                    "Bad Request: unsupported protocol version " + version);
            return null;
        }
        if (version != null && !engine.hasSessions(version)) {
            // a revision without sessions has no GET stream and nothing to DELETE: whatever session id comes along
            // is ignored, as its POSTs ignore it
            resp.setHeader("Allow", "POST");
            fail(resp, HttpServletResponse.SC_METHOD_NOT_ALLOWED, TransportErrors.INVALID_REQUEST, "Method Not Allowed: "
                    + req.getMethod() + " serves protocol versions with sessions; " + version
                    + " has none, each of its requests is a POST");
            return null;
        }
        String id = header(req, SESSION_HEADER);
        if (id == null) {
            fail(resp, HttpServletResponse.SC_BAD_REQUEST, TransportErrors.INVALID_REQUEST,
                    "Bad Request: Mcp-Session-Id header is required");
            return null;
        }
        McpSession session = engine.session(id).filter(s -> s.caller().samePrincipal(caller)).orElse(null);
        if (session == null) {
            fail(resp, HttpServletResponse.SC_NOT_FOUND, TransportErrors.SESSION_NOT_FOUND, "Session not found");
        }
        return session;
    }

    private SessionStreams streamsOf(McpSession session) {
        return streams.computeIfAbsent(session.id(), id -> {
            HttpConfig c = config;
            SessionStreams created = new SessionStreams(c.sseRetainedStreams(), c.sseBufferEvents());
            session.onClose(() -> {
                streams.remove(id);
                StandaloneStream s = standalone.remove(id);
                if (s != null) {
                    s.close();
                }
                created.closeAll();
            });
            return created;
        });
    }

    /**
     * Refuses a request whose body was not read: the connection is closed after the answer, so no
     * client reuses a connection that still carries (or that the container dropped with) that body.
     */
    private void refuseUnread(HttpServletRequest req, HttpServletResponse resp, int status, int code, String message)
            throws IOException {
        resp.setHeader("Connection", "close");
        if (LaneThread.here()) {
            HttpErrors.sendWithoutBlocking(GuardedAsync.start(req), status, engine.errorResponse(code, message));
            return;
        }
        fail(resp, status, code, message);
    }

    private void fail(HttpServletResponse resp, int status, int code, String message) throws IOException {
        HttpErrors.send(resp, status, engine.errorResponse(code, message));
    }

    /** Answers an async request with an error and completes it; {@code close}: the connection ends after it. */
    private void finish(AsyncContext async, int status, int code, String message, boolean close) {
        HttpServletResponse resp = (HttpServletResponse) async.getResponse();
        if (close) {
            resp.setHeader("Connection", "close");
        }
        send(async, status, engine.errorResponse(code, message));
    }

    /**
     * Answers a request the engine took but the transport does not serve after all (a limit of the transport's is
     * reached) with an error carrying the request's id; the exchange is abandoned first, so the engine forgets it.
     */
    private void refuse(AsyncContext async, Receipt.Pending pending, int status, int code, String message) {
        pending.exchange().abandon();
        byte[] refusal = pending.exchange().refusal(code, message);
        send(async, status, refusal != null ? refusal : engine.errorResponse(code, message));
    }

    /** On any thread: a client that does not read holds its answer, not the thread. */
    private static void send(AsyncContext async, int status, byte[] body) {
        HttpErrors.sendWithoutBlocking(async, status, body);
    }

    /** A header's value; a repeated one's values joined ({@link HttpHeaders#joined}), as the lanes read them. */
    private static String header(HttpServletRequest req, String name) {
        Enumeration<String> values = req.getHeaders(name);
        String all = values.hasMoreElements() ? values.nextElement() : null;
        while (values.hasMoreElements()) {
            all = HttpHeaders.joined(all, values.nextElement());
        }
        return trimmed(all);
    }


    /**
     * Keeps idle streams alive and finds stateless requests whose client left; has the streams whose credential is
     * not accepted any more ended.
     */
    void keepAlive() {
        streamCredentials.recheck();
        for (Map.Entry<SessionStreams, Runnable> own : stateless.entrySet()) {
            for (SseStream stream : own.getKey().all()) {
                if (stream.keepAlive()) {
                    own.getValue().run();
                }
            }
        }
        for (SessionStreams sessionStreams : streams.values()) {
            for (SseStream stream : sessionStreams.all()) {
                stream.keepAlive();
            }
        }
    }

    /** An authenticator came or went: the streams' credentials are checked again now, not at the next tick. */
    void recheckStreams() {
        streamCredentials.recheck();
    }

    void closeAll() {
        streamCredentials.close();
        calls.close();
        stateless.keySet().forEach(SessionStreams::closeAll);
        stateless.clear();
        standalone.values().forEach(StandaloneStream::close);
        standalone.clear();
        streams.values().forEach(SessionStreams::closeAll);
        streams.clear();
    }
}
