package io.quiver.transport.http.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The close watcher on real loopback connections: a close, bytes sent meanwhile, a stop before either. */
class CloseWatcherTest {

    private ServerSocketChannel server;
    private ExecutorService pool;
    private CloseWatcher watcher;

    @BeforeEach
    void open() throws Exception {
        server = ServerSocketChannel.open().bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        pool = Executors.newSingleThreadExecutor();
        watcher = CloseWatcher.start(pool, "close-watch-test");
    }

    @AfterEach
    void close() throws Exception {
        watcher.close();
        pool.shutdownNow();
        server.close();
    }

    /** A connected pair: the client's socket and the server's non-blocking channel. */
    private record Pair(Socket client, SocketChannel accepted) implements AutoCloseable {
        @Override
        public void close() throws Exception {
            client.close();
            accepted.close();
        }
    }

    private Pair connect() throws Exception {
        Socket client = new Socket(InetAddress.getLoopbackAddress(), server.socket().getLocalPort());
        SocketChannel accepted = server.accept();
        accepted.configureBlocking(false);
        return new Pair(client, accepted);
    }

    @Test
    void aClientThatClosesRunsTheTaskOnTheExecutor() throws Exception {
        try (Pair pair = connect()) {
            CountDownLatch gone = new CountDownLatch(1);
            AtomicReference<String> thread = new AtomicReference<>();
            watcher.watch(pair.accepted(), b -> { }, () -> {
                thread.set(Thread.currentThread().getName());
                gone.countDown();
            });
            Thread.sleep(CloseWatcher.DELAY_MS * 2); // watched by now
            pair.client().close();
            assertTrue(gone.await(5, TimeUnit.SECONDS), "the close was noticed");
            assertFalse(thread.get().startsWith("close-watch"), "the task ran on the executor: " + thread.get());
        }
    }

    @Test
    void bytesSentMeanwhileAreHandedBackWhole() throws Exception {
        try (Pair pair = connect()) {
            AtomicReference<String> more = new AtomicReference<>();
            AtomicInteger gone = new AtomicInteger();
            CloseWatcher.Watch watch = watcher.watch(pair.accepted(),
                    b -> more.set(StandardCharsets.UTF_8.decode(b).toString()), gone::incrementAndGet);
            Thread.sleep(CloseWatcher.DELAY_MS * 2);
            OutputStream out = pair.client().getOutputStream();
            out.write("POST /next".getBytes(StandardCharsets.UTF_8));
            out.flush();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
            while (more.get() == null && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            watch.stop();
            assertEquals("POST /next", more.get());
            // the watch is over: what comes next stays in the connection for its owner, a close runs nothing
            out.write("rest".getBytes(StandardCharsets.UTF_8));
            out.flush();
            pair.client().close();
            Thread.sleep(CloseWatcher.DELAY_MS * 3);
            assertEquals(0, gone.get());
            ByteBuffer rest = ByteBuffer.allocate(16);
            pair.accepted().configureBlocking(true);
            pair.accepted().read(rest);
            assertEquals("rest", new String(rest.array(), 0, rest.position(), StandardCharsets.UTF_8));
        }
    }

    @Test
    void aStoppedWatchNeitherReadsNorRuns() throws Exception {
        try (Pair pair = connect()) {
            AtomicInteger calls = new AtomicInteger();
            CloseWatcher.Watch early = watcher.watch(pair.accepted(), b -> calls.incrementAndGet(), calls::incrementAndGet);
            early.stop(); // answered before it was due: never registered
            CloseWatcher.Watch late = watcher.watch(pair.accepted(), b -> calls.incrementAndGet(), calls::incrementAndGet);
            Thread.sleep(CloseWatcher.DELAY_MS * 2);
            late.stop(); // registered, then stopped
            // the same connection watched again, as its next pending request is
            CountDownLatch gone = new CountDownLatch(1);
            watcher.watch(pair.accepted(), b -> calls.incrementAndGet(), gone::countDown);
            Thread.sleep(CloseWatcher.DELAY_MS * 2);
            pair.client().close();
            assertTrue(gone.await(5, TimeUnit.SECONDS), "the third watch noticed the close");
            assertEquals(0, calls.get(), "the stopped watches did nothing");
        }
    }

    /**
     * A reader that has nothing to hand over yet (a layer above the socket, TLS say, that took a record carrying no
     * data) leaves the connection watched: its close is still noticed, and nothing was handed back.
     */
    @Test
    void aReadOfNothingKeepsWatching() throws Exception {
        try (Pair pair = connect()) {
            AtomicInteger reads = new AtomicInteger();
            CloseWatcher.Reader channel = CloseWatcher.Reader.of(pair.accepted());
            CloseWatcher.Reader swallowing = buffer -> {
                int read = channel.read(buffer);
                if (read > 0) {
                    reads.incrementAndGet();
                    buffer.position(buffer.limit()); // taken by the layer: nothing for the connection
                    return 0;
                }
                return read;
            };
            AtomicInteger more = new AtomicInteger();
            CountDownLatch gone = new CountDownLatch(1);
            watcher.watch(pair.accepted(), swallowing, b -> more.incrementAndGet(), gone::countDown);
            Thread.sleep(CloseWatcher.DELAY_MS * 2);
            OutputStream out = pair.client().getOutputStream();
            out.write(new byte[] {21, 3, 3, 0, 2, 1, 0}); // an alert record's shape
            out.flush();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
            while (reads.get() == 0 && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            assertEquals(1, reads.get(), "the bytes were read");
            pair.client().close();
            assertTrue(gone.await(5, TimeUnit.SECONDS), "the close after them was noticed");
            assertEquals(0, more.get(), "nothing was handed back");
        }
    }

    /**
     * A reader that finds the channel readable and takes nothing (a TLS layer busy with a write of its own) would
     * have the watcher select it again at once, forever: after {@value CloseWatcher#MAX_EMPTY_READS} such reads in
     * a row the watch ends, and nothing runs.
     */
    @Test
    void aReaderThatNeverTakesAnythingEndsItsWatchInsteadOfSpinning() throws Exception {
        try (Pair pair = connect()) {
            AtomicInteger reads = new AtomicInteger();
            AtomicInteger calls = new AtomicInteger();
            watcher.watch(pair.accepted(), buffer -> {
                reads.incrementAndGet();
                buffer.clear().flip();
                return 0; // the byte stays in the socket: it stays readable
            }, b -> calls.incrementAndGet(), calls::incrementAndGet);
            Thread.sleep(CloseWatcher.DELAY_MS * 2);
            pair.client().getOutputStream().write(1);
            pair.client().getOutputStream().flush();
            Thread.sleep(500);
            assertEquals(CloseWatcher.MAX_EMPTY_READS, reads.get(), "then the watch ended");
            assertEquals(0, calls.get());
        }
    }
}
