package io.quiver.transport.http.internal;

import io.quiver.api.CallerIdentity;
import io.quiver.api.transport.Receipt;
import java.io.ByteArrayOutputStream;
import java.net.Inet4Address;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledFuture;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpMethod;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.handler.ContextHandler;
import org.eclipse.jetty.server.handler.ContextHandlerCollection;
import org.eclipse.jetty.server.handler.SizeLimitHandler;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.thread.Invocable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * MCP POSTs answered by a Jetty core handler on the selector lane, ahead of the servlet: the servlet stack
 * (Felix's dispatch, the servlet request and response, their output) costs about a third of a trivial call,
 * more than the whole of Quiver's engine. A context at {@code /} placed before Felix's servlet context takes
 * a POST read on the lane when {@link McpServlet#fastCaller} admits it (every guard passed, its credential, if the
 * server asks for one, checked without waiting, a declared length within the limit) and reads its body as it
 * arrives, holding no thread while it waits ({@link BodyWait}); the servlet's own rules then serve it
 * ({@link McpServlet#fastServe}): what waits on nothing is answered here, the rest is handed to the servlet with what was done
 * ({@link FastPost.Handover}, a request attribute), which goes on from there. Every other request, and every
 * one when {@code coreLane} is false, passes untouched to Felix's context.
 */
final class CoreLane extends Handler.Abstract.NonBlocking {

    private static final Logger LOG = LoggerFactory.getLogger(CoreLane.class);

    private final McpServlet servlet;
    private final Handler servletContext;

    private CoreLane(McpServlet servlet, Handler servletContext) {
        this.servlet = servlet;
        this.servletContext = servletContext;
    }

    /**
     * Places the lane's context before Felix's servlet context at {@code /}; null (and nothing changed) where
     * there is no such context, or the servlet is not there yet.
     *
     * @return what {@link #remove} takes away again
     */
    static ContextHandler install(Server server, McpServlet servlet) {
        if (servlet == null) {
            return null;
        }
        ContextHandlerCollection contexts = server.getDescendant(ContextHandlerCollection.class);
        if (contexts == null) {
            return null;
        }
        Handler root = null;
        for (Handler handler : contexts.getHandlers()) {
            if (handler instanceof ContextHandler context && "/".equals(context.getContextPath())) {
                root = handler;
            }
        }
        if (root == null) {
            LOG.info("No servlet context at /: MCP requests take the servlet");
            return null;
        }
        if (root instanceof Handler.Container container && container.getDescendant(SizeLimitHandler.class) != null) {
            LOG.info("Felix HTTP limits request sizes (requestSizeLimit, responseSizeLimit): MCP requests take the servlet");
            return null;
        }
        ContextHandler lane = new ContextHandler(new CoreLane(servlet, root), "/");
        lane.setDisplayName("quiver-core-lane");
        lane.setServer(server);
        try {
            lane.start();
            List<Handler> handlers = new ArrayList<>();
            handlers.add(lane);
            handlers.addAll(contexts.getHandlers());
            contexts.setHandlers(handlers);
            return lane;
        } catch (Exception e) {
            LOG.warn("The core lane could not be placed; MCP requests take the servlet", e);
            return null;
        }
    }

    /** Whether a core lane is placed in the server already (by another lane connector). */
    static boolean placed(Server server) {
        ContextHandlerCollection contexts = server.getDescendant(ContextHandlerCollection.class);
        if (contexts == null) {
            return false;
        }
        for (Handler handler : contexts.getHandlers()) {
            if (handler instanceof ContextHandler context && context.getHandler() instanceof CoreLane) {
                return true;
            }
        }
        return false;
    }

    /** Takes the lane's context away again. */
    static void remove(Server server, ContextHandler lane) {
        ContextHandlerCollection contexts = server.getDescendant(ContextHandlerCollection.class);
        try {
            if (contexts != null && contexts.getHandlers().contains(lane)) {
                contexts.removeHandler(lane);
            }
            lane.stop();
        } catch (Exception e) {
            LOG.debug("Taking the core lane away: {}", e.toString());
        }
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
        if (!LaneThread.here() || !HttpMethod.POST.is(request.getMethod())
                || request.getHeaders().contains(HttpHeader.ORIGIN)) {
            return false; // a page in a browser (its answer carries CORS headers): the servlet's
        }
        servlet.observe(request.getConnectionMetaData().getConnector());
        long length;
        try {
            length = request.getHeaders().getLongField(HttpHeader.CONTENT_LENGTH);
        } catch (NumberFormatException e) {
            return false;
        }
        Post post = new Post(request, response, callback);
        CallerIdentity caller = servlet.fastCaller(post, Request.getPathInContext(request), request.getHttpURI().getQuery(),
                length);
        if (caller == null) {
            return post.answered(); // refused for its credential right here, or the servlet's
        }
        Body body = new Body(length);
        if (body.take(request)) {
            try {
                proceed(post, body, caller);
            } catch (Throwable e) {
                failed(post, e);
            }
        } else {
            // the rest of the body is still on its way (a client that writes the headers first, such as Java's
            // HttpClient): waited for without a thread, and served on the thread that reads it
            new BodyWait(post, body, caller).start();
        }
        return true;
    }

    /** Serves a POST whose body's fate is known: the whole body, a shorter one, or a failed read. */
    private void proceed(Post post, Body body, CallerIdentity caller) throws Exception {
        Request request = post.request;
        if (body.failure != null) {
            // the connection timed out (answered as a body too slow, as the servlet would), or the client went
            // away: answered here, on whichever thread noticed, which may be a timer's
            if (HttpErrors.timedOut(body.failure)) {
                servlet.fastTooSlow(post, caller);
            } else if (HttpErrors.malformed(body.failure)) {
                servlet.fastMalformed(post);
            } else {
                LOG.debug("A client went away while sending its request body: {}", body.failure.toString());
                post.callback.failed(body.failure);
            }
            return;
        }
        if (body.whole == null) {
            // shorter than declared: the servlet reads again what came, and answers
            toServlet(new Replay(original(request), body.parts == null ? null : body.parts.toByteArray()), post);
            return;
        }
        if (!body.ended) {
            // the declared length is read: one more read lets the parser end the message without touching the
            // connection, so that the connection is ready for its next request when this one completes
            Content.Chunk end = request.read();
            if (end != null) {
                end.release();
            }
        }
        servlet.fastServe(post, body.whole, caller);
        if (!post.handedOver()) {
            return;
        }
        // the servlet goes on from where this left it; should something else answer instead (another bundle's
        // filter, a size limit), the exchange the engine holds is let go
        toServlet(original(request), post);
        if (request.removeAttribute(FastPost.Handover.ATTRIBUTE) instanceof FastPost.Handover left
                && left.receipt() instanceof Receipt.Pending pending) {
            pending.exchange().abandon();
        }
    }

    /**
     * A POST that failed unforeseen: answered 500 without a word of the failure (Jetty's error page would name it),
     * unless it was answered or handed to the servlet already, whose failure then ends the exchange.
     */
    private void failed(Post post, Throwable e) {
        if (post.answered() || post.handedOver()) {
            LOG.warn("A POST to the MCP endpoint failed", e);
            post.callback.failed(e);
        } else {
            servlet.fastFailed(post, e);
        }
    }

    /**
     * Gives a request whose body this has touched to Felix's servlet context directly (the contexts after this
     * one must not see it again); what that context does not handle is a 404, as it would be.
     */
    private void toServlet(Request request, Post post) throws Exception {
        if (!servletContext.handle(request, post.response, post.callback)) {
            Response.writeError(request, post.response, post.callback, 404);
        }
    }

    /** The request as Jetty made it, outside the lane's context. */
    private static Request original(Request request) {
        return request instanceof Request.Wrapper wrapper ? wrapper.getWrapped() : request;
    }

    /** A body as the lane takes it: only what has arrived, never more than its declared length. */
    private static final class Body {
        private final long length;
        /** The whole body, once it is here. */
        byte[] whole;
        /** What came while the body came in parts. */
        ByteArrayOutputStream parts;
        /** Why the read failed: the client went away, or the connection timed out. */
        Throwable failure;
        /** Whether the message ended with the last chunk read. */
        boolean ended;

        Body(long length) {
            this.length = length;
        }

        /**
         * Reads what has arrived: true when the body's fate is known (whole, shorter than declared, or a failed
         * read), false when more has to come.
         */
        boolean take(Request request) {
            while (true) {
                Content.Chunk chunk = request.read();
                if (chunk == null) {
                    return false;
                }
                if (Content.Chunk.isFailure(chunk)) {
                    failure = chunk.getFailure();
                    return true;
                }
                ByteBuffer bytes = chunk.getByteBuffer();
                if (parts == null && bytes.remaining() >= length) {
                    whole = new byte[(int) length]; // the usual: all of it in the first chunk
                    bytes.get(whole);
                } else {
                    if (parts == null) {
                        parts = new ByteArrayOutputStream(bytes.remaining());
                    }
                    byte[] piece = new byte[(int) Math.min(bytes.remaining(), length - parts.size())];
                    bytes.get(piece);
                    parts.writeBytes(piece);
                    whole = parts.size() == length ? parts.toByteArray() : null;
                }
                ended = chunk.isLast();
                chunk.release();
                if (whole != null || ended) {
                    return true;
                }
            }
        }
    }

    /**
     * Waits for the rest of a body: asks the connection to say when more has arrived ({@code demand}) and reads
     * it on the thread that read it, marked as the lane, as the request's start was. No thread waits meanwhile;
     * a body not whole within {@code bodyTimeoutMs} is answered 408, as the servlet answers it.
     */
    private final class BodyWait implements Invocable.Task {
        private final Post post;
        private final Body body;
        private final CallerIdentity caller;
        private final Executor pool = LaneThread.pool();
        private final LaneThread.Route route = LaneThread.route();
        private ScheduledFuture<?> deadline;
        /** Whether the wait is over: the body's fate known, or the deadline passed. */
        private boolean over;

        BodyWait(Post post, Body body, CallerIdentity caller) {
            this.post = post;
            this.body = body;
            this.caller = caller;
        }

        void start() {
            synchronized (this) {
                deadline = servlet.bodyDeadline(this::expire);
            }
            try {
                post.request.demand(this); // runs this at once, on this thread, when more came meanwhile
            } catch (RuntimeException e) {
                deadline.cancel(false); // the request fails with it: nothing is left to answer late
                throw e;
            }
        }

        @Override
        public InvocationType getInvocationType() {
            return InvocationType.NON_BLOCKING; // read and served without blocking, like the request's start
        }

        @Override
        public void run() {
            LaneThread.run(pool, route, this::arrived);
        }

        private void arrived() {
            synchronized (this) {
                if (over) {
                    return; // answered 408 already: nothing more is read
                }
                if (!body.take(post.request)) {
                    post.request.demand(this);
                    return;
                }
                over = true;
            }
            deadline.cancel(false);
            try {
                proceed(post, body, caller);
            } catch (Throwable e) {
                failed(post, e);
            }
        }

        private void expire() {
            synchronized (this) {
                if (over) {
                    return;
                }
                over = true;
            }
            servlet.fastTooSlow(post, caller);
        }
    }

    /** Up to this many request headers are looked through for duplicates one by one (a client sends ~8). */
    private static final int FEW_HEADERS = 32;

    /** MCP's own request headers, by lower-case name. */
    private static final String[] MCP_HEADERS = {"mcp-session-id", "mcp-protocol-version", "mcp-method", "mcp-name",
        "last-event-id"};

    /** An IPv4 client address and its text. */
    private record AddressText(Inet4Address address, String text) {
    }

    /**
     * The last IPv4 client address served and its text: most requests come from an address seen just before, and
     * Jetty would format it anew at every request.
     */
    private static volatile AddressText lastAddress;

    /** The request as {@link McpServlet} reads and answers it here. */
    private static final class Post implements FastPost {
        private final Request request;
        private final Response response;
        private final Callback callback;
        private boolean handedOver;
        private boolean answered;

        Post(Request request, Response response, Callback callback) {
            this.request = request;
            this.response = response;
            this.callback = callback;
        }

        @Override
        public String header(String name) {
            // one scan, as HttpFields.get does; a repeated header's values joined (HttpHeaders#joined)
            HttpFields fields = request.getHeaders();
            String value = null;
            for (int i = 0, size = fields.size(); i < size; i++) {
                HttpField field = fields.getField(i);
                if (field.is(name)) {
                    String v = field.getValue() == null ? "" : field.getValue();
                    value = value == null ? v : HttpHeaders.joined(value, v);
                }
            }
            return value;
        }

        /**
         * The headers by lower-case name, a repeated one's values joined by {@code ", "} as HTTP reads them (one list:
         * a repeated {@code Mcp-Name} is then refused for not naming the body's tool, never taken by its first value
         * while a gateway read its last): as one immutable map, which {@code Inbound} keeps as it is instead of
         * copying it again, unless there are more than {@value CoreLane#FEW_HEADERS}.
         */
        @Override
        public Map<String, String> headers() {
            HttpFields fields = request.getHeaders();
            int size = fields.size();
            if (size > FEW_HEADERS) { // many (up to the header size limit): no search per name for its duplicates
                Map<String, String> headers = new HashMap<>();
                for (int i = 0; i < size; i++) {
                    HttpField field = fields.getField(i);
                    String value = field.getValue();
                    headers.merge(lowerCaseName(field), value == null ? "" : value, HttpHeaders::joined);
                }
                return headers;
            }
            @SuppressWarnings("unchecked")
            Map.Entry<String, String>[] entries = new Map.Entry[size];
            int count = 0;
            next:
            for (int i = 0; i < size; i++) {
                HttpField field = fields.getField(i);
                String name = lowerCaseName(field);
                String value = field.getValue();
                for (int j = 0; j < count; j++) {
                    if (entries[j].getKey().equals(name)) {
                        entries[j] = Map.entry(name, HttpHeaders.joined(entries[j].getValue(), value == null ? "" : value));
                        continue next;
                    }
                }
                entries[count++] = Map.entry(name, value == null ? "" : value);
            }
            return Map.ofEntries(count == size ? entries : Arrays.copyOf(entries, count));
        }

        /**
         * A header's lower-case name: Jetty's constant for a header it knows, one of ours for MCP's own; Jetty
         * would make a new string for those at every request.
         */
        private static String lowerCaseName(HttpField field) {
            if (field.getHeader() == null) {
                String name = field.getName();
                for (String known : MCP_HEADERS) {
                    if (known.equalsIgnoreCase(name)) {
                        return known;
                    }
                }
            }
            return field.getLowerCaseName();
        }

        @Override
        public String remoteAddr() {
            if (request.getConnectionMetaData().getRemoteSocketAddress() instanceof InetSocketAddress remote
                    && remote.getAddress() instanceof Inet4Address address) {
                AddressText last = lastAddress;
                if (last != null && last.address().equals(address)) {
                    return last.text();
                }
                String text = Request.getRemoteAddr(request);
                lastAddress = new AddressText(address, text);
                return text;
            }
            return Request.getRemoteAddr(request);
        }

        @Override
        public String scheme() {
            String scheme = request.getHttpURI().getScheme();
            return scheme != null ? scheme : request.isSecure() ? "https" : "http";
        }

        @Override
        public String authority() {
            String host = request.getHeaders().get(HttpHeader.HOST);
            return host != null ? host : Request.getServerName(request) + ":" + Request.getServerPort(request);
        }

        @Override
        public void watchClose(Runnable gone) {
            if (request.getConnectionMetaData().getConnection() instanceof SelectorLane.LaneConnection lane) {
                lane.watchClose(request, gone);
            }
        }

        synchronized boolean answered() {
            return answered;
        }

        @Override
        public void answer(int status, Map<String, String> extra, String contentType, byte[] body, Runnable written) {
            synchronized (this) {
                if (answered || handedOver) {
                    done(written); // one answer only (a failure after the answer, say)
                    return;
                }
                answered = true;
            }
            try {
                response.setStatus(status);
                HttpFields.Mutable headers = response.getHeaders();
                extra.forEach(headers::put);
                if (status == 503) {
                    headers.put(HttpHeader.RETRY_AFTER, Integer.toString(HttpErrors.RETRY_AFTER_SECONDS));
                }
                if (contentType != null) {
                    headers.put(HttpHeader.CONTENT_TYPE, status >= 400 ? contentType + ";charset=utf-8" : contentType);
                    if (contentType.startsWith(MediaTypes.SSE)) {
                        headers.put(HttpHeader.CACHE_CONTROL, "no-cache, no-transform");
                        headers.put("X-Accel-Buffering", "no");
                    }
                }
                headers.put(HttpHeader.CONTENT_LENGTH, body == null ? 0 : body.length);
                response.write(true, body == null ? null : ByteBuffer.wrap(body), Callback.from(() -> {
                    done(written);
                    callback.succeeded();
                }, failure -> {
                    done(written);
                    callback.failed(failure);
                }));
            } catch (RuntimeException e) {
                done(written);
                callback.failed(e);
            }
        }

        synchronized boolean handedOver() {
            return handedOver;
        }

        private static void done(Runnable written) {
            if (written != null) {
                written.run();
            }
        }

        @Override
        public synchronized void handOver(Handover handover) {
            if (!answered) {
                request.setAttribute(Handover.ATTRIBUTE, handover);
                handedOver = true;
            }
        }
    }

    /** The request with what was already read of its body put back in front of the rest. */
    private static final class Replay extends Request.Wrapper {
        private ByteBuffer data;

        Replay(Request request, byte[] data) {
            super(request);
            this.data = data == null || data.length == 0 ? null : ByteBuffer.wrap(data);
        }

        @Override
        public Content.Chunk read() {
            synchronized (this) {
                if (data != null) {
                    ByteBuffer part = data;
                    data = null;
                    return Content.Chunk.from(part, false);
                }
            }
            return super.read();
        }

        @Override
        public void demand(Runnable demandCallback) {
            boolean ready;
            synchronized (this) {
                ready = data != null;
            }
            if (ready) {
                getContext().execute(demandCallback);
            } else {
                super.demand(demandCallback);
            }
        }
    }
}
