package io.quiver.transport.http.internal;

import jakarta.servlet.AsyncContext;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.WriteListener;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.ArrayDeque;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One open HTTP response carrying an SSE stream, written without ever blocking: what the socket does
 * not take at once waits here and goes out when the container says it can, so a client that stops
 * reading holds its own bytes, never a thread. A connection further behind than {@code maxUnsentBytes},
 * or one with events waiting when all connections together hold {@code maxUnsentBytesTotal}, is ended
 * after the frame on its way (its stream keeps the events for the client to resume). Its {@link SseStream} serializes the writers; the container's
 * callbacks come on its own threads, so the state is guarded by this object's monitor, which is never
 * held while anything waits.
 */
final class Connection implements WriteListener {

    private static final Logger LOG = LoggerFactory.getLogger(Connection.class);

    private final AsyncContext async;
    private final ServletOutputStream out;
    private final StreamBudget.Ticket ticket;
    private final StreamBudget budget;
    private final long maxUnsent;
    /** Read by other threads than the writer's ({@link SseStream#connected}). */
    private volatile boolean open = true;
    private final ArrayDeque<byte[]> unsent = new ArrayDeque<>();
    private long unsentBytes;
    /**
     * The frame handed to the container last: it keeps what the socket did not take until the output is
     * ready again, so it stays counted in {@code maxUnsentBytesTotal} until then.
     */
    private long inFlight;
    /** Written since the last flush. */
    private boolean unflushed;
    /** Closed: the response completes once everything before is out. */
    private boolean ending;
    private boolean completed;

    /**
     * The response buffer of a stream. The container copies a small write into a buffer of the response's
     * size (Felix's Jetty: 24 KiB, off the heap) and keeps that buffer until the response ends, so each open
     * stream held 24 KiB even while idle: 240 MiB for 10,000 listening clients. A stream's events are small
     * and flushed one at a time, and a larger one goes out without the copy; 4 KiB is the smallest buffer
     * Jetty's pool hands out.
     */
    static final int BUFFER_BYTES = 4096;

    /**
     * Makes a response, before anything of it is sent, an SSE stream: 200, {@code text/event-stream} in
     * UTF-8, neither cached nor buffered by a proxy, with a {@link #BUFFER_BYTES} response buffer.
     */
    static void prepare(HttpServletResponse response) {
        response.setStatus(HttpServletResponse.SC_OK);
        response.setContentType(MediaTypes.SSE);
        response.setCharacterEncoding("UTF-8");
        response.setHeader("Cache-Control", "no-cache, no-transform");
        response.setHeader("X-Accel-Buffering", "no");
        response.setBufferSize(BUFFER_BYTES);
    }

    /**
     * @param async a response made an SSE stream ({@link #prepare})
     * @param ticket its place among the open streams, given back when it closes
     */
    Connection(AsyncContext async, StreamBudget.Ticket ticket) throws IOException {
        this.async = async;
        this.ticket = ticket;
        this.budget = ticket.budget();
        this.maxUnsent = budget.maxUnsentBytes();
        this.out = async.getResponse().getOutputStream();
        ResponseOutput.listen(ResponseOutput.of(async), out, this);
    }

    /**
     * Sends one frame, now as far as the socket takes it and the rest when it can; false (and closed)
     * when the client is gone, or so far behind that this connection ends.
     */
    synchronized boolean write(byte[] frame) {
        if (!open) {
            return false;
        }
        boolean waiting = !unsent.isEmpty(); // a lone frame always goes
        if (waiting && unsentBytes + frame.length > maxUnsent || !budget.holdUnsent(frame.length, !waiting)) {
            LOG.debug("An SSE client has {} bytes unread (maxUnsentBytes, maxUnsentBytesTotal): its connection ends",
                    unsentBytes);
            drop();
            close();
            return false;
        }
        unsent.add(frame);
        unsentBytes += frame.length;
        drain();
        return open;
    }

    /** Sends {@code frame} only if nothing waits to go out (a keep-alive: a busy connection is not idle); false when closed. */
    synchronized boolean writeIfIdle(byte[] frame) {
        return open && (!unsent.isEmpty() || unflushed || write(frame));
    }

    boolean isOpen() {
        return open;
    }

    /** Ends the HTTP response once what was written before is out. */
    synchronized void close() {
        if (!open) {
            return;
        }
        open = false;
        ticket.release();
        ending = true;
        drain();
    }

    /** The container saw the client go; stop writing without completing twice. */
    synchronized void lost() {
        open = false;
        ticket.release();
        drop();
        completed = true;
    }

    /** Forgets the frames not written yet, and the one the container may still hold. */
    private void drop() {
        budget.releaseUnsent(unsentBytes + inFlight);
        unsent.clear();
        unsentBytes = 0;
        inFlight = 0;
    }

    @Override
    public synchronized void onWritePossible() {
        drain();
    }

    @Override
    public synchronized void onError(Throwable failure) {
        LOG.debug("An SSE client left: {}", failure.toString());
        lost();
        NonBlockingWrite.complete(async);
    }

    /** Writes while the socket takes it; completes the response once it is ending and all is out. */
    private void drain() {
        if (completed) {
            return;
        }
        try {
            while (out.isReady()) {
                if (inFlight > 0) { // out: the last frame's write is complete
                    budget.releaseUnsent(inFlight);
                    inFlight = 0;
                }
                if (unflushed) {
                    unflushed = false;
                    out.flush();
                    continue;
                }
                byte[] next = unsent.poll();
                if (next == null) {
                    if (ending) {
                        completed = true;
                        NonBlockingWrite.complete(async);
                    }
                    return;
                }
                unsentBytes -= next.length;
                inFlight = next.length;
                out.write(next);
                unflushed = true;
            }
        } catch (IOException | IllegalStateException e) {
            LOG.debug("An SSE client left: {}", e.toString());
            lost();
            NonBlockingWrite.complete(async);
        }
    }
}
