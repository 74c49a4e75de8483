package io.quiver.transport.http.internal;

import io.quiver.api.CallerIdentity;
import io.quiver.api.transport.Inbound;
import io.quiver.api.transport.McpEngine;
import io.quiver.api.transport.McpSession;
import io.quiver.api.transport.Receipt;
import jakarta.servlet.AsyncContext;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The MCP endpoint: POST carries messages in, GET opens or resumes a session's SSE stream,
 * DELETE ends a session. Everything about the protocol itself is the engine's.
 */
final class McpServlet extends HttpServlet {

    private static final long serialVersionUID = 1L;
    static final String SESSION_HEADER = "Mcp-Session-Id";
    static final String VERSION_HEADER = "MCP-Protocol-Version";

    private final transient McpEngine engine;
    private final transient HttpTransportSettings settings;
    private final transient RequestGuard guard;
    private final transient Map<String, SessionStreams> streams = new ConcurrentHashMap<>();
    private final transient Map<String, StandaloneStream> standalone = new ConcurrentHashMap<>();
    /** Streams of stateless requests, with what to do when their client is found gone. */
    private final transient Map<SessionStreams, Runnable> stateless = new ConcurrentHashMap<>();

    private final transient ScheduledExecutorService timer;

    McpServlet(McpEngine engine, HttpTransportSettings settings, ScheduledExecutorService timer) {
        this.engine = engine;
        this.settings = settings;
        this.timer = timer;
        this.guard = new RequestGuard(settings.allowedHosts(), settings.allowedOrigins());
    }

    @Override
    protected void service(HttpServletRequest req, HttpServletResponse resp) throws IOException {
        if (!guard.hostAllowed(req.getHeader("Host"))) {
            refuseUnread(resp, HttpServletResponse.SC_FORBIDDEN, -32000, "Forbidden: Host not allowed");
            return;
        }
        if (!guard.originAllowed(req.getHeader("Origin"))) {
            refuseUnread(resp, HttpServletResponse.SC_FORBIDDEN, -32000, "Forbidden: Origin not allowed");
            return;
        }
        switch (req.getMethod()) {
            case "POST" -> post(req, resp);
            case "GET" -> get(req, resp);
            case "DELETE" -> delete(req, resp);
            default -> {
                resp.setHeader("Allow", "GET, POST, DELETE");
                refuseUnread(resp, HttpServletResponse.SC_METHOD_NOT_ALLOWED, -32000, "Method not allowed");
            }
        }
    }

    // --- POST ----------------------------------------------------------------------------------

    private void post(HttpServletRequest req, HttpServletResponse resp) throws IOException {
        String accept = req.getHeader("Accept");
        if (!MediaTypes.accepts(accept, MediaTypes.JSON) || !MediaTypes.accepts(accept, MediaTypes.SSE)) {
            refuseUnread(resp, HttpServletResponse.SC_NOT_ACCEPTABLE, -32000,
                    "Not Acceptable: the client must accept both application/json and text/event-stream");
            return;
        }
        if (!MediaTypes.isJson(req.getContentType())) {
            refuseUnread(resp, HttpServletResponse.SC_UNSUPPORTED_MEDIA_TYPE, -32000,
                    "Unsupported Media Type: the body must be application/json");
            return;
        }
        byte[] body = readBody(req);
        if (body == null) {
            refuseUnread(resp, HttpServletResponse.SC_REQUEST_ENTITY_TOO_LARGE, -32000,
                    "Payload Too Large: the limit is " + settings.maxBodyBytes() + " bytes");
            return;
        }
        Inbound inbound = new Inbound(header(req, SESSION_HEADER), header(req, VERSION_HEADER), caller(req),
                headers(req));
        Receipt receipt = engine.receive(body, inbound);
        if (receipt instanceof Receipt.Accepted) {
            resp.setStatus(HttpServletResponse.SC_ACCEPTED);
            return;
        }
        if (receipt instanceof Receipt.Rejected rejected) {
            HttpErrors.send(resp, HttpErrors.status(rejected.reason()), rejected.body());
            return;
        }
        Receipt.Pending pending = (Receipt.Pending) receipt;
        McpSession session = pending.session();
        if (session == null) {
            postStateless(req, pending);
            return;
        }
        SessionStreams sessionStreams = streamsOf(session);
        if (inbound.sessionId() == null) {
            resp.setHeader(SESSION_HEADER, session.id());
        }
        AsyncContext async = req.startAsync();
        async.setTimeout(0);
        boolean prime = supportsPriming(pending.exchange().protocolVersion(), inbound.sessionId() != null);
        PostResponse response = new PostResponse(async, sessionStreams, settings.retryMs(), prime, null);
        if (settings.sseMethods().contains(pending.exchange().method())) {
            response.streamNow();
            if (prime && settings.ssePollingMs() > 0) {
                timer.schedule(response::hangUp, settings.ssePollingMs(), TimeUnit.MILLISECONDS);
            }
        }
        pending.exchange().start(response);
    }

