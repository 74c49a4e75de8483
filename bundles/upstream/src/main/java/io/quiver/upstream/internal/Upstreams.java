package io.quiver.upstream.internal;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;

import org.osgi.framework.BundleContext;
import org.osgi.framework.InvalidSyntaxException;
import org.osgi.framework.ServiceEvent;
import org.osgi.framework.ServiceListener;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.osgi.service.component.annotations.ReferencePolicy;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.quiver.api.operator.Problem;
import io.quiver.api.operator.ProblemSource;
import io.quiver.api.operator.UpstreamDirectory;
import io.quiver.api.operator.UpstreamInfo;
import io.quiver.lib.config.TypedConfig;

/**
 * The upstream servers: what {@code etc/mcp-servers.json} and the {@code etc/*.mcp.json} files declare,
 * with Quiver's settings for each ({@code etc/io.quiver.upstream-NAME.cfg}), each run by an
 * {@link Upstream}. The files are looked at every {@value #POLL_MS} ms; a server added is started, one
 * whose declaration changed is stopped and started again, one removed is stopped, and the others are not
 * touched (their processes keep running). Settings that change only how tools are exposed (prefix,
 * include, exclude, tenants, timeouts) re-register the tools without a new process.
 *
 * <p>A server the host application shares when Quiver is embedded (the launcher's {@code SharedUpstream},
 * reached through a service of the system bundle: {@link SharedConnection}) runs beside them under its
 * name, with the same settings files, while its service is registered.
 *
 * <p>Also an {@link UpstreamDirectory} (what {@link UpstreamCommands} and the admin tools show) and a
 * {@link ProblemSource} ({@code quiver:problems}): files and settings that are not valid, and servers
 * that failed or are backing off.
 */
@Component(service = {Upstreams.class, ProblemSource.class, UpstreamDirectory.class}, immediate = true)
public final class Upstreams implements ProblemSource, UpstreamDirectory {

    private static final Logger LOG = LoggerFactory.getLogger(Upstreams.class);
    /** How often the folder is looked at for changed files. */
    static final long POLL_MS = 1_000;
    /** The property of the launcher's service saying the start is over. */
    static final String STARTED = "quiver.started";
    /** How long the servers wait for that service at most (a framework without Quiver's launcher). */
    static final long STARTED_WAIT_MS = 15_000;
    /** The framework property naming the configuration folder (set by the launcher). */
    static final String ETC = "quiver.etc";

    private final BundleContext context;
    private final Path etc;
    private final Path workingDirectory;
    private final UnaryOperator<String> environment;
    private final ScheduledExecutorService timer;
    private final ExecutorService work;
    private final Map<String, Upstream> running = new ConcurrentHashMap<>();
    private final List<UpstreamSettings> settings = new CopyOnWriteArrayList<>();
    private volatile List<Problem> fileProblems = List.of();
    private volatile List<Problem> settingsProblems = List.of();
    private String fingerprint = "";
    private volatile boolean settingsChanged = true;
    private volatile boolean closed;
    private final java.util.concurrent.atomic.AtomicBoolean begun = new java.util.concurrent.atomic.AtomicBoolean();

    @Activate
    public Upstreams(BundleContext context) {
        this.context = context;
        String configured = context.getProperty(ETC);
        this.etc = Path.of(configured == null ? "etc" : configured).toAbsolutePath().normalize();
        this.workingDirectory = Path.of("").toAbsolutePath();
        this.environment = System::getenv;
        // work handed to them while the component stops is dropped, not thrown at the thread handing it
        ScheduledThreadPoolExecutor scheduler = new ScheduledThreadPoolExecutor(1, r -> daemon(r, "quiver-upstreams"),
                new ThreadPoolExecutor.DiscardPolicy());
        // a stop waits for the task that runs, not for delayed ones (the first start's fallback, a restart)
        scheduler.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
        this.timer = scheduler;
        this.work = new ThreadPoolExecutor(0, Integer.MAX_VALUE, 60, TimeUnit.SECONDS, new SynchronousQueue<>(),
                r -> daemon(r, "quiver-upstream-start"), new ThreadPoolExecutor.DiscardPolicy());
        // the servers start once the launcher says the start is over (child processes starting beside the
        // framework slow the endpoint's own start on a small machine), or after STARTED_WAIT_MS without it
        try {
            // the servers the host application shares (see SharedConnection): one appears and goes with its service
            context.addServiceListener(sharedListener, SharedConnection.FILTER);
            context.addServiceListener(started, "(" + STARTED + "=true)");
            if (context.getServiceReferences((String) null, "(" + STARTED + "=true)") != null) {
                timer.execute(this::begin);
            }
        } catch (InvalidSyntaxException e) {
            throw new IllegalStateException(e);
        }
        timer.schedule(this::begin, STARTED_WAIT_MS, TimeUnit.MILLISECONDS);
    }

    private final ServiceListener started = this::serviceEvent;
    private final ServiceListener sharedListener = event -> changed();

    private void serviceEvent(ServiceEvent event) {
        if (event.getType() == ServiceEvent.REGISTERED && !closed) {
            timer.execute(this::begin);
        }
    }

