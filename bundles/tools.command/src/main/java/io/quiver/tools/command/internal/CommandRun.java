package io.quiver.tools.command.internal;

import io.quiver.lib.external.ProcessTree;
import java.io.ByteArrayOutputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * One run of a command: started through {@link Runs} (so a stopping tool stops it), stdin closed at
 * once or after the bytes given for it (written by a thread of their own, so a command that does not
 * read them holds nothing up), stdout kept up to a limit and read to its end past it (the command is
 * never blocked on a full pipe, and never more than the limit is held), stderr split into lines that
 * go, through a bounded queue, to a forwarding thread (progress or log), so a slow client never keeps
 * stderr from being drained: when the queue is full its oldest line is dropped and counted (the newest
 * output is what tells where a command stands), and the next line passed on says how many went. The
 * last lines of stderr are kept for the result.
 *
 * <p>The command starts as the leader of a session of its own where the system allows it
 * ({@link ProcessTree#inOwnSession}): whatever it starts, even through a double fork, stays in that
 * session. The run ends when the process exits, its time is up, or the call is cancelled (the client,
 * the engine's time limit, Quiver stopping). Then, in each case, the process and every process it
 * started are stopped (SIGTERM, SIGKILL after {@value #KILL_GRACE_MS} ms): after a normal exit, what
 * it left running in the background. Output still open after that (a process that escaped the stop
 * holds the pipe) is waited for at most {@value #DRAIN_MS} ms; then the streams are closed.
 */
final class CommandRun {

    /** How long a stopped process tree gets between SIGTERM and SIGKILL. */
    static final long KILL_GRACE_MS = 2_000;
    /** How long the output may stay open after the process ended. */
    static final long DRAIN_MS = 2_000;
    /** How often a waiting run looks at its deadline and the call's cancellation. */
    private static final long POLL_MS = 25;
    /** Stderr lines waiting for the forwarder at most; beyond that the oldest are dropped. */
    static final int STDERR_QUEUE = 256;
    /** Stderr lines kept for the result. */
    static final int STDERR_TAIL = 20;
    /** The longest stderr line kept (bytes); the rest of a longer line is dropped. */
    static final int MAX_LINE = 1_000;
    /** How long a finished run waits for the forwarder to pass on the stderr lines queued. */
    private static final long FLUSH_MS = 1_000;

    /** How a run ended. */
    enum Ending { EXITED, TIMED_OUT, CANCELLED }

    /**
     * What a run gave.
     *
     * @param exitCode the exit status, or -1 when there is none
     * @param stdout the first bytes of stdout, at most the limit
     * @param stdoutBytes how many bytes the command wrote on stdout in all
     * @param stderrTail the last lines of stderr
     * @param outputOpen whether stdout or stderr was still open when the run gave up waiting for them
     */
    record Result(Ending ending, int exitCode, byte[] stdout, long stdoutBytes, List<String> stderrTail,
            boolean outputOpen, long elapsedMs) {
        boolean cut() {
            return stdoutBytes > stdout.length;
        }
    }

    /** Where stderr lines go while the command runs; called on the forwarding thread only. */
    interface Lines {
        /**
         * @param n the line's number among those passed on (1, 2, ...)
         * @param text the line, prefixed with how many lines were dropped before it, if any
         */
        void line(long n, String text);
    }

    private CommandRun() {
    }

    /**
     * Runs a command to its end.
     *
     * @param stdin what the command reads on stdin before its end, or null for nothing
     * @param stderr where stderr lines go, or null to keep only the tail
     * @param cancelled whether the call was cancelled (looked at every {@value #POLL_MS} ms)
     * @throws IOException when the process cannot be started
     */
    static Result run(Runs runs, ProcessBuilder builder, String label, long timeoutMs, long maxOutputBytes, byte[] stdin,
            Lines stderr, BooleanSupplier cancelled) throws IOException {
        long started = System.nanoTime();
        long deadline = started + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        Path directory = builder.directory() == null ? Path.of("").toAbsolutePath() : builder.directory().toPath();
        builder.command(ProcessTree.inOwnSession(builder.command(), directory)); // what it starts stays in reach
        Process p = runs.start(builder);
        try {
            OutputStream in = p.getOutputStream();
            if (stdin == null) {
                close(in); // nothing on stdin: a command that reads it sees its end
            } else {
                daemon(() -> {
                    try (in) {
                        in.write(stdin);
                    } catch (IOException e) {
                        // the command exited, or closed its stdin, without reading it all
                    }
                }, "quiver-command-" + label + "-in").start();
            }
            CountDownLatch drained = new CountDownLatch(2);
            Stdout out = new Stdout(p.getInputStream(), (int) Math.min(maxOutputBytes, Integer.MAX_VALUE - 8), drained);
            Stderr err = new Stderr(p.getErrorStream(), stderr != null, drained);
            daemon(out, "quiver-command-" + label + "-out").start();
            daemon(err, "quiver-command-" + label + "-err").start();
            Forwarder forwarder = stderr == null ? null : new Forwarder(err, stderr);
            Thread forwarding = forwarder == null ? null : daemon(forwarder, "quiver-command-" + label + "-progress");
            if (forwarding != null) {
                forwarding.start();
            }

            Ending ending = null;
            boolean interrupted = false;
            while (true) {
                try {
                    if (p.waitFor(POLL_MS, TimeUnit.MILLISECONDS)) {
                        break;
                    }
                } catch (InterruptedException e) {
                    interrupted = true;
                    ending = Ending.CANCELLED;
                    break;
                }
                if (cancelled.getAsBoolean() || runs.closed()) {
                    ending = Ending.CANCELLED;
                    break;
                }
                if (System.nanoTime() - deadline >= 0) {
                    ending = Ending.TIMED_OUT;
                    break;
                }
            }
            if (ending == null) {
                ending = runs.closed() ? Ending.CANCELLED : Ending.EXITED;
            }
            // however it ended, nothing the command started outlives the run: after a normal exit, what it left in
            // the background (its session's members) is stopped too, which also ends its hold on the output pipes
            ProcessTree.terminate(p, KILL_GRACE_MS);
            long now = System.nanoTime();
            long drainUntil = now + TimeUnit.MILLISECONDS.toNanos(DRAIN_MS);
            boolean open;
            try {
                open = !drained.await(Math.max(0, drainUntil - now), TimeUnit.NANOSECONDS);
                if (forwarding != null && ending == Ending.EXITED && !open) {
                    forwarding.join(FLUSH_MS); // the lines queued go out before the result
                }
            } catch (InterruptedException e) {
                interrupted = true;
                open = drained.getCount() > 0;
            }
            if (forwarder != null) {
                forwarder.close();
            }
            // what still holds the pipes escaped the stop (its own setsid): a reader blocked in read() is not woken by
            // the close (Linux), but it ends at the escapee's next write or exit, instead of reading on for its life
            close(p.getInputStream());
            close(p.getErrorStream());
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
            int exit = p.isAlive() ? -1 : p.exitValue();
            return new Result(ending, exit, out.kept(), out.total(), err.tail(), open,
                    TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started));
        } finally {
            if (p.isAlive()) { // an unexpected failure above: nothing outlives its run
                ProcessTree.terminate(p, KILL_GRACE_MS);
            }
            runs.done(p);
        }
    }

    private static void close(Closeable stream) {
        try {
            stream.close();
        } catch (IOException e) {
            // closed already
        }
    }

    private static Thread daemon(Runnable r, String name) {
        Thread t = new Thread(r, name);
        t.setDaemon(true);
        return t;
    }

    /** Stdout: the first {@code limit} bytes kept, the rest read and counted. */
    static final class Stdout implements Runnable {
        private final InputStream in;
        private final int limit;
        private final CountDownLatch drained;
        private byte[] kept = new byte[0];
        private int size;
        private long total;

        Stdout(InputStream in, int limit, CountDownLatch drained) {
            this.in = in;
            this.limit = limit;
            this.drained = drained;
        }

        @Override
        public void run() {
            byte[] chunk = new byte[8192];
            try (in) {
                int n;
                while ((n = in.read(chunk)) >= 0) {
                    take(chunk, n);
                }
            } catch (IOException e) {
                // the pipe is gone
            } finally {
                drained.countDown();
            }
        }

        private synchronized void take(byte[] chunk, int n) {
            int keep = Math.min(n, limit - size);
            if (keep > 0) {
                if (size + keep > kept.length) {
                    kept = Arrays.copyOf(kept, (int) Math.min(limit, Math.max(size + keep, Math.max(8192L, 2L * kept.length))));
                }
                System.arraycopy(chunk, 0, kept, size, keep);
                size += keep;
            }
            total += n;
        }

        synchronized byte[] kept() {
            return Arrays.copyOf(kept, size);
        }

        synchronized long total() {
            return total;
        }
    }

    /** Stderr: lines into the bounded queue (when forwarded) and the tail. */
    static final class Stderr implements Runnable {
        private final InputStream in;
        private final boolean forwarded;
        private final CountDownLatch drained;
        final BlockingQueue<String> queue = new ArrayBlockingQueue<>(STDERR_QUEUE);
        /** Queued lines dropped to make room, all older than what the queue still holds; guarded by queue. */
        private long dropped;
        private final ArrayDeque<String> tail = new ArrayDeque<>();
        volatile boolean done;

        Stderr(InputStream in, boolean forwarded, CountDownLatch drained) {
            this.in = in;
            this.forwarded = forwarded;
            this.drained = drained;
        }

        @Override
        public void run() {
            ByteArrayOutputStream line = new ByteArrayOutputStream(256);
            byte[] buffer = new byte[8192];
            try (in) {
                int n;
                while ((n = in.read(buffer)) >= 0) {
                    for (int i = 0; i < n; i++) {
                        byte b = buffer[i];
                        if (b == '\n') {
                            line(line);
                        } else if (line.size() < MAX_LINE) {
                            line.write(b);
                        }
                    }
                }
                if (line.size() > 0) {
                    line(line);
                }
            } catch (IOException e) {
                // the pipe is gone
            } finally {
                done = true;
                drained.countDown();
            }
        }

        private void line(ByteArrayOutputStream line) {
            String text = line.toString(StandardCharsets.UTF_8).stripTrailing();
            line.reset();
            if (text.isEmpty()) {
                return;
            }
            synchronized (tail) {
                tail.addLast(text);
                if (tail.size() > STDERR_TAIL) {
                    tail.removeFirst();
                }
            }
            if (forwarded) {
                synchronized (queue) {
                    while (!queue.offer(text)) { // full: the oldest line goes, the newest output is what matters
                        if (queue.poll() != null) {
                            dropped++;
                        }
                    }
                }
            }
        }

        List<String> tail() {
            synchronized (tail) {
                return new ArrayList<>(tail);
            }
        }
    }

    /** Passes queued stderr lines on, on its own thread: only it ever waits for the client. */
    static final class Forwarder implements Runnable {
        private final Stderr err;
        private final Lines lines;
        private volatile boolean closed;

        Forwarder(Stderr err, Lines lines) {
            this.err = err;
            this.lines = lines;
        }

        @Override
        public void run() {
            long n = 0;
            while (!closed) {
                boolean ended = err.done; // read before the poll: every line was queued before done was set
                String line;
                long skipped;
                synchronized (err.queue) { // a line and the lines dropped before it, together
                    line = err.queue.poll();
                    skipped = err.dropped;
                    if (line != null) {
                        err.dropped = 0;
                    }
                }
                if (line == null) {
                    if (ended) {
                        return;
                    }
                    try {
                        Thread.sleep(POLL_MS);
                    } catch (InterruptedException e) {
                        return;
                    }
                    continue;
                }
                pass(++n, skipped > 0 ? "[" + skipped + " lines skipped] " + line : line);
            }
        }

        private void pass(long n, String text) {
            try {
                lines.line(n, text);
            } catch (RuntimeException e) {
                // a failed notification stops nothing
            }
        }

        void close() {
            closed = true;
        }
    }

    /** The kept stdout as text; a character the limit cut in two is left out. */
    static String text(byte[] bytes, boolean cut) {
        int length = bytes.length;
        if (cut && length > 0) {
            int i = length - 1;
            int back = 0;
            while (i > 0 && back < 3 && (bytes[i] & 0xC0) == 0x80) {
                i--;
                back++;
            }
            int lead = bytes[i] & 0xFF;
            int needed = lead < 0x80 ? 1 : lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1;
            if (i + needed > length) {
                length = i;
            }
        }
        return new String(bytes, 0, length, StandardCharsets.UTF_8);
    }
}
