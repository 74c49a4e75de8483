package io.quiver.transport.http.internal;

import jakarta.servlet.AsyncContext;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.http.HttpServletRequest;
import java.nio.ByteBuffer;
import java.util.Map;
import org.eclipse.jetty.ee10.servlet.HttpOutput;
import org.eclipse.jetty.ee10.servlet.ServletContextRequest;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.util.Callback;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The shortcuts taken where the HTTP service is Felix HTTP's Jetty 12. Its packages are optional imports
 * of this bundle: {@link #WIRED} says whether they are there, and this class is only used when they are.
 */
final class JettyWired {

    private static final Logger LOG = LoggerFactory.getLogger(JettyWired.class);

    /** Whether Jetty's servlet classes are wired to this bundle. */
    static final boolean WIRED = wired();

    private JettyWired() {
    }

    private static boolean wired() {
        try {
            Class.forName("org.eclipse.jetty.ee10.servlet.ServletContextRequest", false, JettyWired.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }

    /**
     * The request's headers by lower-case name from Jetty's own fields (their lower-case names are kept for
     * the common headers, no lookup per name); false when the request is not Jetty's.
     */
    static boolean headers(HttpServletRequest req, Map<String, String> into) {
        ServletContextRequest jetty = ServletContextRequest.getServletContextRequest(req);
        if (jetty == null) {
            return false;
        }
        for (HttpField field : jetty.getHeaders()) {
            into.merge(field.getLowerCaseName(), field.getValue() == null ? "" : field.getValue(), HttpHeaders::joined);
        }
        return true;
    }

    /**
     * Watches the request's connection while the request is pending, where the lane serves it: a client
     * that closes it then runs {@code gone} at once, not at the next write ({@link CloseWatcher}). Elsewhere
     * (another connector, TLS) the next write notices.
     */
    static void watchClose(ServletRequest req, Runnable gone) {
        ServletContextRequest jetty = ServletContextRequest.getServletContextRequest(req);
        if (jetty != null && jetty.getConnectionMetaData().getConnection() instanceof SelectorLane.LaneConnection lane) {
            lane.watchClose(jetty, gone);
        }
    }

    /**
     * Sends a whole answer with Jetty's own asynchronous send, whose callback completes the request (and runs
     * {@code done}); false when {@code out} is not Jetty's. Unlike a servlet {@code WriteListener}, whose first
     * call Jetty hands to a thread of its pool when it is set off the request's thread, nothing but the
     * completion is dispatched.
     */
    static boolean sendWhole(AsyncContext async, ServletOutputStream out, byte[] body, Runnable done) {
        if (!(out instanceof HttpOutput jetty)) {
            return false;
        }
        jetty.sendContent(ByteBuffer.wrap(body), Callback.from(() -> NonBlockingWrite.complete(async, done), failure -> {
            LOG.debug("The client left before its answer was written: {}", failure.toString());
            NonBlockingWrite.complete(async, done);
        }));
        return true;
    }
}