    /** Starts looking at the files, once. */
    private void begin() {
        if (begun.compareAndSet(false, true) && !closed) {
            LOG.debug("The upstream servers start now");
            timer.scheduleWithFixedDelay(this::poll, 0, POLL_MS, TimeUnit.MILLISECONDS);
        }
    }

    private static Thread daemon(Runnable r, String name) {
        Thread t = new Thread(r, name);
        t.setDaemon(true);
        return t;
    }

    @Reference(cardinality = ReferenceCardinality.MULTIPLE, policy = ReferencePolicy.DYNAMIC)
    void addSettings(UpstreamSettings s) {
        settings.add(s);
        changed();
    }

    void removeSettings(UpstreamSettings s) {
        settings.remove(s);
        changed();
    }

    private void changed() {
        settingsChanged = true;
        if (timer != null && !closed) {
            timer.execute(this::poll);
        }
    }

    @Deactivate
    void deactivate() throws InterruptedException {
        closed = true;
        context.removeServiceListener(started);
        context.removeServiceListener(sharedListener);
        timer.shutdown();
        timer.awaitTermination(10, TimeUnit.SECONDS);
        List<CompletableFuture<Void>> stops = new ArrayList<>();
        for (Upstream u : running.values()) {
            stops.add(CompletableFuture.runAsync(u::stop, work));
        }
        try {
            CompletableFuture.allOf(stops.toArray(CompletableFuture[]::new)).get(15, TimeUnit.SECONDS);
        } catch (Exception e) {
            LOG.warn("Stopping the upstream servers took too long: {}", e.toString());
        }
        running.clear();
        work.shutdownNow();
    }

    /** Looks at the files and settings; reconciles when either changed. Runs on the timer thread only. */
    private void poll() {
        if (closed || !begun.get()) {
            return;
        }
        try {
            String now = ServersFiles.fingerprint(etc);
            boolean filesChanged = !now.equals(fingerprint);
            if (!filesChanged && !settingsChanged) {
                return;
            }
            fingerprint = now;
            settingsChanged = false;
            reconcile(filesChanged);
        } catch (RuntimeException e) {
            LOG.error("Reading the upstream servers' configuration failed", e);
        }
    }

    private void reconcile(boolean filesChanged) {
        ServersFiles.Read read = ServersFiles.read(etc, environment);
        fileProblems = read.problems();
        for (Problem p : read.problems()) {
            LOG.error("{}: {}", p.subject(), p.reason());
        }
        Map<String, Map<String, Object>> byServer = new HashMap<>();
        List<Problem> problems = new ArrayList<>();
        Map<String, ServerSpec> shared = shared();
        for (UpstreamSettings s : settings) {
            String server = s.server();
            if (byServer.putIfAbsent(server, s.properties) != null) {
                problems.add(new Problem(TypedConfig.source(s.properties), "a second settings file for server " + server
                        + "; it is ignored"));
            }
            if (!read.servers().containsKey(server) && !shared.containsKey(server)) {
                problems.add(new Problem(TypedConfig.source(s.properties), "settings for server " + server
                        + ", which no mcpServers file in etc/ declares"));
            }
        }
        // what should run: one instance per server, or one per tenant of a per-tenant server
        Map<String, Instance> wanted = new LinkedHashMap<>();
        for (ServerSpec spec : shared.values()) {
            Map<String, Object> props = byServer.getOrDefault(spec.name(), Map.of());
            TypedConfig.Result<UpstreamConfig> result = TypedConfig.read(UpstreamConfig.class, props, null);
            result.problems().forEach(p -> problems.add(new Problem(p.source(), p.text())));
            if ("per-tenant".equals(result.config().instances())) {
                problems.add(new Problem("upstream " + spec.name(), "instances = per-tenant does not apply to a server"
                        + " the host application shares: its one process serves every tenant listed"));
            }
            if (read.servers().containsKey(spec.name())) {
                problems.add(new Problem("upstream " + spec.name(), "declared in etc/"
                        + read.servers().get(spec.name()).source().getFileName() + " and shared by the host application;"
                        + " the host's is used"));
            }
            wanted.put(spec.name(), new Instance(spec, result.config()));
        }
        for (ServerSpec spec : read.servers().values()) {
            if (shared.containsKey(spec.name())) {
                continue;
            }
            Map<String, Object> props = byServer.getOrDefault(spec.name(), Map.of());
            TypedConfig.Result<UpstreamConfig> result = TypedConfig.read(UpstreamConfig.class, props, null);
            result.problems().forEach(p -> problems.add(new Problem(p.source(), p.text())));
            UpstreamConfig config = result.config();
            if (!"per-tenant".equals(config.instances())) {
                wanted.put(spec.name(), new Instance(spec, config));
                continue;
            }
            List<String> tenants = TypedConfig.list(config.tenants());
            if (tenants.isEmpty()) {
                problems.add(new Problem("upstream " + spec.name(), "instances = per-tenant needs tenants (one process"
                        + " each); it does not run"));
                continue;
            }
            for (String tenant : tenants) {
                if (!io.quiver.api.CallerIdentity.isPlaceName(tenant)) {
                    problems.add(new Problem("upstream " + spec.name(), "tenant '" + tenant + "' is not a tenant name"));
                    continue;
                }
                Map<String, Object> own = new HashMap<>(props);
                own.put("tenants", new String[] {tenant});
                if (config.prefix().isEmpty()) {
                    own.put("prefix", spec.name());
                }
                ServerSpec instance = spec.forTenant(tenant);
                wanted.put(instance.name(), new Instance(instance, TypedConfig.read(UpstreamConfig.class, own, null).config()));
            }
        }
        for (String name : List.copyOf(running.keySet())) {
            if (!wanted.containsKey(name)) {
                Upstream gone = running.remove(name);
                LOG.info("Upstream {} is no longer declared; stopping it", name);
                gone.stop();
            }
        }
        for (Instance want : wanted.values()) {
            ServerSpec spec = want.spec();
            UpstreamConfig config = want.config();
            Upstream existing = running.get(spec.name());
            boolean restartFailed = filesChanged && existing != null
                    && existing.status().state() == Upstream.State.FAILED;
            if (existing == null || !existing.spec().sameServer(spec) || restartFailed) {
                if (existing != null) {
                    LOG.info("Upstream {}: {}; starting it afresh", spec.name(),
                            restartFailed ? "its configuration was edited after it failed" : "its declaration changed");
                    existing.stop();
                }
                Upstream started = new Upstream(spec, config, context, timer, work, workingDirectory);
                running.put(spec.name(), started);
                started.start();
            } else if (!same(existing.config(), config)) {
                existing.reconfigure(config);
            }
        }
        if (!problems.equals(settingsProblems)) {
            problems.stream().filter(p -> !settingsProblems.contains(p)).forEach(p -> LOG.error("{}: {}", p.subject(),
                    p.reason()));
        }
        settingsProblems = List.copyOf(problems);
    }

