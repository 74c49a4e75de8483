package io.quiver.transport.http.internal;

import jakarta.servlet.AsyncContext;
import jakarta.servlet.ServletOutputStream;
import java.io.IOException;

/** One open HTTP response carrying an SSE stream. Not thread-safe: its {@link SseStream} serializes use. */
final class Connection {

    private final AsyncContext async;
    private final ServletOutputStream out;
    private final StreamBudget.Ticket ticket;
    /** Read by other threads than the writer's ({@link SseStream#connected}). */
    private volatile boolean open = true;

    /** @param ticket its place among the open streams, given back when it closes */
    Connection(AsyncContext async, StreamBudget.Ticket ticket) throws IOException {
        this.async = async;
        this.ticket = ticket;
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
        ticket.release();
        try {
            async.complete();
        } catch (IllegalStateException e) {
            // already completed by the container (client gone)
        }
    }

    /** The container saw the client go; stop writing without completing twice. */
    void lost() {
        open = false;
        ticket.release();
    }
}
