package io.quiver.transport.http.internal;

import jakarta.servlet.AsyncContext;
import jakarta.servlet.ServletOutputStream;
import java.io.IOException;

/** One open HTTP response carrying an SSE stream. Not thread-safe: its {@link SseStream} serializes use. */
final class Connection {

    private final AsyncContext async;
    private final ServletOutputStream out;
    private boolean open = true;

    Connection(AsyncContext async) throws IOException {
        this.async = async;
        this.out = async.getResponse().getOutputStream();
    }

    /** Writes and flushes; false (and closed) when the client is gone. */
    boolean write(byte[] frame) {
        if (!open) {
            return false;
        }
        try {
            out.write(frame);
            out.flush();
            return true;
        } catch (IOException | IllegalStateException e) {
            close();
            return false;
        }
    }

    boolean isOpen() {
        return open;
    }

    /** Ends the HTTP response. */
    void close() {
        if (!open) {
            return;
        }
        open = false;
        try {
            async.complete();
        } catch (IllegalStateException e) {
            // already completed by the container (client gone)
        }
    }

    /** The container saw the client go; stop writing without completing twice. */
    void lost() {
        open = false;
    }
}