    /**
     * The servers the host application shares now, by name (of two registrations of one name, the one
     * of the highest ranking, then the oldest, as the framework orders services):
     * each a {@link ServerSpec#shared} naming its service.
     */
    private Map<String, ServerSpec> shared() {
        Map<String, ServerSpec> out = new java.util.TreeMap<>();
        try {
            var refs = context.getServiceReferences(java.util.function.Function.class.getName(), SharedConnection.FILTER);
            if (refs != null) {
                java.util.Arrays.sort(refs); // ascending: the last put is the framework's first
                for (var ref : refs) {
                    String name = String.valueOf(ref.getProperty(SharedConnection.NAME));
                    if (!ServerSpec.NAME.matcher(name).matches()) {
                        LOG.error("The host shares an upstream named '{}', which is not a server name; it is ignored", name);
                        continue;
                    }
                    out.put(name, ServerSpec.shared(name, (Long) ref.getProperty(org.osgi.framework.Constants.SERVICE_ID)));
                }
            }
        } catch (InvalidSyntaxException | IllegalStateException e) {
            LOG.debug("Looking for the servers the host shares failed: {}", e.toString());
        }
        return out;
    }

    /** One process to run: a server, or a per-tenant server's instance for one tenant. */
    private record Instance(ServerSpec spec, UpstreamConfig config) {
    }

    /** Whether two settings are equal member by member (the proxies do not say). */
    private static boolean same(UpstreamConfig a, UpstreamConfig b) {
        for (var m : UpstreamConfig.class.getDeclaredMethods()) {
            if (m.getParameterCount() == 0 && !java.lang.reflect.Modifier.isStatic(m.getModifiers())
                    && TypedConfig.changed(a, b, m.getName())) {
                return false;
            }
        }
        return true;
    }

    @Override
    public List<Problem> problems() {
        List<Problem> out = new ArrayList<>(fileProblems);
        out.addAll(settingsProblems);
        for (Upstream u : running.values()) {
            Upstream.Status s = u.status();
            if (s.state() == Upstream.State.FAILED || s.state() == Upstream.State.BACKING_OFF) {
                out.add(new Problem("upstream " + s.name(), s.state().label() + ": "
                        + Objects.requireNonNullElse(s.lastError(), "no reason recorded")));
            }
        }
        return out;
    }

    /** One server, or null. */
    Upstream running(String name) {
        return running.get(name);
    }

    /** Every server's status, by name. */
    public List<Upstream.Status> statuses() {
        Map<String, Upstream.Status> sorted = new java.util.TreeMap<>();
        running.values().forEach(u -> sorted.put(u.spec().name(), u.status()));
        return List.copyOf(sorted.values());
    }

    @Override
    public List<UpstreamInfo> upstreams() {
        return statuses().stream().map(s -> new UpstreamInfo(s.name(), s.kind(), s.state().label(), s.detail(), s.tools(),
                s.restarts(), s.lastError(), s.source(), s.stderrTail(), s.protocol(), s.prompts(), s.resources())).toList();
    }

    /** The configuration folder. */
    Path etc() {
        return etc;
    }
}
