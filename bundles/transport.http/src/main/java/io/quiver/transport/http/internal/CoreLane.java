package io.quiver.transport.http.internal;

import io.quiver.api.CallerIdentity;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
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
import org.eclipse.jetty.util.Callback;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * MCP POSTs answered by a Jetty core handler on the selector lane, ahead of the servlet: the servlet stack
 * (Felix's dispatch, the servlet request and response, their output) costs about a third of a trivial call,
 * more than the whole of Quiver's engine. A context at {@code /} placed before Felix's servlet context takes
 * a POST read on the lane when {@link McpServlet#fastCaller} admits it (every guard passed, its credential, if the
 * server asks for one, checked without waiting) and its whole body came with it; the servlet's own rules then serve it ({@link McpServlet#fastServe}):
 * what waits on nothing is answered here, the rest is handed to the servlet with what was done
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
        if (!LaneThread.here() || !HttpMethod.POST.is(request.getMethod())) {
            return false;
        }
        servlet.observe(request.getConnectionMetaData().getConnector());
        HttpFields fields = request.getHeaders();
        long length;
        try {
            length = fields.getLongField(HttpHeader.CONTENT_LENGTH);
        } catch (NumberFormatException e) {
            return false;
        }
        Post post = new Post(request, response, callback);
        CallerIdentity caller = servlet.fastCaller(post, Request.getPathInContext(request), request.getHttpURI().getQuery(),
                length);
        if (caller == null) {
            return false;
        }
        byte[] body = new byte[(int) length];
        int read = 0;
        boolean ended = false;
        while (read < body.length) {
            Content.Chunk chunk = request.read();
            if (chunk == null || Content.Chunk.isFailure(chunk)) {
                if (read == 0) {
                    return false; // nothing taken: the servlet waits for the body, or meets the failure
                }
                // a part came: the servlet reads it again from here, then the rest as it arrives
                Request original = request instanceof Request.Wrapper wrapper ? wrapper.getWrapped() : request;
                return servletContext.handle(new Replay(original, ByteBuffer.wrap(body, 0, read)), response, callback);
            }
            ByteBuffer bytes = chunk.getByteBuffer();
            int n = Math.min(bytes.remaining(), body.length - read);
            bytes.get(body, read, n);
            read += n;
            boolean last = chunk.isLast();
            chunk.release();
            ended = last;
            if (last && read < body.length) {
                // shorter than declared: the servlet answers that
                Request original = request instanceof Request.Wrapper wrapper ? wrapper.getWrapped() : request;
                return servletContext.handle(new Replay(original, ByteBuffer.wrap(body, 0, read)), response, callback);
            }
        }
        if (!ended) {
            // the declared length is read: one more read lets the parser end the message without touching the
            // connection, so that the connection is ready for its next request when this one completes
            Content.Chunk end = request.read();
            if (end != null) {
                end.release();
            }
        }
        servlet.fastServe(post, body, caller);
        return !post.handedOver();
    }

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
            return request.getHeaders().get(name);
        }

        @Override
        public Map<String, String> headers() {
            Map<String, String> headers = new HashMap<>();
            for (HttpField field : request.getHeaders()) {
                headers.putIfAbsent(field.getLowerCaseName(), field.getValue());
            }
            return headers;
        }

        @Override
        public String remoteAddr() {
            return Request.getRemoteAddr(request);
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
            response.setStatus(status);
            HttpFields.Mutable headers = response.getHeaders();
            extra.forEach(headers::put);
            if (status == 503) {
                headers.put(HttpHeader.RETRY_AFTER, Integer.toString(HttpErrors.RETRY_AFTER_SECONDS));
            }
            if (contentType != null) {
                headers.put(HttpHeader.CONTENT_TYPE, status >= 400 ? contentType + ";charset=utf-8" : contentType);
                if (MediaTypes.SSE.equals(contentType)) {
                    headers.put(HttpHeader.CACHE_CONTROL, "no-cache");
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

    /** The request with the part of its body already read put back in front of the rest. */
    private static final class Replay extends Request.Wrapper {
        private ByteBuffer first;

        Replay(Request request, ByteBuffer first) {
            super(request);
            this.first = first;
        }

        @Override
        public Content.Chunk read() {
            ByteBuffer part;
            synchronized (this) {
                part = first;
                first = null;
            }
            return part != null ? Content.Chunk.from(part, false) : super.read();
        }

        @Override
        public void demand(Runnable demandCallback) {
            boolean ready;
            synchronized (this) {
                ready = first != null;
            }
            if (ready) {
                getContext().execute(demandCallback);
            } else {
                super.demand(demandCallback);
            }
        }
    }
}