    /**
     * A 2026-07-28 request: JSON unless notifications come first, no event ids or priming, no
     * resumption; the client closing the stream cancels the request.
     */
    private void postStateless(HttpServletRequest req, Receipt.Pending pending) {
        AsyncContext async = req.startAsync();
        async.setTimeout(0);
        SessionStreams own = new SessionStreams(1, settings.bufferEvents());
        Runnable lost = () -> {
            stateless.remove(own);
            pending.exchange().abandon();
        };
        stateless.put(own, lost);
        PostResponse response = new PostResponse(async, own, settings.retryMs(), false, lost);
        async.addListener(new jakarta.servlet.AsyncListener() {
            @Override
            public void onComplete(jakarta.servlet.AsyncEvent event) {
                stateless.remove(own);
            }

            @Override
            public void onTimeout(jakarta.servlet.AsyncEvent event) {
            }

            @Override
            public void onError(jakarta.servlet.AsyncEvent event) {
                lost.run();
            }

            @Override
            public void onStartAsync(jakarta.servlet.AsyncEvent event) {
            }
        });
        pending.exchange().start(response);
    }

    private static Map<String, String> headers(HttpServletRequest req) {
        Map<String, String> headers = new java.util.HashMap<>();
        for (java.util.Enumeration<String> names = req.getHeaderNames(); names.hasMoreElements();) {
            String name = names.nextElement();
            headers.putIfAbsent(name.toLowerCase(java.util.Locale.ROOT), req.getHeader(name));
        }
        return headers;
    }

    private byte[] readBody(HttpServletRequest req) throws IOException {
        long max = settings.maxBodyBytes();
        if (req.getContentLengthLong() > max) {
            return null;
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] chunk = new byte[8192];
        try (InputStream in = req.getInputStream()) {
            int n;
            while ((n = in.read(chunk)) >= 0) {
                if (out.size() + n > max) {
                    return null;
                }
                out.write(chunk, 0, n);
            }
        }
        return out.toByteArray();
    }

    // --- GET -----------------------------------------------------------------------------------

    private void get(HttpServletRequest req, HttpServletResponse resp) throws IOException {
        if (!MediaTypes.accepts(req.getHeader("Accept"), MediaTypes.SSE)) {
            fail(resp, HttpServletResponse.SC_NOT_ACCEPTABLE, -32000,
                    "Not Acceptable: the client must accept text/event-stream");
            return;
        }
        McpSession session = session(req, resp);
        if (session == null) {
            return;
        }
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
        if (resumed != null) {
            AsyncContext async = openSse(req, resp);
            Connection connection = new Connection(async);
            async.addListener(new StreamListener(resumed, connection));
            resumed.resume(connection, after);
            return;
        }
        StandaloneStream current = standalone.computeIfAbsent(session.id(), id -> new StandaloneStream());
        SseStream stream = current.open(session, sessionStreams);
        if (stream == null) {
            fail(resp, HttpServletResponse.SC_CONFLICT, -32000,
                    "Conflict: this session already has an open stream");
            return;
        }
        AsyncContext async = openSse(req, resp);
        Connection connection = new Connection(async);
        async.addListener(new StreamListener(stream, connection));
        stream.open(connection, settings.retryMs(), supportsPriming(session.protocolVersion(), true));
    }

