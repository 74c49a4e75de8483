package io.quiver.transport.http.internal;

import jakarta.servlet.AsyncContext;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.WriteListener;
import java.io.IOException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes a whole answer and completes its request without ever blocking the calling thread: a
 * client that does not read (its socket buffer full) holds its own response, not the thread. Used on
 * a {@link LaneThread}; status and headers are set before.
 */
final class NonBlockingWrite {

    private static final Logger LOG = LoggerFactory.getLogger(NonBlockingWrite.class);

    private NonBlockingWrite() {
    }

    static void write(AsyncContext async, byte[] body) {
        try {
            ServletOutputStream out = async.getResponse().getOutputStream();
            out.setWriteListener(new WriteListener() {
                private boolean written;

                @Override
                public void onWritePossible() throws IOException {
                    if (!written) {
                        written = true;
                        out.write(body);
                    }
                    // not ready: the rest is on its way, and this runs again when it is out
                    if (out.isReady()) {
                        complete(async);
                    }
                }

                @Override
                public void onError(Throwable failure) {
                    LOG.debug("The client left before its answer was written: {}", failure.toString());
                    complete(async);
                }
            });
        } catch (IOException | IllegalStateException e) {
            LOG.debug("The client left before its answer was written: {}", e.toString());
            complete(async);
        }
    }

    static void complete(AsyncContext async) {
        try {
            async.complete();
        } catch (IllegalStateException e) {
            // the container completed it already (client gone)
        }
    }
}
