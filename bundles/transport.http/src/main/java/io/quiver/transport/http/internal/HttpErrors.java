package io.quiver.transport.http.internal;

import io.quiver.api.transport.Receipt;
import jakarta.servlet.AsyncContext;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeoutException;

/** HTTP error responses with a JSON-RPC error body. */
final class HttpErrors {

    private HttpErrors() {
    }

    static int status(Receipt.Reason reason) {
        return switch (reason) {
            case SESSION_NOT_FOUND, METHOD_NOT_FOUND -> HttpServletResponse.SC_NOT_FOUND;
            case PARSE_ERROR, INVALID_REQUEST, SESSION_REQUIRED, UNSUPPORTED_VERSION, INVALID_META, HEADER_MISMATCH,
                    MISSING_CAPABILITY -> HttpServletResponse.SC_BAD_REQUEST;
            case UNAVAILABLE -> HttpServletResponse.SC_SERVICE_UNAVAILABLE;
        };
    }

    /** Whether a read failed because the connection or a deadline timed out (the client too slow), not a loss. */
    static boolean timedOut(Throwable failure) {
        return failure instanceof TimeoutException || failure.getCause() instanceof TimeoutException;
    }

    /**
     * Whether a body's read failed because the body was not HTTP (a chunk size that is not hex, a chunked body whose
     * last chunk never came before the client closed its side): Jetty's {@code BadMessageException}, or another of its
     * {@code HttpException}s, anywhere in the causes. Such a request is answered 400, not treated as a
     * client gone (which left the container to write an empty 200). By name: the transport needs no Jetty classes.
     */
    static boolean malformed(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            for (Class<?> c = t.getClass(); c != null; c = c.getSuperclass()) {
                if (c.getName().equals("org.eclipse.jetty.http.BadMessageException")) {
                    return true;
                }
                for (Class<?> i : c.getInterfaces()) {
                    if (i.getName().equals("org.eclipse.jetty.http.HttpException")) {
                        return true;
                    }
                }
            }
        }
        return false;
    }

    /** JSON-RPC's parse error: a body that could not be read as one. */
    static final int PARSE_ERROR = -32700;

    /** The message of a request whose body was not HTTP. */
    static final String MALFORMED = "Bad Request: the request body's framing is broken (its chunked encoding, or its end)";

    /** Seconds a client is asked to wait before it tries again after a 503. */
    static final int RETRY_AFTER_SECONDS = 5;

    static void send(HttpServletResponse resp, int status, byte[] body) throws IOException {
        head(resp, status, body);
        resp.getOutputStream().write(body);
    }

    /** {@link #send} without ever blocking the calling thread ({@link NonBlockingWrite}); completes the request. */
    static void sendWithoutBlocking(AsyncContext async, int status, byte[] body) {
        head((HttpServletResponse) async.getResponse(), status, body);
        NonBlockingWrite.write(async, body);
    }

    private static void head(HttpServletResponse resp, int status, byte[] body) {
        resp.setStatus(status);
        if (status == HttpServletResponse.SC_SERVICE_UNAVAILABLE) {
            resp.setHeader("Retry-After", Integer.toString(RETRY_AFTER_SECONDS));
        }
        resp.setContentType(MediaTypes.JSON);
        resp.setCharacterEncoding(StandardCharsets.UTF_8.name());
        resp.setContentLength(body.length);
    }
}
