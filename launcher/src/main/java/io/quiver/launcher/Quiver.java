package io.quiver.launcher;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.Hashtable;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.felix.framework.Felix;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.framework.BundleException;
import org.osgi.framework.FrameworkEvent;
import org.osgi.framework.InvalidSyntaxException;
import org.osgi.framework.ServiceReference;
import org.osgi.framework.ServiceRegistration;
import org.osgi.framework.launch.Framework;
import org.osgi.framework.startlevel.FrameworkStartLevel;
import org.osgi.framework.wiring.BundleCapability;
import org.osgi.framework.wiring.BundleRevision;
import org.osgi.framework.wiring.FrameworkWiring;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A Quiver server in this JVM: an Apache Felix framework running the bundles of some features.
 *
 * <pre>{@code
 * try (Quiver quiver = Quiver.builder().port(0).etc(dir.resolve("etc")).deploy(dir.resolve("deploy")).start()) {
 *     URI mcp = quiver.url();                  // http://127.0.0.1:<port>/mcp, answering
 *     BundleContext ctx = quiver.framework().getBundleContext();
 * }
 * }</pre>
 *
 * {@link #start()} returns once the MCP endpoint answers HTTP (when the features include an HTTP
 * runtime). Logging goes through slf4j; the launcher never writes to stdout.
 */