    private AsyncContext openSse(HttpServletRequest req, HttpServletResponse resp) throws IOException {
        resp.setStatus(HttpServletResponse.SC_OK);
        resp.setContentType(MediaTypes.SSE);
        resp.setCharacterEncoding("UTF-8");
        resp.setHeader("Cache-Control", "no-cache, no-transform");
        resp.setHeader("X-Accel-Buffering", "no");
        AsyncContext async = req.startAsync();
        async.setTimeout(0);
        resp.flushBuffer();
        return async;
    }

    // --- DELETE --------------------------------------------------------------------------------

    private void delete(HttpServletRequest req, HttpServletResponse resp) throws IOException {
        McpSession session = session(req, resp);
        if (session == null) {
            return;
        }
        session.close();
        resp.setStatus(HttpServletResponse.SC_OK);
    }

    // -------------------------------------------------------------------------------------------

    /** The live session a GET or DELETE names, or null after answering the error. */
    private McpSession session(HttpServletRequest req, HttpServletResponse resp) throws IOException {
        String version = header(req, VERSION_HEADER);
        if (version != null && !engine.supportedVersions().contains(version)) {
            fail(resp, HttpServletResponse.SC_BAD_REQUEST, -32600,
                    "Bad Request: unsupported protocol version " + version);
            return null;
        }
        String id = header(req, SESSION_HEADER);
        if (id == null) {
            fail(resp, HttpServletResponse.SC_BAD_REQUEST, -32600,
                    "Bad Request: Mcp-Session-Id header is required");
            return null;
        }
        McpSession session = engine.session(id).orElse(null);
        if (session == null) {
            fail(resp, HttpServletResponse.SC_NOT_FOUND, -32001, "Session not found");
        }
        return session;
    }

    private SessionStreams streamsOf(McpSession session) {
        return streams.computeIfAbsent(session.id(), id -> {
            SessionStreams created = new SessionStreams(settings.retainedStreams(), settings.bufferEvents());
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

    /** SSE priming events (empty data) confuse clients older than 2025-11-25. */
    private static boolean supportsPriming(String version, boolean known) {
        return known && version != null && version.compareTo("2025-11-25") >= 0;
    }

    /**
     * Refuses a request whose body was not read: the connection is closed after the answer, so no
     * client reuses a connection that still carries (or that the container dropped with) that body.
     */
    private void refuseUnread(HttpServletResponse resp, int status, int code, String message) throws IOException {
        resp.setHeader("Connection", "close");
        fail(resp, status, code, message);
    }

    private void fail(HttpServletResponse resp, int status, int code, String message) throws IOException {
        HttpErrors.send(resp, status, engine.errorResponse(code, message));
    }

    private static String header(HttpServletRequest req, String name) {
        String value = req.getHeader(name);
        return value == null || value.isBlank() ? null : value.trim();
    }

    private static CallerIdentity caller(HttpServletRequest req) {
        return CallerIdentity.ANONYMOUS;
    }

    void keepAlive() {
        for (Map.Entry<SessionStreams, Runnable> own : stateless.entrySet()) {
            for (SseStream stream : own.getKey().all()) {
                stream.keepAlive();
                if (!stream.finished() && !stream.connected()) {
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

    void closeAll() {
        stateless.keySet().forEach(SessionStreams::closeAll);
        stateless.clear();
        standalone.values().forEach(StandaloneStream::close);
        standalone.clear();
        streams.values().forEach(SessionStreams::closeAll);
        streams.clear();
    }

}
