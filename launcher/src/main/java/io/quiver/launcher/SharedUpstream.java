package io.quiver.launcher;

import io.quiver.lib.external.Lines;
import io.quiver.lib.external.ProcessTree;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.Hashtable;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.regex.Pattern;
import org.osgi.framework.BundleContext;
import org.osgi.framework.ServiceRegistration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * An upstream MCP server the host application owns: one child process spoken to over stdio, initialized
 * once, and shared by every Quiver container given it with {@link Quiver.Builder#upstream}. It outlives
 * the containers: stopping one detaches it (its calls in flight are cancelled upstream) and the process
 * goes on serving the others.
 *
 * <pre>{@code
 * SharedUpstream everything = SharedUpstream.stdio("everything", List.of("npx", "-y", "@modelcontextprotocol/server-everything"),
 *         Map.of(), null).start();
 * Quiver a = Quiver.builder().upstream(everything)...start();
 * Quiver b = Quiver.builder().upstream(everything)...start();
 * a.stop();            // everything keeps running for b
 * everything.close();  // the process and its children end; b's tools of it go
 * }</pre>
 *
 * <p>{@link #start} runs the process and the MCP {@code initialize} handshake: Quiver's client identity and
 * capabilities (elicitation and sampling, plus roots when the host gave {@link #roots}), in the newest
 * session revision both speak. Stateless revisions (2026-07-28) are not offered: the connection is one
 * session, whatever the server also speaks. The containers see the server as one of theirs, named
 * {@link #name()} (tool prefix and the other per-server settings from {@code etc/io.quiver.upstream-NAME.cfg}
 * as for any upstream), with the initialize result the host got.
 *
 * <p>Restarting is the host's: when the process ends, the containers' tools of it go (as after a crash)
 * and nothing starts it again until the host calls {@link #start} again (then they come back). Which
 * caller a server's own question ({@code elicitation/create}, {@code sampling/createMessage}) belongs to
 * cannot be told over one stdio connection: it is passed on when exactly one container has a call in
 * flight, and refused with a JSON-RPC error otherwise. {@code roots/list} and {@code ping} are answered
 * here (see {@link UpstreamMux}).
 */
public final class SharedUpstream implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(SharedUpstream.class);
    /** The service property naming the upstream, on the service each container gets: {@value}. */
    public static final String SERVICE_PROPERTY = "io.quiver.upstream.shared";
    /** The service property with the {@code initialize} result (JSON text): {@value}. */
    public static final String INITIALIZE_PROPERTY = "io.quiver.upstream.initialize";
    /** The service property with the process id: {@value}. */
    public static final String PID_PROPERTY = "io.quiver.upstream.pid";
    /** The session revisions Quiver's upstream client speaks, newest first (as its {@code McpClient}). */
    static final List<String> SESSION_VERSIONS = List.of("2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05");
    /** Server names: what a tool name prefix may be made of (as for the servers of etc/). */
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_.-]{0,63}");
    /** The variables of the host's environment the child gets (as Quiver's own stdio upstreams). */
    static final Set<String> INHERITED = Set.of("HOME", "LOGNAME", "PATH", "SHELL", "TERM", "USER", "LANG", "LC_ALL",
            "LC_CTYPE", "TMPDIR", "TZ", "NODE_EXTRA_CA_CERTS", "SYSTEMROOT", "APPDATA", "USERPROFILE", "TEMP", "TMP");
    /** How long a closing child gets to exit on end of input, and then on SIGTERM. */
    private static final long EXIT_GRACE_MS = 2_000;
    private static final int MAX_MESSAGE_BYTES = 16 << 20;
    private static final int STDERR_LINES = 50;

    private final String name;
    private final List<String> command;
    private final Map<String, String> env;
    private final Path cwd;
    private volatile ArrayNode roots = UpstreamMux.JSON.createArrayNode();
    private volatile Duration startTimeout = Duration.ofSeconds(30);

    private final Object lock = new Object();
    /** The containers given it (their system bundles' contexts) and its service in each while it runs. */
    private final Map<BundleContext, ServiceRegistration<?>> homes = new LinkedHashMap<>();
    /** The service object behind each registration, to detach what a stopping container left attached. */
    private final Map<ServiceRegistration<?>, Attacher> attachers = new java.util.concurrent.ConcurrentHashMap<>();
    private final Deque<String> stderr = new ArrayDeque<>();
    private Run run;

    /** One process: the mux over it and what it answered to {@code initialize}. */
    private record Run(Process process, OutputStream stdin, UpstreamMux mux, String[] initialized) {
    }

    private SharedUpstream(String name, List<String> command, Map<String, String> env, Path cwd) {
        if (name == null || !NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("a shared upstream's name is letters, digits, '_', '.' and '-' (up to 64),"
                    + " starting with a letter or digit: " + name);
        }
        if (command == null || command.isEmpty() || command.get(0) == null || command.get(0).isBlank()) {
            throw new IllegalArgumentException("shared upstream " + name + ": no command");
        }
        this.name = name;
        this.command = List.copyOf(command);
        this.env = env == null ? Map.of() : Map.copyOf(env);
        this.cwd = cwd;
    }

    /**
     * A server run as a child process and spoken to over stdio.
     *
     * @param command the program and its arguments
     * @param env variables added to the few of the host's environment every stdio upstream gets
     *     ({@code PATH}, {@code HOME} and the like: {@link #INHERITED}); null for none
     * @param cwd its working directory, or null for the host's
     */
    public static SharedUpstream stdio(String name, List<String> command, Map<String, String> env, Path cwd) {
        return new SharedUpstream(name, command, env, cwd);
    }

    /**
     * A server from the same fields as an entry of an {@code mcpServers} object ({@code command},
     * {@code args}, {@code env}, {@code cwd}), as a parsed JSON object gives them. Only stdio servers can
     * be shared; {@code ${env:NAME}} references are not replaced (the host has its values already).
     *
     * @throws IllegalArgumentException when the entry is not a stdio server's
     */
    public static SharedUpstream fromServerEntry(String name, Map<String, ?> entry) {
        Object type = entry.get("type");
        if (entry.containsKey("url") || (type != null && !"stdio".equals(type))) {
            throw new IllegalArgumentException("shared upstream " + name + ": only stdio servers (command, args) can be"
                    + " shared by the host");
        }
        if (!(entry.get("command") instanceof String program)) {
            throw new IllegalArgumentException("shared upstream " + name + ": command is not a string");
        }
        List<String> command = new ArrayList<>();
        command.add(program);
        Object args = entry.get("args");
        if (args instanceof List<?> list) {
            list.forEach(a -> command.add(String.valueOf(a)));
        } else if (args != null) {
            throw new IllegalArgumentException("shared upstream " + name + ": args is not a list");
        }
        Map<String, String> env = new LinkedHashMap<>();
        if (entry.get("env") instanceof Map<?, ?> map) {
            map.forEach((k, v) -> env.put(String.valueOf(k), String.valueOf(v)));
        }
        Object cwd = entry.get("cwd");
        return new SharedUpstream(name, command, env, cwd == null ? null : Path.of(String.valueOf(cwd)));
    }

    /**
     * The roots {@code roots/list} answers with (default: none), and that the client then declares (the
     * {@code roots} capability); for the next {@link #start}.
     */
    public SharedUpstream roots(List<URI> uris) {
        ArrayNode list = UpstreamMux.JSON.createArrayNode();
        uris.forEach(u -> list.addObject().put("uri", u.toString()));
        roots = list;
        return this;
    }

    /** How long the process may take to answer {@code initialize} (default 30 s). */
    public SharedUpstream startTimeout(Duration timeout) {
        startTimeout = Objects.requireNonNull(timeout);
        return this;
    }

    /** Its name: the containers' name for it (the tool prefix by default). */
    public String name() {
        return name;
    }

    /**
     * Starts the process and initializes the connection; the containers given it see it from now on.
     *
     * @throws IOException when the process does not start, ends, or does not answer {@code initialize}
     *     within the start timeout with a revision Quiver's client speaks (the process is stopped again)
     * @throws IllegalStateException when it runs already
     */
    public SharedUpstream start() throws IOException {
        Run r;
        ArrayNode rootList = roots;
        synchronized (lock) {
            if (run != null && run.mux().ended() == null) {
                throw new IllegalStateException("shared upstream " + name + " runs already (pid " + run.process().pid() + ")");
            }
            // in a session of its own, as Quiver's own stdio upstreams: what it starts is stopped with it, and a
            // watchdog stops the session should the host's JVM end without closing it (killed, a fault)
            Path directory = cwd != null ? cwd : Path.of("").toAbsolutePath();
            ProcessBuilder builder = new ProcessBuilder(ProcessTree.inOwnSession(command, directory));
            builder.environment().keySet().retainAll(INHERITED);
            builder.environment().putAll(env);
            if (cwd != null) {
                builder.directory(cwd.toFile());
            }
            Process process = ProcessTree.start(builder);
            OutputStream stdin = process.getOutputStream();
            UpstreamMux mux = new UpstreamMux(name, message -> write(stdin, message), rootList);
            r = new Run(process, stdin, mux, new String[1]);
            run = r;
            thread("out", () -> readStdout(r));
            thread("err", () -> drainStderr(process.getErrorStream()));
        }
        // not under the lock: an end meanwhile (the process exits, close()) fails the handshake at once
        try {
            r.initialized()[0] = initialize(r, !rootList.isEmpty());
        } catch (IOException | RuntimeException e) {
            String why = e.getMessage();
            try {
                // a process that exits at once says more by its status than a broken pipe does
                if (r.process().waitFor(1, TimeUnit.SECONDS)) {
                    why = "the process exited with status " + r.process().exitValue() + stderrTail();
                }
            } catch (InterruptedException interrupted) {
                Thread.currentThread().interrupt();
            }
            stop(r, "its start failed: " + why);
            throw new IOException("shared upstream " + name + " did not start: " + why, e);
        }
        synchronized (lock) {
            if (run != r || r.mux().ended() != null) {
                throw new IOException("shared upstream " + name + " ended while it started: " + r.mux().ended());
            }
            LOG.info("Shared upstream {} is ready (pid {})", name, r.process().pid());
            homes.replaceAll((home, registration) -> register(home, r));
        }
        return this;
    }

    private String initialize(Run r, boolean declareRoots) throws IOException {
        ObjectNode params = UpstreamMux.JSON.createObjectNode().put("protocolVersion", SESSION_VERSIONS.get(0));
        ObjectNode capabilities = params.putObject("capabilities");
        capabilities.putObject("elicitation");
        capabilities.putObject("sampling");
        if (declareRoots) {
            capabilities.putObject("roots");
        }
        params.putObject("clientInfo").put("name", "quiver").put("version", FrameworkProperties.version("quiver.version"));
        JsonNode result;
        try {
            result = r.mux().request("initialize", params).get(startTimeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while waiting for initialize", e);
        } catch (TimeoutException e) {
            throw new IOException("no answer to initialize within " + startTimeout.toMillis() + " ms" + stderrTail());
        } catch (ExecutionException e) {
            throw new IOException(e.getCause().getMessage() + stderrTail(), e.getCause());
        }
        String version = result.path("protocolVersion").asString("");
        if (!SESSION_VERSIONS.contains(version)) {
            throw new IOException("the server answered initialize with protocol revision '" + version
                    + "', which Quiver's client does not speak (" + String.join(", ", SESSION_VERSIONS) + ")");
        }
        r.mux().notify("notifications/initialized", null);
        return UpstreamMux.JSON.writeValueAsString(result);
    }

    /** Whether the process runs and is initialized. */
    public boolean running() {
        synchronized (lock) {
            return run != null && run.initialized()[0] != null && run.mux().ended() == null && run.process().isAlive();
        }
    }

    /** The process id, or -1 before the first start. */
    public long pid() {
        synchronized (lock) {
            return run == null ? -1 : run.process().pid();
        }
    }

    /** The {@code initialize} result (JSON text) of the running process, or null while it does not run. */
    public String initializeResult() {
        synchronized (lock) {
            return running() ? run.initialized()[0] : null;
        }
    }

    /**
     * Ends the process and every process it started (end of input, then SIGTERM, then SIGKILL); the
     * containers' tools of it go. It may be {@link #start}ed again. Idempotent.
     */
    @Override
    public void close() {
        Run r;
        synchronized (lock) {
            r = run;
        }
        if (r != null) {
            stop(r, "the host closed it");
        }
    }

    /**
     * Ends a run: the attachments are told first (their calls end at once), the services go, then the
     * process: end of input, and after the grace SIGTERM then SIGKILL to it and to every process it had
     * started when the stop began (a server that exits may leave children orphaned: they go too).
     */
    private void stop(Run r, String why) {
        r.mux().end(why);
        synchronized (lock) {
            if (run == r) {
                unregister();
            }
        }
        List<ProcessHandle> tree = new ArrayList<>();
        tree.add(r.process().toHandle());
        r.process().descendants().forEach(tree::add);
        try {
            r.stdin().close();
        } catch (IOException e) {
            // closed already
        }
        try {
            r.process().waitFor(EXIT_GRACE_MS, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        ProcessTree.terminate(tree, EXIT_GRACE_MS);
    }

    /** A container given it: its service registers there now (when it runs) and at each start. */
    void addHome(BundleContext system) {
        synchronized (lock) {
            homes.put(system, running() ? register(system, run) : null);
        }
    }

    /** A container stops: its service goes, and what it left attached is detached. */
    void removeHome(BundleContext system) {
        ServiceRegistration<?> registration;
        synchronized (lock) {
            registration = homes.remove(system);
        }
        if (registration != null) {
            Attacher attacher = attachers.remove(registration);
            unregister(registration);
            if (attacher != null) {
                attacher.detachAll();
            }
        }
    }

    private ServiceRegistration<?> register(BundleContext home, Run r) {
        Hashtable<String, Object> props = new Hashtable<>();
        props.put(SERVICE_PROPERTY, name);
        props.put(INITIALIZE_PROPERTY, r.initialized()[0]);
        props.put(PID_PROPERTY, r.process().pid());
        Attacher attacher = new Attacher(r.mux());
        try {
            ServiceRegistration<?> registration = home.registerService(Function.class.getName(), attacher, props);
            attachers.put(registration, attacher);
            return registration;
        } catch (IllegalStateException stopped) {
            return null; // that container stopped meanwhile
        }
    }

    /** Takes every container's service away (the process ended or is closed); the homes stay for the next start. */
    private void unregister() {
        homes.replaceAll((home, registration) -> {
            if (registration != null) {
                attachers.remove(registration);
                unregister(registration);
            }
            return null;
        });
    }

    private static void unregister(ServiceRegistration<?> registration) {
        try {
            registration.unregister();
        } catch (IllegalStateException e) {
            // gone with its framework
        }
    }

    /**
     * The service a container gets: its receiver (the server's messages for it, JSON text; then one
     * <code>{"quiver.closed": why}</code> frame when the connection ends) in, its sender out (its messages,
     * JSON text; {@link AutoCloseable#close} detaches). Throws {@link UncheckedIOException} when the
     * connection has ended.
     */
    private static final class Attacher implements Function<Consumer<String>, Consumer<String>> {
        private final UpstreamMux mux;
        private final List<UpstreamMux.Attachment> made = new java.util.concurrent.CopyOnWriteArrayList<>();

        Attacher(UpstreamMux mux) {
            this.mux = mux;
        }

        @Override
        public Consumer<String> apply(Consumer<String> receiver) {
            try {
                UpstreamMux.Attachment a = mux.attach(receiver);
                made.add(a);
                return a;
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        void detachAll() {
            made.forEach(UpstreamMux.Attachment::close);
        }
    }

    /**
     * Attaches a client to the running connection (what each container's service does).
     *
     * @throws IOException when it does not run: never started, its process ended, or closed
     */
    UpstreamMux.Attachment attach(Consumer<String> receiver) throws IOException {
        UpstreamMux mux;
        synchronized (lock) {
            if (!running()) {
                throw new IOException("shared upstream " + name + " is not running" + (run == null ? " (never started)"
                        : " (" + Objects.requireNonNullElse(run.mux().ended(), "it is starting") + ")")
                        + "; the host application starts it");
            }
            mux = run.mux();
        }
        return mux.attach(receiver);
    }

    private static void write(OutputStream stdin, ObjectNode message) throws IOException {
        byte[] bytes = UpstreamMux.JSON.writeValueAsBytes(message);
        synchronized (stdin) {
            stdin.write(bytes);
            stdin.write('\n');
            stdin.flush();
        }
    }

    private void thread(String stream, Runnable body) {
        Thread t = new Thread(body, "quiver-shared-upstream-" + name + "-" + stream);
        t.setDaemon(true);
        t.start();
    }

    private void readStdout(Run r) {
        String why = "its stdout ended";
        try (InputStream stdout = r.process().getInputStream()) {
            if (!Lines.read(stdout, MAX_MESSAGE_BYTES, line -> take(r, line))) {
                why = "it wrote a message longer than " + MAX_MESSAGE_BYTES + " bytes on stdout";
            }
        } catch (IOException e) {
            why = "reading its stdout failed: " + e.getMessage();
        }
        try {
            if (r.process().waitFor(500, TimeUnit.MILLISECONDS)) {
                why = "the process exited with status " + r.process().exitValue();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (r.mux().ended() == null) {
            if (r.initialized()[0] != null) {
                LOG.warn("Shared upstream {} ended: {}; the containers' tools of it are withdrawn until the host starts"
                        + " it again{}", name, why, stderrTail());
            }
            stop(r, why);
        }
    }

    private void take(Run r, byte[] bytes) {
        if (bytes.length == 0) {
            return;
        }
        try {
            if (UpstreamMux.JSON.readTree(bytes) instanceof ObjectNode message) {
                r.mux().fromServer(message);
                return;
            }
        } catch (JacksonException e) {
            // reported below
        }
        LOG.warn("Shared upstream {} wrote a line that is not a JSON-RPC message on stdout: {}", name,
                new String(bytes, 0, Math.min(bytes.length, 200), StandardCharsets.UTF_8));
    }

    private void drainStderr(InputStream err) {
        if (err == null) {
            return;
        }
        try (InputStream in = err) {
            java.io.BufferedReader reader = new java.io.BufferedReader(new java.io.InputStreamReader(in, StandardCharsets.UTF_8));
            String text;
            while ((text = reader.readLine()) != null) {
                if (text.isBlank()) {
                    continue;
                }
                String kept = text.length() > 2_000 ? text.substring(0, 2_000) : text;
                synchronized (stderr) {
                    if (stderr.size() == STDERR_LINES) {
                        stderr.removeFirst();
                    }
                    stderr.addLast(kept);
                }
                LOG.info("[{}] {}", name, kept);
            }
        } catch (IOException e) {
            // the process is gone
        }
    }

    private String stderrTail() {
        synchronized (stderr) {
            if (stderr.isEmpty()) {
                return "";
            }
            List<String> last = new ArrayList<>(stderr);
            return "; its stderr ended with: " + String.join(" | ", last.subList(Math.max(0, last.size() - 5), last.size()));
        }
    }

    @Override
    public String toString() {
        return "shared upstream " + name + " (" + String.join(" ", command) + ")";
    }
}
