package io.quiver.transport.http.internal;

import jakarta.servlet.AsyncContext;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.WriteListener;
import java.io.IOException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes a whole answer and completes its request without ever blocking the calling thread: a
 * client that does not read (its socket buffer full) holds its own response, not the thread. The
 * answer goes out at once as far as the socket takes it; the rest when the container says it can.
 * Status and headers are set before. On Felix HTTP's Jetty through its own asynchronous send (measured:
 * a servlet {@code WriteListener} cost 5–10 % of a trivial blocking call's rate, for the extra hand-off
 * of its first call to Jetty's pool); through a listener attached to the output the lane prepared
 * ({@link ResponseOutput}), or on another container through a listener of its own.
 */
final class NonBlockingWrite implements WriteListener {

    private static final Logger LOG = LoggerFactory.getLogger(NonBlockingWrite.class);

    private final AsyncContext async;
    private final ServletOutputStream out;
    private final byte[] body;
    private final Runnable done;
    private boolean written;
    private boolean completed;

    private NonBlockingWrite(AsyncContext async, ServletOutputStream out, byte[] body, Runnable done) {
        this.async = async;
        this.out = out;
        this.body = body;
        this.done = done;
    }

    static void write(AsyncContext async, byte[] body) {
        write(async, body, null);
    }

    /** @param done run once the answer is out or the client gone (or null) */
    static void write(AsyncContext async, byte[] body, Runnable done) {
        try {
            ServletOutputStream out = async.getResponse().getOutputStream();
            ResponseOutput prepared = ResponseOutput.of(async);
            if (prepared == null && JettyWired.WIRED && JettyWired.sendWhole(async, out, body, done)) {
                return;
            }
            NonBlockingWrite write = new NonBlockingWrite(async, out, body, done);
            ResponseOutput.listen(prepared, out, write);
            try {
                write.onWritePossible(); // on this thread if the socket takes it now; else when the container calls
            } catch (IOException | IllegalStateException e) {
                write.onError(e); // completes once, whoever reports the failure first
            }
        } catch (IOException | IllegalStateException e) {
            LOG.debug("The client left before its answer was written: {}", e.toString());
            complete(async, done);
        }
    }

    @Override
    public synchronized void onWritePossible() throws IOException {
        if (completed || !out.isReady()) {
            return;
        }
        if (!written) {
            written = true;
            out.write(body);
            if (!out.isReady()) {
                return; // the rest is on its way, and this runs again when it is out
            }
        }
        completed = true;
        complete(async, done);
    }

    @Override
    public synchronized void onError(Throwable failure) {
        LOG.debug("The client left before its answer was written: {}", failure.toString());
        if (!completed) {
            completed = true;
            complete(async, done);
        }
    }

    /** Runs {@code done} (if any), then completes the request. */
    static void complete(AsyncContext async, Runnable done) {
        if (done != null) {
            done.run();
        }
        complete(async);
    }

    static void complete(AsyncContext async) {
        try {
            async.complete();
        } catch (IllegalStateException e) {
            // the container completed it already (client gone)
        }
    }
}
