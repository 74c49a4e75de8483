package io.quiver.upstream.internal;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import io.quiver.lib.external.Lines;
import io.quiver.lib.external.ProcessTree;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * A child process spoken to in newline-delimited JSON-RPC over its stdin and stdout (MCP's stdio
 * transport). Its stderr is drained all the time into a bounded tail and the log, so a chatty server
 * never blocks on a full pipe. A stdout line that is not a JSON object is counted and kept in the tail
 * (it is reported, the connection goes on); a line longer than the limit ends the connection.
 *
 * <p>{@link #close} closes the child's stdin (a well-behaved server exits on end of input), then
 * terminates it and the processes it started, then kills whatever is left. Should Quiver itself be
 * killed, the child sees its stdin end the same way, and a watchdog process stops its session (a server that does
 * not exit on end of input, with a timer or a call running, would run on otherwise).
 */
final class StdioConnection implements Connection {

    private static final Logger LOG = LoggerFactory.getLogger(StdioConnection.class);
    private static final JsonMapper JSON = McpClient.JSON;
    /** How long a closing child gets to exit on end of input, and then on SIGTERM. */
    static final long EXIT_GRACE_MS = 2_000;
    /** How long after its process exits the lines it wrote may still be read before the connection ends. */
    private static final long EXIT_LINES_MS = 500;
    /** The longest stderr line kept whole in the tail and the log. */
    private static final int MAX_STDERR_LINE = 2_000;

    /**
     * The variables of Quiver's own environment a child gets (as the official SDKs' stdio clients
     * do); everything else it needs is in its {@code env}, so Quiver's secrets do not leak to it.
     */
    static final Set<String> INHERITED = Set.of("HOME", "LOGNAME", "PATH", "SHELL", "TERM", "USER", "LANG", "LC_ALL",
            "LC_CTYPE", "TMPDIR", "TZ", "NODE_EXTRA_CA_CERTS", "SYSTEMROOT", "APPDATA", "USERPROFILE", "TEMP", "TMP");

    private final ServerSpec spec;
    private final Path workingDirectory;
    private final int maxMessageBytes;
    private final StderrTail tail;
    private final AtomicBoolean ended = new AtomicBoolean();
    private final AtomicLong garbage = new AtomicLong();
    private volatile Process process;
    private volatile OutputStream stdin;
    private volatile boolean closing;
    private final Object lifecycle = new Object();
    private Listener listener;

    StdioConnection(ServerSpec spec, Path workingDirectory, int maxMessageBytes, StderrTail tail) {
        this.spec = spec;
        this.workingDirectory = workingDirectory;
        this.maxMessageBytes = maxMessageBytes;
        this.tail = tail;
    }

    @Override
    public void open(Listener listener) throws IOException {
        this.listener = listener;
        List<String> command = new ArrayList<>();
        command.add(spec.command());
        command.addAll(spec.args());
        ProcessBuilder builder = new ProcessBuilder(command);
        Map<String, String> environment = builder.environment();
        environment.keySet().retainAll(INHERITED);
        environment.putAll(spec.env());
        Path directory = spec.cwd() != null ? spec.cwd() : workingDirectory;
        builder.directory(directory.toFile());
        // in a session of its own: what it starts, even orphaned by its exit, is found and stopped with it
        builder.command(ProcessTree.inOwnSession(command, directory));
        Process p;
        synchronized (lifecycle) { // a close before the start means no start: no process outlives its stop
            if (closing) {
                throw new IOException("the connection was closed before its process started");
            }
            p = ProcessTree.start(builder); // its session watched, should Quiver end without stopping it
            process = p;
            stdin = p.getOutputStream();
        }
        Thread out = new Thread(() -> readStdout(p.getInputStream()), "quiver-upstream-" + spec.name() + "-out");
        out.setDaemon(true);
        out.start();
        Thread err = new Thread(() -> drainStderr(p.getErrorStream()), "quiver-upstream-" + spec.name() + "-err");
        err.setDaemon(true);
        err.start();
        // a child it left running may hold its stdout open, and then stdout never ends: its exit ends the connection
        // (after a moment for the last lines it wrote) and stops that child, on a thread of its own, not the common pool
        p.onExit().thenRunAsync(() -> end("the process exited"), CompletableFuture.delayedExecutor(EXIT_LINES_MS,
                TimeUnit.MILLISECONDS, task -> {
                    Thread ending = new Thread(task, "quiver-upstream-" + spec.name() + "-exit");
                    ending.setDaemon(true);
                    ending.start();
                }));
    }

    @Override
    public void send(ObjectNode message, Map<String, String> headers) throws IOException {
        byte[] bytes = JSON.writeValueAsBytes(message);
        OutputStream in = stdin;
        if (in == null || ended.get()) {
            throw new IOException("the server's process is not running");
        }
        synchronized (this) {
            in.write(bytes);
            in.write('\n');
            in.flush();
        }
    }

    /** How many stdout lines were not JSON-RPC messages. */
    long garbageLines() {
        return garbage.get();
    }

    private void readStdout(InputStream stdout) {
        String why = "its stdout ended";
        try (stdout) {
            if (!Lines.read(stdout, maxMessageBytes, this::take)) {
                why = "it wrote a message longer than maxMessageBytes (" + maxMessageBytes + ") on stdout";
                tail.add("[quiver] " + why);
            }
        } catch (IOException e) {
            why = "reading its stdout failed: " + e.getMessage();
        }
        end(why);
    }

    private void take(byte[] bytes) {
        if (bytes.length == 0) {
            return;
        }
        JsonNode message = null;
        try {
            message = JSON.readTree(bytes);
        } catch (JacksonException e) {
            // a byte that is not UTF-8 (a server that writes its platform's encoding): read as U+FFFD, so that the
            // answer still reaches its call rather than leave it waiting for its timeout; anything else reported below
            try {
                message = JSON.readTree(new String(bytes, StandardCharsets.UTF_8));
            } catch (JacksonException again) {
                // reported below
            }
        }
        if (message instanceof ObjectNode object) {
            listener.message(object, null);
            return;
        }
        long count = garbage.incrementAndGet();
        String text = new String(bytes, 0, Math.min(bytes.length, 200), StandardCharsets.UTF_8);
        tail.add("[stdout, not JSON-RPC] " + text);
        if (count <= 3 || Long.bitCount(count) == 1) {
            LOG.warn("Upstream {} wrote a line that is not a JSON-RPC message on stdout ({} so far): {}", spec.name(),
                    count, text);
        }
    }

    private void drainStderr(InputStream stderr) {
        try (stderr) {
            ByteArrayOutputStream line = new ByteArrayOutputStream(256);
            int b;
            byte[] buffer = new byte[4096];
            int n;
            while ((n = stderr.read(buffer)) >= 0) {
                for (int i = 0; i < n; i++) {
                    b = buffer[i];
                    if (b == '\n') {
                        stderrLine(line);
                    } else if (line.size() < MAX_STDERR_LINE) {
                        line.write(b);
                    }
                }
            }
            if (line.size() > 0) {
                stderrLine(line);
            }
        } catch (IOException e) {
            // the process is gone
        }
    }

    private void stderrLine(ByteArrayOutputStream line) {
        String text = line.toString(StandardCharsets.UTF_8).stripTrailing();
        line.reset();
        if (!text.isEmpty()) {
            tail.add(text);
            LOG.info("[{}] {}", spec.name(), text);
        }
    }

    /** Reports the end once, with the exit status when the process has one. */
    private void end(String why) {
        if (!ended.compareAndSet(false, true)) {
            return;
        }
        Process p = process;
        boolean clean = false;
        if (p != null) {
            try {
                if (p.waitFor(closing ? EXIT_GRACE_MS : 500, TimeUnit.MILLISECONDS)) {
                    clean = p.exitValue() == 0;
                    why = "the process exited with status " + p.exitValue();
                } else if (!closing) {
                    why = why + " while the process kept running; it is stopped";
                }
                if (!closing) {
                    terminate(p); // it, if it still runs, and what it started and left behind (close() does its own)
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        listener.closed(why, clean);
    }

    @Override
    public void close() {
        Process p;
        synchronized (lifecycle) {
            closing = true;
            p = process;
        }
        if (p == null) {
            return;
        }
        try {
            OutputStream in = stdin;
            if (in != null) {
                in.close();
            }
        } catch (IOException e) {
            // already closed
        }
        try {
            p.waitFor(EXIT_GRACE_MS, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        terminate(p); // it, if it is still running, and what it started, also when it exited by itself
        end("Quiver stopped it");
    }

    /** SIGTERM to the process and every descendant, then SIGKILL to what is left after the grace. */
    static void terminate(Process p) {
        ProcessTree.terminate(p, EXIT_GRACE_MS);
    }

    @Override
    public String detail() {
        Process p = process;
        return p == null ? "not started" : "pid " + p.pid();
    }

    /** The child's process id, or -1 before it started. */
    long pid() {
        Process p = process;
        return p == null ? -1 : p.pid();
    }
}
