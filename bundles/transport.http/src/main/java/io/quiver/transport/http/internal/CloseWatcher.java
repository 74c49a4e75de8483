package io.quiver.transport.http.internal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.CancelledKeyException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.ClosedSelectorException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Notices a client closing its connection while its request is pending and nothing is being read or
 * written on it: a tool still working, a quiet stream. Jetty reads an HTTP/1.1 connection only while
 * its request wants content, so a client that goes away then is noticed only at the next write; for a
 * 2026-07-28 request that is too late, since closing the connection is how such a client cancels.
 *
 * <p>One thread selects the watched connections for reading (a channel can be registered with more
 * than one selector; Jetty's has no interest in it meanwhile). A request is watched once it has been
 * pending for {@value #DELAY_MS} ms: most are answered sooner, and cost only a queue entry, not a
 * registration or a wake-up of this thread. When a connection is readable, one read says
 * which: the end of the stream (or a reset) means the client is gone, and the watch's task runs on the
 * executor; bytes mean the client sent its next request already, and they go back to the connection
 * ({@link Watch#stop()} waits for that, so they are there before the connection reads again). Either
 * way the watch is over. Behind TLS the read goes through the TLS layer ({@link Reader}): a client that
 * closes sends its {@code close_notify} first, which is read as the end, and records that carry no
 * data (a key update) leave the connection watched.
 */
final class CloseWatcher implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(CloseWatcher.class);
    /** Reads in a row that bring nothing for the connection after which a watch ends (a spinning TLS layer). */
    static final int MAX_EMPTY_READS = 16;
    /** How long a request is pending before its connection is watched (ms). */
    static final long DELAY_MS = 50;

    private final Selector selector;
    private final Thread thread;
    private final Executor executor;
    /** Watches to register, by the selecting thread (registering while it selects would wait for it). */
    private final Queue<Watch> added = new ConcurrentLinkedQueue<>();
    /**
     * Set by the thread before it sleeps with nothing to wait for; a watch added then wakes it. While
     * watches come and go the thread wakes every {@value #DELAY_MS} ms on its own, and a request costs
     * no wake-up.
     */
    private final AtomicBoolean idle = new AtomicBoolean();
    /** The selecting thread's: watches from {@link #added}, oldest first, until they are due. */
    private final ArrayDeque<Watch> waiting = new ArrayDeque<>();
    /** The selecting thread's, for the one read each readable connection gets. */
    private final ByteBuffer buffer = ByteBuffer.allocate(4096);

    private CloseWatcher(Selector selector, Executor executor, String name) {
        this.selector = selector;
        this.executor = executor;
        this.thread = new Thread(this::select, name);
        thread.setDaemon(true);
    }

    /** @param executor where a gone client's task runs */
    static CloseWatcher start(Executor executor, String name) throws IOException {
        CloseWatcher watcher = new CloseWatcher(Selector.open(), executor, name);
        watcher.thread.start();
        return watcher;
    }

    /**
     * Watches a connection until {@link Watch#stop()}, or until the client closes it (then {@code gone}
     * runs on the executor) or sends more (then {@code more} takes the bytes, on the watcher's thread).
     */
    Watch watch(SocketChannel channel, Consumer<ByteBuffer> more, Runnable gone) {
        return watch(channel, Reader.of(channel), more, gone);
    }

    /**
     * Watches {@code channel} as {@link #watch(SocketChannel, Consumer, Runnable)} does, reading what it
     * brings through {@code reader} (the TLS layer above the channel, say).
     */
    Watch watch(SocketChannel channel, Reader reader, Consumer<ByteBuffer> more, Runnable gone) {
        Watch watch = new Watch(channel, reader, more, gone);
        added.add(watch);
        if (idle.get() && idle.compareAndSet(true, false)) {
            selector.wakeup();
        }
        return watch;
    }

    @Override
    public void close() {
        try {
            selector.close(); // wakes the thread, which then ends; the keys are cancelled
        } catch (IOException e) {
            LOG.debug("Closing the close watcher's selector failed: {}", e.toString());
        }
    }

    private void select() {
        try {
            while (selector.isOpen()) {
                boolean sleep = false;
                if (waiting.isEmpty()) {
                    idle.set(true); // then looks again: a watch added meanwhile either is seen or wakes it
                    sleep = added.isEmpty() || !idle.compareAndSet(true, false);
                }
                selector.select(sleep ? 0 : DELAY_MS);
                idle.set(false);
                for (Watch watch; (watch = added.poll()) != null;) {
                    waiting.add(watch);
                }
                long now = System.nanoTime();
                List<Watch> again = null;
                for (Watch watch; (watch = waiting.peek()) != null && (watch.isOver()
                        || now - watch.since >= TimeUnit.MILLISECONDS.toNanos(DELAY_MS));) {
                    if (!waiting.poll().register()) {
                        again = again == null ? new ArrayList<>() : again;
                        again.add(watch);
                    }
                }
                if (again != null) {
                    again.forEach(waiting::addFirst);
                }
                for (Iterator<SelectionKey> keys = selector.selectedKeys().iterator(); keys.hasNext();) {
                    SelectionKey key = keys.next();
                    keys.remove();
                    ((Watch) key.attachment()).readable();
                }
            }
        } catch (ClosedSelectorException e) {
            // closed: the transport stopped
        } catch (IOException | RuntimeException e) {
            LOG.error("The close watcher stopped: clients that close quiet connections are noticed at the next write", e);
        }
    }

    /** How a watched connection is read once its channel is readable. */
    @FunctionalInterface
    interface Reader {
        /**
         * Reads what the connection has into {@code buffer} (empty, in any state): the bytes read are between
         * its position and its limit on return.
         *
         * @return the number of bytes read, 0 for none yet, -1 at the end of the stream
         */
        int read(ByteBuffer buffer) throws IOException;

        /** The channel itself. */
        static Reader of(SocketChannel channel) {
            return buffer -> {
                buffer.clear();
                try {
                    return channel.read(buffer);
                } finally {
                    buffer.flip();
                }
            };
        }
    }

    /**
     * One pending request's connection, watched. A watch that is over lets go of its tasks at once (it
     * may wait in the queue for a while, and what its tasks hold, the request and its exchange, would
     * otherwise outlive young collections under load).
     */
    final class Watch {
        private final SocketChannel channel;
        private final Reader reader;
        private Consumer<ByteBuffer> more;
        private Runnable gone;
        private final long since = System.nanoTime();
        private SelectionKey key;
        private boolean over;
        /** Reads in a row that found the channel readable and nothing for the connection. */
        private int empty;

        private Watch(SocketChannel channel, Reader reader, Consumer<ByteBuffer> more, Runnable gone) {
            this.channel = channel;
            this.reader = reader;
            this.more = more;
            this.gone = gone;
        }

        /** Ends the watch; bytes it read meanwhile have been handed back when this returns. */
        synchronized void stop() {
            end();
        }

        /** Over: the key cancelled, the tasks let go of (take them first to run one). */
        private void end() {
            over = true;
            more = null;
            gone = null;
            if (key != null) {
                key.cancel();
            }
        }

        private synchronized boolean isOver() {
            return over;
        }

        /** False when it has to wait for the next select: the key of the connection's last watch is still there. */
        private synchronized boolean register() {
            if (over) {
                return true;
            }
            try {
                key = channel.register(selector, SelectionKey.OP_READ, this);
            } catch (ClosedChannelException e) {
                end(); // closed already: Jetty noticed
            } catch (CancelledKeyException e) {
                return false; // the selector drops a cancelled key at its next select
            }
            return true;
        }

        private synchronized void readable() {
            if (over) {
                return;
            }
            int read;
            try {
                read = reader.read(buffer);
            } catch (IOException | RuntimeException e) {
                read = -1; // reset by the client, or TLS records that do not decrypt: the connection is over
            }
            if (read == 0) {
                // readable, yet nothing for the connection: a TLS record without data (watched on), or a TLS layer
                // that reads nothing now (busy with a write of its own): a watch that keeps finding nothing ends
                if (++empty >= MAX_EMPTY_READS) {
                    LOG.debug("{} was readable {} times without bytes for its connection: no longer watched", channel, empty);
                    end();
                }
                return;
            }
            Consumer<ByteBuffer> more = this.more;
            Runnable gone = this.gone;
            end();
            if (read > 0) {
                LOG.debug("{} sent more while its request was pending: {} bytes handed back", channel, read);
                more.accept(buffer);
            } else {
                LOG.debug("{} closed while its request was pending", channel);
                try {
                    executor.execute(gone);
                } catch (RejectedExecutionException e) {
                    gone.run(); // the pool is stopping or full: the task is short
                }
            }
        }
    }
}