public final class Quiver implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(Quiver.class);
    /**
     * How long a stop waits for the framework: longer than the engine's grace period for calls in flight
     * (shutdownGraceMs, 10 s by default). The system property {@code quiver.stopTimeoutMs} changes it (at least 1).
     */
    private static final Duration STOP_TIMEOUT = Duration.ofMillis(Math.max(1, Long.getLong("quiver.stopTimeoutMs", 60_000)));
    private static final long ETC_TIMEOUT_MS = 3000;
    private static final String TRANSPORT_PID = "io.quiver.transport.http";
    /** The feature of the host bridge, added when the builder is given a {@link Host}. */
    private static final String HOST_FEATURE = "host";

    private final LaunchSettings settings;
    private final FeatureCatalog catalog;
    private final BundleRepository repository;
    private volatile Framework framework;
    /** Set when a stop left the framework running (see {@link #stopFailed}). */
    private volatile boolean stopFailed;
    private volatile boolean stopRequested;
    private volatile Storage storage;
    /** The storage template this run makes as it stops, or null. */
    private volatile StorageTemplate template;
    /** Whether the start got through (the endpoint answered): only such a run makes a storage template. */
    private volatile boolean whole;
    private volatile URI url;
    private volatile List<String> problems = List.of();
    private boolean started;
    private boolean released;
    /** The thread in {@link #start()} while it runs (guarded by this): it alone writes into the storage then. */
    private Thread launcher;
    /** Host tools to register once the framework runs (from the builder). */
    private final List<ToolSpec> hostTools = new ArrayList<>();
    private volatile HostTools bridge;
    /** The host application's channel (from the builder), or null. */
    private Host host;
    private volatile HostEndpoint hostEndpoint;
    /** The upstream servers the host owns and shares with this container (from the builder). */
    private final List<SharedUpstream> sharedUpstreams = new ArrayList<>();
    private volatile BundleContext systemContext;

    /** A host tool as the builder was given it. */
    private record ToolSpec(String name, String description, String inputSchema, Map<String, Object> meta, HostTool tool) {
    }

    public Quiver(LaunchSettings settings) {
        this(settings, FeatureCatalog.embedded(), BundleRepository.standard());
    }

    Quiver(LaunchSettings settings, FeatureCatalog catalog, BundleRepository repository) {
        this.settings = settings;
        this.catalog = catalog;
        this.repository = repository;
    }

    /** The framework property naming an embedding application's private folders ({@link Builder#privateFolder}). */
    public static final String PRIVATE_FOLDERS = "quiver.private";

    public static Builder builder() {
        return new Builder();
    }

    /**
     * Starts the framework and the features' bundles, then waits for the MCP endpoint.
     *
     * @throws QuiverException when a feature or bundle is missing, the framework does not start, or
     *                         the endpoint does not answer within the start timeout; the framework
     *                         is stopped again. Also when {@link #stop()} was called before the start
     *                         was over (a signal to the process, say): then nothing is left running
     */
    public Quiver start() throws QuiverException {
        synchronized (this) {
            if (started) {
                throw new IllegalStateException("already started");
            }
            started = true;
            launcher = Thread.currentThread();
        }
        if (LoggerFactory.getILoggerFactory().getClass().getSimpleName().startsWith("NOP")) {
            // embedded without an SLF4J provider: the whole log, errors included, would vanish unseen
            System.err.println("Quiver: no SLF4J provider on the class path, so Quiver's log (errors included) is"
                    + " discarded; add one, e.g. org.slf4j:slf4j-simple (see docs/embedding.md)");
        }
        try {
            launch(System.nanoTime() + settings.startTimeout().toNanos());
            return this;
        } catch (Exception e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            boolean overtaken = stopRequested; // read before the stop below, which sets it
            stop();
            throw new QuiverException(overtaken ? STOPPED_WHILE_STARTING : why(e), e);
        } finally {
            synchronized (this) {
                launcher = null;
                notifyAll(); // a stop on another thread waits for this
            }
        }
    }

    /** What {@link #start()} throws when {@link #stop()} came first: {@value #STOPPED_WHILE_STARTING}. */
    static final String STOPPED_WHILE_STARTING = "stopped before the start was over";

    private String why(Exception failure) {
        if (failure instanceof InterruptedException) {
            return "interrupted while starting";
        }
        Path httpFile = settings.etc() == null ? null : FrameworkProperties.httpConfiguration(settings.etc());
        if (failure instanceof EndpointWaiter.JettyFailed) {
            return "Felix HTTP could not start Jetty" + (httpFile == null ? "" : " with " + httpFile) + ": "
                    + failure.getMessage();
        }
        if (failure instanceof TimeoutException) {
            String http = httpFile == null ? ""
                    : " (Felix HTTP starts Jetty with " + httpFile
                            + ": its errors, a key store that does not open, a port in use, are in the log above)";
            return "the MCP endpoint is not ready after " + settings.startTimeout().toSeconds() + " s: "
                    + failure.getMessage() + http;
        }
        if (failure instanceof java.nio.file.FileSystemException fs) {
            // its message is often the path alone: its type says what went wrong with it
            return fs + " (a folder of --etc, --deploy or --data that is a file, or cannot be made or written?)";
        }
        return failure.getMessage() == null ? failure.toString() : failure.getMessage();
    }

    /** Whether {@link #stop()} was called (by a signal, say), also before the start was over. */
    boolean stopRequested() {
        return stopRequested;
    }

    /**
     * Ends a start that a {@link #stop()} overtook: a stop that came before the framework existed
     * (or before a bundle it then installed and started) found nothing to stop.
     */
    private void checkNotStopped() throws StoppedWhileStarting {
        if (stopRequested) {
            throw new StoppedWhileStarting();
        }
    }

    private static final class StoppedWhileStarting extends Exception {
        private static final long serialVersionUID = 1L;

        StoppedWhileStarting() {
            super(STOPPED_WHILE_STARTING, null, false, false);
        }
    }

    private void launch(long deadline) throws Exception {
        checkNotStopped(); // a stop that came first (a signal while the JVM shut down, say): nothing is made
        long t0 = System.nanoTime();
        // the features are read (the launcher's first JSON) while the framework initialises
        FutureTask<LaunchPlan> planning = inBackground("quiver-plan", () -> LaunchPlan.of(catalog.load(settings.features())));
        DirectoryWatch watch = new DirectoryWatch(settings.etc(), settings.deploy());
        storage = Storage.of(settings.data());
        watch.keepTemporaryFilesIn(storage.folder());
        StorageTemplate template = storage.temporary() ? StorageTemplate.configured(settings.features()) : null;
        if (template != null) {
            template.seed(storage.folder());
        }

        SharedLibraries libraries = SharedLibraries.find(Quiver.class.getClassLoader(), repository);
        Framework fw = new Felix(FrameworkProperties.of(settings, storage, watch, libraries));
        framework = fw;
        fw.init();
        checkNotStopped(); // from here on a stop finds the framework, and stops what it holds
        LaunchPlan plan = libraries.without(result(planning));
        watch.createFolders(); // not for a start that fails on its features
        long t1 = System.nanoTime();
        BundleContext context = fw.getBundleContext();
        // a storage seeded from a template is checked as a kept one is; the fingerprints of a fresh one are taken
        // only for the template it makes
        this.template = template;
        BundleInstaller installer = new BundleInstaller(repository);
        List<Bundle> bundles;
        try {
            bundles = installer.install(context, plan, storage.temporary() && template == null ? null : storage.folder());
        } catch (IOException | BundleException | RuntimeException e) {
            if (template != null) {
                template.installFailed();
            }
            throw e;
        }
        if (template != null) {
            template.installed(storage.folder(), bundles, installer.changed()); // before any bundle starts
        }
        KeptBundles kept = storage.temporary() ? KeptBundles.NONE : KeptBundles.holdBack(context, storage.folder());
        boolean http = providesHttpRuntime(bundles);
        int plainPort = settings.etc() == null ? settings.port()
                : FrameworkProperties.plainHttpPort(settings.etc(), settings.port());
        if (http && plainPort >= 0) { // not when etc/ turns plain HTTP off (HTTPS only)
            requireFreePort(settings.bind(), plainPort);
        }
        fw.start();
        long t2 = System.nanoTime();
        if (host != null) {
            hostEndpoint = HostEndpoint.open(host, context); // before any bundle can take a call
        }
        systemContext = context;
        for (SharedUpstream shared : sharedUpstreams) {
            shared.addHome(context); // the upstream bundle attaches once the start is over (quiver.started)
        }

        // the endpoint is awaited while the bundles start: its first request loads the HTTP path
        // on its own thread while the tools start on theirs (the endpoint line still waits for both)
        FutureTask<URI> endpoint = null;
        if (settings.awaitEndpoint() && http) {
            EndpointWaiter waiter = new EndpointWaiter(context, settings.bind());
            endpoint = inBackground("quiver-endpoint-waiter", () -> waiter.await(remainingMs(deadline)));
        }
        try {
            checkNotStopped();
            startBundles(fw, context, plan, watch, bundles, kept, deadline, http);
            checkNotStopped();
        } catch (Exception | Error e) {
            if (endpoint != null) {
                endpoint.cancel(true);
            }
            throw e;
        }
        long t3 = System.nanoTime();
        LOG.debug("Features and framework {} ms, {} bundles installed {} ms, started {} ms",
                ms(t1 - t0), bundles.size(), ms(t2 - t1), ms(t3 - t2));
        if (endpoint != null) {
            url = result(endpoint);
            if (url == null) { // stopped meanwhile (with --stdio: the client was done already)
                LOG.info("The server stopped before its HTTP endpoint answered");
                return;
            }
            LOG.debug("Endpoint {} answered {} ms after the bundles started", url, ms(System.nanoTime() - t3));
        } else if (!http && !settings.stdio()) { // with --stdio, having no HTTP endpoint is what was asked for
            LOG.info("The features {} have no HTTP runtime: no MCP endpoint to wait for", settings.features());
        }
        announceStarted(context);
        whole = true;
        if (storage.temporary()) {
            Storage own = storage;
            inBackground("quiver-storage-sweep", () -> {
                int swept = own.sweepLeftOvers(SWEEP_MIN_AGE_MS);
                if (swept > 0) {
                    LOG.info("Deleted {} temporary storages that killed servers had left in {}", swept,
                            own.folder().getParent());
                }
                return swept;
            });
        }
    }

    /** How old a temporary storage's lock file must be before a start may sweep it away: {@value} ms. */
    private static final long SWEEP_MIN_AGE_MS = 60_000;

    /** Runs {@code work} on a daemon thread of its own. */
    static <T> FutureTask<T> inBackground(String name, Callable<T> work) {
        FutureTask<T> task = new FutureTask<>(work);
        Thread thread = new Thread(task, name);
        thread.setDaemon(true);
        thread.start();
        return task;
    }

    /** The task's result, or what it threw. */
    private static <T> T result(FutureTask<T> task) throws Exception {
        try {
            return task.get();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof Exception cause) {
                throw cause;
            }
            throw e;
        }
    }

    private void startBundles(Framework fw, BundleContext context, LaunchPlan plan, DirectoryWatch watch,
                              List<Bundle> bundles, KeptBundles kept, long deadline, boolean http)
            throws InterruptedException, TimeoutException, IOException {
        StartupConfigurer configurer = new StartupConfigurer(context, plan.configurations(), watch,
                Math.min(ETC_TIMEOUT_MS, remainingMs(deadline)));
        BundleStarter starter = new BundleStarter(fw.adapt(FrameworkWiring.class));
        starter.startAll(bundles, configurer, configurer::configured);
        configurer.finish();
        problems = starter.problems();
        for (ToolSpec spec : hostTools) {
            addTool(spec.name(), spec.description(), spec.inputSchema(), spec.meta(), spec.tool());
        }
        if (hostEndpoint != null) {
            awaitHostBridge(deadline);
        }
        if (http) {
            requireSafetyBeyondLoopback(context);
        }
        // what earlier runs installed at run time, held back from the framework's start, once the deployer has
        // removed the bundles of files deleted meanwhile; a bundle that does not finish starting holds nothing up
        List<String> late = new ArrayList<>(kept.restart(KeptBundles.timeoutMs())); // not the endpoint's deadline
        // then what deploy/ holds now, so that its tools are listed and its extensions hold once the start is over (a
        // kept bundle still starting is left alone: the pass does not wait for it again)
        String pass = deployFirstPass(context, KeptBundles.timeoutMs());
        if (pass != null) {
            late.add(pass);
        }
        if (stopRequested) {
            return; // deploy/ is not watched by a server that stops (the caller ends the start)
        }
        if (!late.isEmpty()) {
            List<String> all = new ArrayList<>(problems);
            all.addAll(late);
            problems = List.copyOf(all);
        }
        // now that the deployer guards it, deploy/ is watched (FileInstall's active level)
        fw.adapt(FrameworkStartLevel.class).setStartLevel(DirectoryWatch.DEPLOY_START_LEVEL);
    }

    /** The service property of the deployer's first pass over deploy/: {@value}. */
    static final String DEPLOY_PASS = "quiver.deploy.pass";

    /**
     * Runs the deployer bundle's first pass over deploy/ ({@value #DEPLOY_PASS}: a {@link Callable}), which installs and
     * starts what the folder holds, waiting at most {@code timeoutMs}; a pass that takes longer goes on while the server
     * serves. Answers a problem to list, or null. Without the deployer (a feature set without it) there is none.
     */
    private String deployFirstPass(BundleContext context, long timeoutMs) {
        ServiceReference<?>[] refs;
        try {
            refs = context.getServiceReferences(Callable.class.getName(), "(" + DEPLOY_PASS + "=true)");
        } catch (InvalidSyntaxException e) {
            throw new IllegalStateException(e);
        }
        // the features' deployer only, not a service of that name from a bundle installed at run time
        ServiceReference<?> ref = refs == null ? null : Arrays.stream(refs).filter(r -> r.getBundle() != null
                && DEPLOYER.equals(r.getBundle().getSymbolicName())
                && r.getBundle().getLocation().startsWith(BundleInstaller.PREFIX)).findFirst().orElse(null);
        Object service = ref == null ? null : context.getService(ref);
        if (!(service instanceof Callable<?> pass)) {
            return null;
        }
        FutureTask<?> task = inBackground("quiver-deploy-pass", pass);
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        try {
            // a stop ends the wait (the pass itself ends with the framework)
            while (!task.isDone() && !stopRequested && deadline - System.nanoTime() > 0) {
                try {
                    task.get(STOP_POLL_MS, TimeUnit.MILLISECONDS);
                } catch (TimeoutException e) {
                    // look again
                }
            }
            if (task.isDone()) {
                LOG.debug("deploy/'s first pass handed over {} files", task.get());
            } else if (!stopRequested) {
                String problem = "deploy/ is still being installed after " + timeoutMs + " ms ("
                        + KeptBundles.TIMEOUT_PROPERTY + "); the server serves meanwhile, and its bundles go on starting";
                LOG.warn(problem);
                return problem;
            }
            return null;
        } catch (ExecutionException e) {
            LOG.warn("deploy/'s first pass failed; FileInstall installs the folder instead", e.getCause());
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt(); // stopping
            return null;
        } finally {
            context.ungetService(ref);
        }
    }

    /** The bundle of the deploy folder's installers. */
    private static final String DEPLOYER = "io.quiver.deployer";
    /** How often the wait for deploy/'s first pass looks whether the server is stopping: {@value} ms. */
    private static final long STOP_POLL_MS = 100;

    /** Until the host bridge runs the engine admits no call (quiver.host.required): start returns once it does. */
    private void awaitHostBridge(long deadline) throws InterruptedException, TimeoutException {
        while (!hostEndpoint.bridged()) {
            if (System.nanoTime() - deadline > 0) {
                throw new TimeoutException("the host bridge (feature host) did not start");
            }
            Thread.sleep(10);
        }
    }

    /** The property of the service saying the start is over (the endpoint answers): {@value}. */
    public static final String STARTED = "quiver.started";

    /**
     * Registers a marker service ({@value #STARTED} = true) once the start is over, so that work which
     * may wait (the upstream servers' child processes) does not compete with the start on a small machine.
     */
    private static void announceStarted(BundleContext context) {
        Hashtable<String, Object> props = new Hashtable<>();
        props.put(STARTED, Boolean.TRUE);
        context.registerService(Object.class, new Object(), props);
    }

    /**
     * Refuses to serve beyond loopback without {@code allowedHosts} (any client could then name a
     * loopback host and pass the DNS-rebinding check) or without authentication, unless
     * {@code --insecure-no-auth} says so (then warns at every start). The transport refuses too; this
     * says why at once and ends the start.
     */
    private void requireSafetyBeyondLoopback(BundleContext context) {
        if (isLoopback(settings.bind())) {
            return;
        }
        Object hosts = ConfigAdminBridge.find(context).map(c -> c.properties(TRANSPORT_PID))
                .map(p -> p.get("allowedHosts")).orElse(null);
        if (names(hosts).isEmpty()) {
            throw new IllegalStateException("--bind " + settings.bind() + " listens beyond loopback, which needs"
                    + " allowedHosts: the host names clients use to reach this server. Set it in "
                    + settings.etc().resolve(TRANSPORT_PID + ".cfg") + " (for example: allowedHosts = mcp.example.com),"
                    + " or bind to 127.0.0.1");
        }
        if (Boolean.parseBoolean(context.getProperty(FrameworkProperties.AUTH_REQUIRED))) {
            return; // etc/ configures authentication (FrameworkProperties looked)
        }
        if (!Boolean.parseBoolean(context.getProperty(FrameworkProperties.INSECURE_NO_AUTH))) {
            throw new IllegalStateException("--bind " + settings.bind() + " listens beyond loopback, which needs"
                    + " authentication: configure " + settings.etc().resolve("io.quiver.auth.jwt.cfg")
                    + " or create an API key (quiver apikey create --subject NAME --write), see docs/security.md;"
                    + " or give --insecure-no-auth to serve anyone who can reach this address");
        }
        LOG.warn("--insecure-no-auth: serving MCP on {} WITHOUT authentication; anyone who can reach this address"
                + " can call every tool", settings.bind());
    }

    /** The names of a list setting as Configuration Admin holds it (text with commas, an array, a list). */
    static List<String> names(Object value) {
        List<Object> items = new ArrayList<>();
        if (value instanceof Object[] array) {
            items.addAll(Arrays.asList(array));
        } else if (value instanceof Collection<?> c) {
            items.addAll(c);
        } else if (value != null) {
            items.add(value);
        }
        return items.stream().flatMap(i -> Arrays.stream(String.valueOf(i).split(","))).map(String::trim)
                .filter(n -> !n.isEmpty()).toList();
    }

    /** Whether an address (a literal or a name) is the loopback interface only. */
    static boolean isLoopback(String bind) {
        String host = bind.trim();
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        try {
            for (InetAddress address : InetAddress.getAllByName(host)) {
                if (!address.isLoopbackAddress()) {
                    return false;
                }
            }
            return true;
        } catch (UnknownHostException e) {
            return false;
        }
    }

    private static long ms(long nanos) {
        return nanos / 1_000_000L;
    }

    /**
     * Fails fast, with a message that names the cause, where Jetty would fail to listen and the start
     * would only time out.
     */
    private static void requireFreePort(String bind, int port) {
        InetAddress address;
        try {
            address = InetAddress.getByName(bind);
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("unknown bind address '" + bind + "'");
        }
        try (ServerSocket probe = new ServerSocket()) {
            probe.setReuseAddress(true); // as Jetty does: sockets in TIME_WAIT do not count
            probe.bind(new InetSocketAddress(address, port));
        } catch (IOException e) {
            throw new IllegalStateException("cannot listen on " + bind + ":" + port + " (" + e.getMessage() + ")"
                    + (port == 0 ? "" : "; is another server using the port? --port 0 lets the OS choose"));
        }
    }

    private static boolean providesHttpRuntime(List<Bundle> bundles) {
        for (Bundle b : bundles) {
            BundleRevision revision = b.adapt(BundleRevision.class);
            if (revision == null) {
                continue;
            }
            for (BundleCapability c : revision.getDeclaredCapabilities("osgi.implementation")) {
                if ("osgi.http".equals(c.getAttributes().get("osgi.implementation"))) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * Adds a tool of the host application while the server runs: listed at once, and connected
     * clients are told. Only JDK types cross into the framework (see {@link HostTool}).
     *
     * @param name the tool name ({@code [A-Za-z0-9_.-]{1,128}}, unique)
     * @param description what it does, for the model
     * @param inputSchema the input schema as JSON text ({@code null}: any object)
     * @return closing it removes the tool (clients are told)
     * @throws IllegalStateException when the server is not running, or has no Quiver API bundle
     */
    public AutoCloseable addTool(String name, String description, String inputSchema, HostTool tool) {
        return addTool(name, description, inputSchema, Map.of(), tool);
    }

    /**
     * {@link #addTool(String, String, String, HostTool)} with the tool's own {@code _meta}: listed with the tool
     * (2025-06-18 and later) and shown to the host with each call ({@link HostRequest#toolMeta()}), e.g. a
     * result-size hint {@code Map.of("anthropic/maxResultSizeChars", 200000)}. JSON values only (String, Number,
     * Boolean, List, Map, null).
     */
    public AutoCloseable addTool(String name, String description, String inputSchema, Map<String, Object> meta,
            HostTool tool) {
        Framework fw = framework;
        if (fw == null || fw.getState() != Bundle.ACTIVE) {
            throw new IllegalStateException("not running: start the server before adding tools, or use Builder.tool");
        }
        HostTools b = bridge;
        if (b == null) {
            b = HostTools.of(fw.getBundleContext());
            bridge = b;
        }
        ServiceRegistration<?> registration = b.register(name, description, inputSchema, meta, tool);
        return () -> {
            try {
                registration.unregister();
            } catch (IllegalStateException e) {
                // already gone with the framework
            }
        };
    }

    /**
     * Stops one call of any caller, at whatever point it is (waiting for the host, running its tool, its
     * result not yet delivered): the caller gets an error result with the reason, and the call never runs
     * again.
     *
     * @return {@code ACCEPTED}, or {@code STALE} / {@code UNKNOWN} when no such call is running
     */
    public HostRequest.Reply stopCall(String invocationId, String reason) {
        return HostRequest.Reply.of(host().command(Map.of("op", "stop", "invocationId", invocationId,
                "reason", reason == null ? "" : reason)));
    }

    /** Stops every running call of one caller (by subject), as {@link #stopCall}; how many were stopped. */
    public int stopCalls(String subject, String reason) {
        return (Integer) host().command(Map.of("op", "stopCaller", "subject", subject, "reason", reason == null ? "" : reason));
    }

    /**
     * Shuts the host channel down without stopping the container: no call is admitted any more, every
     * running call is stopped and every open request ends (later replies are stale). {@link #stop()} does
     * this first. How many calls were stopped.
     */
    public int shutdownHost(String reason) {
        return (Integer) host().command(Map.of("op", "shutdown", "reason", reason == null ? "" : reason));
    }

    private HostEndpoint host() {
        HostEndpoint h = hostEndpoint;
        if (h == null) {
            throw new IllegalStateException("no host channel: give one with Builder.host, and start the container");
        }
        return h;
    }

    /** The MCP endpoint, for example {@code http://127.0.0.1:7711/mcp}. */
    public URI url() {
        URI u = url;
        if (u == null) {
            throw new IllegalStateException("no MCP endpoint: not started, or no HTTP transport in the features");
        }
        return u;
    }

    /** The HTTP port the endpoint listens on (the real one when 0 was asked for). */
    public int port() {
        return url().getPort();
    }

    /** The OSGi framework, for services and bundles; null before {@link #start()}. */
    public Framework framework() {
        return framework;
    }

    public LaunchSettings settings() {
        return settings;
    }

    /**
     * One line per bundle that did not resolve or start during the start (empty when all did), as it stood when
     * {@link #start()} returned: a kept or deployed bundle that finished starting after its wait stays listed. The
     * live state is the {@code ProblemSource} services' (the {@code problems_list} admin tool, {@code quiver:problems}).
     */
    public List<String> problems() {
        return problems;
    }

    /**
     * Whether a stop left the framework running: it did not stop within the stop timeout (a bundle whose stop never
     * returns), or stopping it failed.
     */
    boolean stopFailed() {
        return stopFailed;
    }

    /** How long a stop waits for the framework. */
    Duration stopTimeout() {
        return STOP_TIMEOUT;
    }

    /** Blocks until the framework has stopped (by {@link #stop()}, or by anybody stopping the system bundle). */
    public void awaitStop() throws InterruptedException {
        Framework fw = framework;
        if (fw != null) {
            fw.waitForStop(0);
        }
    }

    /**
     * Stops the framework (waiting up to 10 s) and deletes a temporary storage. Idempotent; a
     * concurrent caller returns once the first one is done. A stop while {@link #start()} runs on another thread
     * waits (up to 10 s) for that start to end, which it soon does, before the storage is deleted.
     */
    public void stop() {
        stopRequested = true; // before looking for the framework: a start that has not made it yet sees this
        synchronized (this) {
            release();
        }
    }

    private void release() {
        if (released) {
            return;
        }
        Framework fw = framework;
        HostEndpoint h = hostEndpoint;
        if (h != null && fw != null && fw.getState() == Bundle.ACTIVE) {
            try {
                shutdownHost("the host application is stopping");
            } catch (RuntimeException e) {
                LOG.debug("The host channel was gone before the stop: {}", e.toString());
            }
            h.close();
        }
        if (fw != null) {
            // the stop is waited for even when this thread is interrupted meanwhile: a stop() from a tool call's
            // thread is interrupted by the very stop (shutdownHost, the engine's grace), and returning then would
            // delete the storage under a framework still stopping; the interrupt is kept for the caller
            boolean interrupted = Thread.interrupted();
            long deadline = System.nanoTime() + STOP_TIMEOUT.toNanos();
            try {
                fw.stop();
                while (true) {
                    try {
                        FrameworkEvent event = fw.waitForStop(Math.max(1, (deadline - System.nanoTime()) / 1_000_000L));
                        if (event.getType() == FrameworkEvent.WAIT_TIMEDOUT) {
                            LOG.warn("The framework did not stop within {} s", STOP_TIMEOUT.toSeconds());
                            stopFailed = true;
                        }
                        break;
                    } catch (InterruptedException e) {
                        interrupted = true;
                    }
                }
            } catch (Exception e) {
                LOG.warn("Stopping the framework failed: {}", e.toString(), e);
                stopFailed = true;
            } finally {
                if (interrupted) {
                    Thread.currentThread().interrupt();
                }
            }
        }
        BundleContext system = systemContext;
        if (system != null) {
            // the upstream bundle detached as it stopped; this detaches what a stop that failed left attached
            sharedUpstreams.forEach(shared -> shared.removeHome(system));
        }
        // a start on another thread goes on writing into the storage until it sees the stop (Felix's init, the
        // template's copy, the bundles' installation; it may not have made the storage yet): deleted under it, the
        // folder was left behind half written. It ends soon now, and deletes the storage itself as it fails (in this
        // wait, which lets go of the lock); this stop does it should the start not end in time.
        long waitUntil = System.nanoTime() + LAUNCH_END_WAIT.toNanos();
        boolean interrupted = false;
        while (launcher != null && launcher != Thread.currentThread() && !released && waitUntil - System.nanoTime() > 0) {
            try {
                wait(Math.max(1, (waitUntil - System.nanoTime()) / 1_000_000L));
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        if (storage != null && !released) {
            released = true;
            StorageTemplate t = template;
            if (t != null) {
                t.finish(storage.folder(), whole && !stopFailed);
            }
            storage.release();
        }
    }

    /** How long a stop waits for a start running on another thread to end before it deletes the storage anyway. */
    private static final Duration LAUNCH_END_WAIT = Duration.ofSeconds(10);

    @Override
    public void close() {
        stop();
    }

    private static long remainingMs(long deadline) {
        return Math.max(0, (deadline - System.nanoTime()) / 1_000_000L);
    }

    /**
     * Builds a {@link Quiver}; the defaults are those of {@code ./quiver run} but the port: embedded,
     * the endpoint listens on loopback on a port the OS assigns ({@link #url()} says which), so that
     * two applications, or two containers in one, never collide.
     */
    public static final class Builder {
        private List<String> features = LaunchSettings.DEFAULT_FEATURES;
        private int port = 0;
        private String bind = LaunchSettings.DEFAULT_BIND;
        private Path etc = Path.of("etc");
        private Path deploy = Path.of("deploy");
        private Path data;
        private final Map<String, String> properties = new LinkedHashMap<>();
        private Duration startTimeout = LaunchSettings.DEFAULT_START_TIMEOUT;
        private boolean awaitEndpoint = true;
        private final List<ToolSpec> tools = new ArrayList<>();
        private Host host;
        private final List<SharedUpstream> upstreams = new ArrayList<>();

        private Builder() {
        }

        /** Starts from existing settings (the command line's); later calls change them. */
        public Builder settings(LaunchSettings s) {
            features = s.features();
            port = s.port();
            bind = s.bind();
            etc = s.etc();
            deploy = s.deploy();
            data = s.data();
            properties.clear();
            properties.putAll(s.frameworkProperties());
            startTimeout = s.startTimeout();
            awaitEndpoint = s.awaitEndpoint();
            return this;
        }

        /** The features to start ({@code core} is always included): names or {@code .json} files. */
        public Builder features(List<String> names) {
            features = List.copyOf(names);
            return this;
        }

        public Builder features(String... names) {
            return features(Arrays.asList(names));
        }

        /** The HTTP port; 0 lets the OS choose ({@link Quiver#port()} tells which). */
        public Builder port(int value) {
            port = value;
            return this;
        }

        /** The address the HTTP server listens on (default 127.0.0.1). */
        public Builder bind(String address) {
            bind = address;
            return this;
        }

        /** The configuration folder FileInstall watches (default {@code ./etc}, created if missing). */
        public Builder etc(Path folder) {
            etc = folder;
            return this;
        }

        /** The bundle folder FileInstall watches (default {@code ./deploy}, created if missing). */
        public Builder deploy(Path folder) {
            deploy = folder;
            return this;
        }

        /** A framework storage kept between runs (default: a temporary one, deleted on stop). */
        public Builder data(Path folder) {
            data = folder;
            return this;
        }

        /**
         * A folder of the application's own that no file tool reaches, whatever the roots say, as none reaches the
         * server's {@code etc/}, {@code deploy/} and storage: where the application keeps its records or secrets
         * (by path, real path and identity; framework property {@value #PRIVATE_FOLDERS}, separated by the
         * platform's path separator).
         */
        public Builder privateFolder(Path folder) {
            String path = folder.toAbsolutePath().normalize().toString();
            properties.merge(PRIVATE_FOLDERS, path, (a, b) -> a + java.io.File.pathSeparator + b);
            return this;
        }

        /** An extra framework property; it wins over the launcher's own. */
        public Builder frameworkProperty(String key, String value) {
            properties.put(key, value);
            return this;
        }

        /** How long {@link Quiver#start()} may take before it fails (default 15 s). */
        public Builder startTimeout(Duration timeout) {
            startTimeout = timeout;
            return this;
        }

        /** Whether {@link Quiver#start()} waits for the MCP endpoint (default true). */
        public Builder awaitEndpoint(boolean await) {
            awaitEndpoint = await;
            return this;
        }

        /**
         * A tool of the host application, registered when the server starts (before its endpoint
         * answers); see {@link HostTool} and {@link Quiver#addTool}.
         */
        public Builder tool(String name, String description, String inputSchema, HostTool tool) {
            return tool(name, description, inputSchema, Map.of(), tool);
        }

        /**
         * A tool of the host application with its own {@code _meta} (a result-size hint, say), registered when
         * the server starts; see {@link Quiver#addTool(String, String, String, Map, HostTool)}.
         */
        public Builder tool(String name, String description, String inputSchema, Map<String, Object> meta, HostTool tool) {
            tools.add(new ToolSpec(name, description, inputSchema,
                    meta == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(meta)), tool));
            return this;
        }

        /**
         * The host application's private channel: every tool call, whoever the caller, asks it to admit,
         * release, answer, review and record (see {@link Host}). Adds the {@code host} feature; no call is
         * admitted until the channel is up, so none runs unseen while the container starts.
         */
        public Builder host(Host channel) {
            host = channel;
            return this;
        }

        /**
         * An upstream MCP server the host application owns and shares between containers: this one sees
         * it as one of its upstream servers, named {@link SharedUpstream#name()}, while it runs (see
         * {@link SharedUpstream}). Stopping the container detaches it; the process goes on.
         */
        public Builder upstream(SharedUpstream shared) {
            if (upstreams.stream().anyMatch(u -> u.name().equals(shared.name()))) {
                throw new IllegalArgumentException("a second shared upstream named " + shared.name());
            }
            upstreams.add(shared);
            return this;
        }

        /** @throws IllegalArgumentException when a setting is invalid */
        public Quiver build() {
            List<String> names = features;
            Map<String, String> props = properties;
            if (host != null) {
                names = new ArrayList<>(features);
                if (!names.contains(HOST_FEATURE)) {
                    names.add(HOST_FEATURE);
                }
                props = new LinkedHashMap<>(properties);
                props.putIfAbsent("quiver.host.required", "true");
            }
            Quiver quiver = new Quiver(new LaunchSettings(names, port, bind, etc, deploy, data, props,
                    startTimeout, awaitEndpoint));
            quiver.hostTools.addAll(tools);
            quiver.host = host;
            quiver.sharedUpstreams.addAll(upstreams);
            return quiver;
        }

        /** {@code build().start()}. */
        public Quiver start() throws QuiverException {
            return build().start();
        }
    }
}
