package io.quiver.transport.http.internal;

import jakarta.servlet.AsyncContext;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.WriteListener;
import java.io.IOException;

/**
 * A response's output switched to non-blocking writes on the thread that read the request, before the
 * request is handed to another thread; whoever writes the answer later ({@link Connection},
 * {@link NonBlockingWrite}) attaches to it instead of setting a listener of its own. Set off the
 * request's thread, a servlet {@code WriteListener} makes Jetty hand its first call to a thread of its
 * pool; set on the request's own thread, that call comes on the same thread once the request has been
 * handed over, and costs nothing. Calls that come before anyone attached are remembered (a failure) or
 * need nothing (the writer asks {@code isReady()} itself when it attaches).
 */
final class ResponseOutput implements WriteListener {

    private static final String ATTRIBUTE = ResponseOutput.class.getName();

    private WriteListener target;
    private Throwable failure;

    private ResponseOutput() {
    }

    /** Switches the response's output to non-blocking writes now, on this thread. */
    static void prepare(AsyncContext async) throws IOException {
        ResponseOutput output = new ResponseOutput();
        async.getResponse().getOutputStream().setWriteListener(output);
        async.getRequest().setAttribute(ATTRIBUTE, output);
    }

    /** The prepared output of the request, or null: the writer sets a listener of its own. */
    static ResponseOutput of(AsyncContext async) {
        return async.getRequest().getAttribute(ATTRIBUTE) instanceof ResponseOutput output ? output : null;
    }

    /**
     * Has the container's calls on {@code out} go to {@code listener}: through {@code prepared}, the
     * request's prepared output ({@link #of}), if it has one.
     */
    static void listen(ResponseOutput prepared, ServletOutputStream out, WriteListener listener) {
        if (prepared != null) {
            prepared.attach(listener);
        } else {
            out.setWriteListener(listener);
        }
    }

    /** From now on the container's calls go to {@code listener}; a failure that came before is passed on. */
    void attach(WriteListener listener) {
        Throwable before;
        synchronized (this) {
            target = listener;
            before = failure;
        }
        if (before != null) {
            listener.onError(before);
        }
    }

    @Override
    public void onWritePossible() throws IOException {
        WriteListener listener;
        synchronized (this) {
            listener = target;
        }
        if (listener != null) {
            listener.onWritePossible();
        }
    }

    @Override
    public void onError(Throwable t) {
        WriteListener listener;
        synchronized (this) {
            listener = target;
            if (listener == null) {
                failure = t;
            }
        }
        if (listener != null) {
            listener.onError(t);
        }
    }
}
