package io.quiver.upstream.internal;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.Hashtable;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Pattern;

import org.osgi.framework.BundleContext;
import org.osgi.framework.ServiceReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.quiver.api.Tool;
import io.quiver.api.resource.ResourceEvents;
import io.quiver.lib.config.TypedConfig;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * One upstream server and its supervision: it connects (starts the process), agrees on a revision
 * ({@link Handshake}: 2026-07-28 where the server offers it, else the newest session revision both
 * speak, through {@code initialize}), lists the tools across every page and registers each as a
 * {@link Tool} service ({@link ProxyTool}); it lists again on {@code notifications/tools/list_changed}
 * (in the stateless revision heard on a {@code subscriptions/listen} stream). When the connection ends unexpectedly the tools are
 * unregistered at once, the calls in flight end with an error (they are never sent again), and the
 * server is started again after a wait that doubles with each restart in a row, until
 * {@code maxRestarts} in a row have failed: then it is {@link State#FAILED} and stays so until its
 * declaration or settings change. A server that never answers {@code initialize}, writes garbage or
 * exits at once is such a failure; none of this runs on the engine's threads.
 *
 * <p>Each connection is a generation: events of an older one (a late exit, a late answer) change nothing.
 *
 * <p>A server the host application shares ({@link SharedConnection}) skips the handshake (the host's
 * {@code initialize} result stands for it) and is never started again here: its process is the host's.
 */
final class Upstream {

    private static final Logger LOG = LoggerFactory.getLogger(Upstream.class);
    /** Running this long without a failure resets the count of restarts in a row. */
    static final Duration STEADY = Duration.ofMinutes(1);

    enum State {
        STARTING, READY, BACKING_OFF, FAILED, STOPPED;

        /** As operators read it: {@code starting}, {@code ready}, {@code backing-off}, {@code failed}, {@code stopped}. */
        String label() {
            return name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
        }
    }

    /** What the shell and the admin tools show; {@code resources} counts the resource templates too. */
    record Status(String name, String kind, State state, String detail, int tools, int prompts, int resources, long restarts,
            String lastError, List<String> stderrTail, String source, String protocol) {
    }

    private final ServerSpec spec;
    private final BundleContext context;
    private final ScheduledExecutorService timer;
    private final ExecutorService work;
    private final Path workingDirectory;
    private final StderrTail tail;
    private volatile UpstreamConfig config;

    private final Object lock = new Object();
    private Generation current;
    private State state = State.STOPPED;
    private String lastError;
    private int restartsInRow;
    private long restarts;
    private Instant readySince;
    private ScheduledFuture<?> pendingStart;
    private boolean stopped;
    /**
     * The era the last good start found (true: a stateless revision, false: a session one), so a restart
     * skips the probe; null when unknown or when a start with it failed (the next one probes again).
     */
    private volatile Boolean era;

    /**
     * What Quiver's client declares in a session revision: elicitation (form mode) and sampling, which it
     * passes on to the user of the call that asked. Not roots: a session's roots are the client's own
     * places, and the callers of a shared upstream have none in common (a {@code roots/list} made within
     * a call still reaches that call's user).
     */
    static final ObjectNode CAPABILITIES = McpClient.JSON.createObjectNode();

    static {
        CAPABILITIES.putObject("elicitation");
        CAPABILITIES.putObject("sampling");
    }

    /** What a server lists that Quiver exposes: each is read again on its own change notification. */
    enum Listed {
        TOOLS("notifications/tools/list_changed", "tools", "toolsListChanged"),
        PROMPTS("notifications/prompts/list_changed", "prompts", "promptsListChanged"),
        RESOURCES("notifications/resources/list_changed", "resources", "resourcesListChanged");

        final String changed;
        final String capability;
        /** The filter of {@code subscriptions/listen} that asks for the change notification. */
        final String listenFilter;

        Listed(String changed, String capability, String listenFilter) {
            this.changed = changed;
            this.capability = capability;
            this.listenFilter = listenFilter;
        }
    }

    /** How long a stdio server may leave {@code server/discover} unanswered before it gets {@code initialize}. */
    static final long PROBE_MS = 3_000;

    /** One connection and what was registered for it. */
    final class Generation {
        final Connection connection;
        final McpClient client;
        /** What it registered; changed holding the lock. */
        final Registrations services = new Registrations(context);
        /** What the server declared in the handshake. */
        volatile JsonNode capabilities = McpClient.JSON.createObjectNode();
        /** Upstream calls waiting for their users' answers. */
        final Parking parking = new Parking();
        volatile boolean ready;
        volatile String protocolVersion;
        /** The last listing's tools by upstream name (their schemas name the {@code Mcp-Param-*} headers). */
        private volatile Map<String, JsonNode> listed = Map.of();
        private ScheduledFuture<?> sweeper;
        private long listenBackoffMs = 1_000;
        private boolean refreshing;
        /** The lists to read again; guarded by the generation. */
        private final EnumSet<Listed> stale = EnumSet.noneOf(Listed.class);
        /** A stateless server's open {@code subscriptions/listen}, and what it asked for; guarded by the generation. */
        private McpClient.Request listening;
        private ListenFor listenedFor = ListenFor.NOTHING;
        /** Held while a listen stream is replaced, so two replacements never leave two streams open. */
        private final Object listenTurn = new Object();
        /** The proxy of every resource and template of this connection: the catalog counts subscriptions by service. */
        final ProxyResource resources = new ProxyResource(Upstream.this, this);
        /** The URIs of this server Quiver's clients are subscribed to, and those it was asked for. */
        final Watched watched = new Watched();

        Generation(Connection connection) {
            this.connection = connection;
            this.client = new McpClient(connection, new McpClient.Events() {
                @Override
                public void notification(String method, JsonNode params) {
                    Upstream.this.notification(Generation.this, method, params);
                }

                @Override
                public void closed(String why, boolean clean) {
                    Upstream.this.closed(Generation.this, why, clean);
                }
            }, McpClient.implementation(version()), CAPABILITIES);
        }

        String serverName() {
            return spec.name();
        }

        /** An upstream tool as the last listing gave it, or null. */
        JsonNode listed(String upstreamName) {
            return listed.get(upstreamName);
        }
    }

    Upstream(ServerSpec spec, UpstreamConfig config, BundleContext context, ScheduledExecutorService timer,
            ExecutorService work, Path workingDirectory) {
        this.spec = spec;
        this.config = config;
        this.context = context;
        this.timer = timer;
        this.work = work;
        this.workingDirectory = workingDirectory;
        this.tail = new StderrTail(config.stderrLines());
    }

    ServerSpec spec() {
        return spec;
    }

    UpstreamConfig config() {
        return config;
    }

    /** Starts it (on the work threads), unless its settings say it is disabled. */
    void start() {
        synchronized (lock) {
            if (!config.enabled()) {
                state = State.STOPPED;
                lastError = "disabled by its settings (enabled = false)";
                return;
            }
            state = State.STARTING;
            pendingStart = timer.schedule(() -> work.execute(this::connect), 0, TimeUnit.MILLISECONDS);
        }
    }

    /** New settings that do not need a new process: the tools are registered again under them. */
    void reconfigure(UpstreamConfig next) {
        UpstreamConfig before = config;
        config = next;
        tail.capacity(next.stderrLines());
        if (before.enabled() != next.enabled()) {
            if (next.enabled()) {
                start();
            } else {
                stop();
                synchronized (lock) {
                    stopped = false;
                    lastError = "disabled by its settings (enabled = false)";
                }
            }
            return;
        }
        Generation g;
        synchronized (lock) {
            g = current;
        }
        if (g != null && g.ready) {
            // not on the caller's (the file watch's timer) thread: it lists over the network
            work.execute(() -> {
                refresh(g);
                relisten(g);
            });
        }
    }

    /**
     * A stateless server's {@code subscriptions/listen} opened again when the lists it should ask for changed
     * (prompts or resources turned on or off): the stream open asks for the lists of the settings it began with.
     */
    private void relisten(Generation g) {
        if (!g.client.isStateless()) {
            return;
        }
        synchronized (g.listenTurn) {
            ListenFor wanted = listenFor(g);
            McpClient.Request open;
            synchronized (g) {
                if (wanted.equals(g.listenedFor) || !g.ready) {
                    return;
                }
                open = g.listening;
            }
            // the new stream first, the old one cancelled after: nothing the server sends meanwhile is missed
            if (!wanted.isEmpty()) {
                listen(g);
            } else {
                synchronized (g) {
                    g.listening = null;
                    g.listenedFor = ListenFor.NOTHING;
                }
            }
            if (open != null) {
                g.client.cancel(open, "what to hear about changed"); // cancelled: not opened again by its own end
            }
        }
    }

    /**
     * What a stateless server's {@code subscriptions/listen} asks for: the change notifications of the lists it
     * announces, and the updates of the resources Quiver's clients are subscribed to where it offers them.
     */
    record ListenFor(EnumSet<Listed> lists, Set<String> resources) {
        static final ListenFor NOTHING = new ListenFor(EnumSet.noneOf(Listed.class), Set.of());

        boolean isEmpty() {
            return lists.isEmpty() && resources.isEmpty();
        }
    }

    private ListenFor listenFor(Generation g) {
        return new ListenFor(listenFilter(g), subscribes(g) ? g.watched.forListen() : Set.of());
    }

    /**
     * Whether the server sends updates of the resources it is asked for. (With {@code resources} turned off its
     * resources are unregistered, so none stays watched.)
     */
    private boolean subscribes(Generation g) {
        return g.capabilities.path("resources").path("subscribe").asBoolean(false);
    }

    /**
     * A URI of this server got its first subscriber among Quiver's clients ({@code on}), or lost its last. The
     * server is asked for its updates, or to stop them, on a work thread: over its listen stream in a stateless
     * revision, else with {@code resources/subscribe} and {@code resources/unsubscribe}.
     */
    void watch(Generation g, String uri, boolean on) {
        if (g.watched.watch(uri, on) && g.ready && subscribes(g) && g.watched.queue()) {
            work.execute(() -> {
                g.watched.dequeued();
                if (g.client.isStateless()) {
                    relisten(g);
                } else {
                    subscribe(g);
                }
            });
        }
    }

    /**
     * Brings a session server's subscriptions to what Quiver's clients are subscribed to, one request at a time
     * (a change meanwhile is taken in the same turn). A refused request is not tried again: its updates do not
     * come, and the log says so.
     */
    private void subscribe(Generation g) {
        if (!g.watched.startSync()) {
            return;
        }
        Watched.Change change;
        while ((change = g.watched.next(g.ready)) != null) {
            String method = change.method();
            try {
                Handshake.await(g.client, g.client.request(method, McpClient.JSON.createObjectNode().put("uri", change.uri())),
                        Handshake.Deadline.in(Forwarded.timeoutMs(config), "callTimeoutMs (0: 60 s)"), method + " " + change.uri());
                LOG.debug("Upstream {}: {} {}", spec.name(), method, change.uri());
            } catch (Exception e) {
                if (e instanceof InterruptedException) {
                    Thread.currentThread().interrupt();
                }
                LOG.warn("Upstream {}: {} failed ({}){}", spec.name(), method, e.getMessage(),
                        change.on() ? "; its updates do not reach Quiver's clients" : "");
            }
        }
    }

    /** The server says a resource changed: Quiver's clients subscribed to it hear of it, if any are. */
    private void updated(Generation g, JsonNode params) {
        String uri = params == null ? "" : params.path("uri").asString("");
        if (!g.watched.contains(uri)) {
            // not one of its resources anyone subscribed to: not passed on (a server may not announce others' URIs)
            LOG.debug("Upstream {}: an update of {}, which no client is subscribed to through it", spec.name(), uri);
            return;
        }
        ServiceReference<ResourceEvents> reference = context.getServiceReference(ResourceEvents.class);
        ResourceEvents events = reference == null ? null : context.getService(reference);
        if (events == null) {
            return;
        }
        try {
            events.updated(uri, g.resources); // those subscribed through this server's proxy: not another tenant's
        } finally {
            context.ungetService(reference);
        }
    }

    /** Stops it for good: tools unregistered, process ended. Blocks until the process is gone. */
    void stop() {
        Generation g;
        synchronized (lock) {
            stopped = true;
            if (pendingStart != null) {
                pendingStart.cancel(false);
            }
            g = current;
            current = null;
            state = State.STOPPED;
        }
        if (g != null) {
            unregister(g);
            g.connection.close();
        }
    }

    private void connect() {
        Generation g;
        synchronized (lock) {
            if (stopped || (current != null && current.ready)) {
                return;
            }
            Connection connection = switch (spec.kind()) {
                case STDIO -> new StdioConnection(spec, workingDirectory, config.maxMessageBytes(), tail);
                case HTTP -> new HttpConnection(spec, Duration.ofMillis(Math.min(config.startupTimeoutMs(), 10_000)),
                        config.maxMessageBytes(), tail);
                case SHARED -> new SharedConnection(context, spec);
            };
            g = new Generation(connection);
            current = g;
            state = State.STARTING;
        }
        Handshake.Deadline deadline = startup();
        Boolean known = era;
        try {
            g.connection.open(g.client);
            Handshake.Agreed agreed;
            if (g.connection instanceof SharedConnection shared) {
                // the host initialized its connection once: its result stands for the handshake
                agreed = shared.agreed();
                g.client.session(agreed.protocolVersion());
            } else {
                long probe = g.connection.http() ? config.startupTimeoutMs() : Math.min(PROBE_MS, config.startupTimeoutMs() / 3);
                agreed = Handshake.open(g.client, deadline, probe, known, () -> era = Boolean.TRUE);
            }
            if (!agreed.capabilities().has("tools")) {
                LOG.info("Upstream {} declares no tools capability; listing its tools anyway", spec.name());
            }
            g.protocolVersion = agreed.protocolVersion();
            g.capabilities = agreed.capabilities();
            List<JsonNode> tools = Handshake.listTools(g.client, deadline, spec.name());
            synchronized (lock) {
                if (current != g || stopped) {
                    throw new IOException("superseded");
                }
                g.ready = true;
                readySince = Instant.now();
                lastError = null;
                g.sweeper = timer.scheduleWithFixedDelay(g.parking::sweep, 30, 30, TimeUnit.SECONDS);
            }
            era = agreed.stateless();
            register(g, tools);
            // each with its own time, in turn with the listings a change notification asks for meanwhile; one
            // the server cannot list leaves its tools in use
            refresh(g, EnumSet.of(Listed.PROMPTS, Listed.RESOURCES));
            synchronized (lock) {
                if (current == g && !stopped) {
                    state = State.READY; // once its tools are registered: an operator never reads "ready" with none
                }
            }
            if (agreed.stateless()) {
                relisten(g);
            } else {
                subscribe(g); // the URIs its resources were subscribed to before it was ready
            }
            Status ready = status();
            LOG.info("Upstream {} is ready ({}, protocol {}, {} tools{})", spec.name(), g.connection.detail(),
                    agreed.protocolVersion(), ready.tools(), ready.prompts() + ready.resources() == 0 ? ""
                            : ", " + ready.prompts() + " prompts, " + ready.resources() + " resources and templates");
        } catch (Exception e) {
            String why = e instanceof ExecutionException && e.getCause() != null ? e.getCause().getMessage() : e.getMessage();
            if (e instanceof TimeoutException) {
                why = e.getMessage();
            }
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            String garbage = g.connection instanceof StdioConnection s && s.garbageLines() > 0
                    ? " (its stdout carried " + s.garbageLines() + " lines that are not JSON-RPC)" : "";
            if (known != null) {
                era = null; // the next start asks the server again
            }
            if (g.ready) {
                unregister(g); // it failed after it was ready (registering threw): what it registered goes
            }
            failed(g, "could not start: " + why + garbage);
        }
    }

    private Handshake.Deadline startup() {
        return Handshake.Deadline.in(config.startupTimeoutMs(), "startupTimeoutMs (" + config.startupTimeoutMs() + " ms)");
    }

    /** The lists whose changes the server says it announces, among those Quiver exposes. */
    private EnumSet<Listed> listenFilter(Generation g) {
        EnumSet<Listed> announced = EnumSet.noneOf(Listed.class);
        for (Listed listed : Listed.values()) {
            if (exposes(g, listed) && g.capabilities.path(listed.capability).path("listChanged").asBoolean(false)) {
                announced.add(listed);
            }
        }
        return announced;
    }

    /** Whether the server offers the list and its settings expose it. */
    private boolean exposes(Generation g, Listed listed) {
        UpstreamConfig c = config;
        return switch (listed) {
            case TOOLS -> true; // listed even when not declared: a server may offer tools all the same
            case PROMPTS -> c.prompts() && g.capabilities.has("prompts");
            case RESOURCES -> c.resources() && g.capabilities.has("resources");
        };
    }

    /**
     * A stateless revision's change notifications: a {@code subscriptions/listen} for the lists the server
     * announces changes of, opened again (and those lists read again, for what was missed) when it ends
     * while the server runs.
     */
    private void listen(Generation g) {
        ObjectNode params = McpClient.JSON.createObjectNode();
        ObjectNode filter = params.putObject("notifications");
        ListenFor wanted = listenFor(g);
        wanted.lists().forEach(listed -> filter.put(listed.listenFilter, true));
        if (!wanted.resources().isEmpty()) {
            wanted.resources().forEach(filter.putArray("resourceSubscriptions")::add);
        }
        McpClient.Request subscription = g.client.request("subscriptions/listen", params);
        synchronized (g) {
            g.listening = subscription;
            g.listenedFor = wanted;
        }
        long opened = System.nanoTime();
        subscription.answer().whenComplete((result, failure) -> {
            synchronized (lock) {
                if (current != g || !g.ready || stopped) {
                    return;
                }
            }
            synchronized (g) {
                if (g.listening != subscription) {
                    return; // replaced meanwhile: its end says nothing about the stream now open
                }
            }
            if (failure instanceof McpClient.RpcError e && e.code != -32603) {
                if (!wanted.resources().isEmpty() && e.code == INVALID_PARAMS) {
                    // too many URIs for it, say: the lists' changes still matter to every client
                    LOG.warn("Upstream {} refused subscriptions/listen naming {} resources ({}); its resource updates do"
                            + " not reach Quiver's clients, its list changes still do", spec.name(), wanted.resources().size(),
                            e.getMessage());
                    g.watched.refused();
                    work.execute(() -> relisten(g));
                    return;
                }
                if (e.code == METHOD_NOT_FOUND || e.code == INVALID_PARAMS) {
                    LOG.info("Upstream {} refused subscriptions/listen ({}); its lists are read at start only", spec.name(),
                            e.getMessage());
                    return;
                }
                // busy, say (its streams at their limit): opened again after the wait below
            }
            if (failure instanceof McpClient.Lost || failure instanceof java.util.concurrent.CancellationException) {
                return;
            }
            long delay;
            synchronized (g) {
                boolean steady = System.nanoTime() - opened > TimeUnit.MINUTES.toNanos(1);
                g.listenBackoffMs = steady ? 1_000 : Math.min(60_000, g.listenBackoffMs * 2);
                delay = steady ? 1_000 : g.listenBackoffMs;
            }
            timer.schedule(() -> work.execute(() -> {
                if (g.ready) {
                    synchronized (g.listenTurn) {
                        synchronized (g) {
                            if (g.listening != subscription) {
                                return; // replaced meanwhile
                            }
                        }
                        listen(g);
                    }
                    refresh(g);
                }
            }), delay, TimeUnit.MILLISECONDS);
        });
    }

    private void notification(Generation g, String method, JsonNode params) {
        if ("notifications/resources/updated".equals(method)) {
            updated(g, params);
            return;
        }
        for (Listed listed : Listed.values()) {
            if (listed.changed.equals(method) && g.ready) {
                work.execute(() -> refresh(g, EnumSet.of(listed)));
            }
        }
    }

    /** Every list read again: new settings, or a notification stream that ended (what it missed). */
    private void refresh(Generation g) {
        refresh(g, EnumSet.allOf(Listed.class));
    }

    /** Lists again and registers what changed; one listing at a time, a change meanwhile lists again after. */
    private void refresh(Generation g, EnumSet<Listed> lists) {
        synchronized (g) {
            g.stale.addAll(lists);
            if (g.refreshing) {
                return;
            }
            g.refreshing = true;
        }
        try {
            while (true) {
                EnumSet<Listed> now;
                synchronized (g) {
                    if (g.stale.isEmpty()) {
                        g.refreshing = false;
                        return;
                    }
                    now = EnumSet.copyOf(g.stale);
                    g.stale.clear();
                }
                for (Listed listed : now) {
                    try {
                        relist(g, listed, startup());
                    } catch (Exception e) {
                        LOG.warn("Upstream {}: listing its {} failed: {}", spec.name(), listed.capability, e.getMessage());
                    }
                }
            }
        } catch (RuntimeException e) {
            synchronized (g) {
                g.refreshing = false;
            }
            throw e;
        }
    }

    /** Reads one list from the server and registers what it gives; nothing (and none registered) where it is not exposed. */
    private void relist(Generation g, Listed listed, Handshake.Deadline deadline) throws Exception {
        boolean exposed = exposes(g, listed);
        switch (listed) {
            case TOOLS -> register(g, Handshake.listTools(g.client, deadline, spec.name()));
            case PROMPTS -> registerPrompts(g, exposed
                    ? Handshake.list(g.client, deadline, "prompts/list", "prompts", config.maxPrompts()) : List.of());
            case RESOURCES -> {
                // no more pages than maxResources needs (one item more tells that some are left out)
                int limit = config.maxResources();
                List<JsonNode> resources = exposed
                        ? Handshake.list(g.client, deadline, "resources/list", "resources", limit) : List.of();
                registerResources(g, resources, exposed ? templates(g, deadline, Math.max(0, limit - resources.size()))
                        : List.of());
            }
        }
    }

    /**
     * The server's resource templates. Many servers of resources have none and answer
     * {@code resources/templates/list} with "method not found": that is an empty list; any other failure is not
     * (the registrations stay as they are).
     */
    private List<JsonNode> templates(Generation g, Handshake.Deadline deadline, int limit) throws Exception {
        try {
            return Handshake.list(g.client, deadline, "resources/templates/list", "resourceTemplates", limit);
        } catch (IOException e) {
            if (e.getCause() instanceof McpClient.RpcError refused && refused.code == METHOD_NOT_FOUND) {
                LOG.debug("Upstream {} has no resources/templates/list ({}): no templates", spec.name(), refused.getMessage());
                return List.of();
            }
            throw e;
        }
    }

    private static final int METHOD_NOT_FOUND = -32601;
    /** A listen stream's refusal of the resources it names (too many, say): other errors are the stream's lot. */
    private static final int INVALID_PARAMS = -32602;

    /** Registers the exposed tools of a listing, updates those that changed, unregisters those gone. */
    private void register(Generation g, List<JsonNode> listing) {
        Map<String, JsonNode> byName = new LinkedHashMap<>();
        listing.forEach(tool -> byName.putIfAbsent(tool.path("name").asString(""), tool));
        g.listed = Map.copyOf(byName);
        UpstreamConfig c = config;
        List<Pattern> include = globs(c.include());
        List<Pattern> exclude = globs(c.exclude());
        Map<String, Hashtable<String, Object>> wanted = new LinkedHashMap<>();
        Map<String, String> upstreamNames = new LinkedHashMap<>();
        for (JsonNode tool : listing) {
            String name = tool.path("name").asString("");
            if (name.isEmpty() || (!include.isEmpty() && include.stream().noneMatch(p -> p.matcher(name).matches()))
                    || exclude.stream().anyMatch(p -> p.matcher(name).matches())) {
                continue;
            }
            String exposed = ToolProperties.exposedName(prefix(c), name);
            if (wanted.containsKey(exposed)) {
                LOG.warn("Upstream {}: tools {} and {} both become {}; only the first is exposed", spec.name(),
                        upstreamNames.get(exposed), name, exposed);
                continue;
            }
            if (wanted.size() >= c.maxTools()) {
                LOG.warn("Upstream {} lists more tools than maxTools ({}); {} and those after it are left out", spec.name(),
                        c.maxTools(), name);
                break;
            }
            wanted.put(exposed, ToolProperties.of(exposed, tool, c, spec.name()));
            upstreamNames.put(exposed, name);
        }
        synchronized (lock) {
            if (current != g || !g.ready) {
                return;
            }
            g.services.sync(Registrations.Kind.TOOLS, wanted, exposed -> new ProxyTool(this, upstreamNames.get(exposed)));
        }
    }

    /** Registers the prompts of a listing as {@code PREFIX.name}, anew where their listing changed; unregisters those gone. */
    private void registerPrompts(Generation g, List<JsonNode> listing) {
        UpstreamConfig c = config;
        Map<String, Hashtable<String, Object>> wanted = new LinkedHashMap<>();
        Map<String, JsonNode> byExposed = new LinkedHashMap<>();
        Map<String, String> names = new LinkedHashMap<>(); // exposed name to the server's own
        for (JsonNode prompt : listing) {
            String name = prompt.path("name").asString("");
            if (name.isEmpty()) {
                continue;
            }
            String exposed = ToolProperties.exposedName(prefix(c), name);
            if (byExposed.containsKey(exposed)) {
                LOG.warn("Upstream {}: two prompts become {}; only the first is exposed", spec.name(), exposed);
                continue;
            }
            if (byExposed.size() >= c.maxPrompts()) {
                LOG.warn("Upstream {} lists more prompts than maxPrompts ({}); {} and those after it are left out",
                        spec.name(), c.maxPrompts(), name);
                break;
            }
            byExposed.put(exposed, prompt);
            wanted.put(exposed, ToolProperties.prompt(exposed, prompt, c, spec.name()));
            names.put(exposed, name);
        }
        Map<String, Hashtable<String, Object>> completers = completers(g, "ref/prompt", names);
        synchronized (lock) {
            if (current != g || !g.ready) {
                return;
            }
            g.services.sync(Registrations.Kind.PROMPTS, wanted,
                    exposed -> new ProxyPrompt(this, names.get(exposed), byExposed.get(exposed)));
            g.services.sync(Registrations.Kind.PROMPT_COMPLETERS, completers,
                    exposed -> new ProxyCompleter(this, "ref/prompt", names.get(exposed)));
        }
    }

    /**
     * Registers the resources (by URI) and resource templates (by URI template) of a listing under their own
     * URIs, up to {@code maxResources} of both together; unregisters those gone. One proxy reads them all.
     */
    private void registerResources(Generation g, List<JsonNode> resources, List<JsonNode> templates) {
        UpstreamConfig c = config;
        Map<String, Hashtable<String, Object>> fixed = new LinkedHashMap<>();
        Map<String, Hashtable<String, Object>> families = new LinkedHashMap<>();
        boolean cut = collect(resources, "mcp.resource.", "uri", c.maxResources(), fixed, c);
        cut |= collect(templates, "mcp.template.", "uriTemplate", c.maxResources() - fixed.size(), families, c);
        if (cut) {
            LOG.warn("Upstream {} lists more resources and templates than maxResources ({}); those beyond are left out",
                    spec.name(), c.maxResources());
        }
        synchronized (lock) {
            if (current != g || !g.ready) {
                return;
            }
            g.services.sync(Registrations.Kind.RESOURCES, fixed, uri -> g.resources);
            g.services.sync(Registrations.Kind.TEMPLATES, families, uriTemplate -> g.resources);
            Map<String, String> uriTemplates = new LinkedHashMap<>();
            families.keySet().forEach(uriTemplate -> uriTemplates.put(uriTemplate, uriTemplate));
            g.services.sync(Registrations.Kind.TEMPLATE_COMPLETERS, completers(g, "ref/resource", uriTemplates),
                    uriTemplate -> new ProxyCompleter(this, "ref/resource", uriTemplate));
        }
    }

    /**
     * Takes the listed items (a resource by its {@code uri}, a template by its {@code uriTemplate}; the first of
     * each) as service properties into {@code into} while it holds fewer than {@code room}.
     *
     * @return whether items were left out for want of room
     */
    private boolean collect(List<JsonNode> listing, String kind, String key, int room, Map<String, Hashtable<String, Object>> into,
            UpstreamConfig c) {
        for (JsonNode item : listing) {
            String id = item.path(key).asString("");
            if (id.isEmpty() || into.containsKey(id)) {
                continue;
            }
            if (into.size() >= room) {
                return true;
            }
            into.put(id, ToolProperties.resource(kind, key, id, item, c, spec.name()));
        }
        return false;
    }

    /**
     * The completers to register where the server offers completions: one for each prompt (by exposed name) or
     * template (by URI template), with the server's own name of it ({@code refs}: key to that name; one that
     * changes registers the completer anew), each with the scope the server's other services have.
     */
    private Map<String, Hashtable<String, Object>> completers(Generation g, String refType, Map<String, String> refs) {
        Map<String, Hashtable<String, Object>> wanted = new LinkedHashMap<>();
        if (g.capabilities.has("completions")) {
            refs.forEach((ref, upstreamName) -> {
                Hashtable<String, Object> p = new Hashtable<>();
                p.put("mcp.completion.refType", refType);
                p.put("mcp.completion.ref", ref);
                p.put(ToolProperties.UPSTREAM_NAME, upstreamName);
                p.put(ToolProperties.SERVER, spec.name());
                wanted.put(ref, ToolProperties.scoped(p, config));
            });
        }
        return wanted;
    }

    private void unregister(Generation g) {
        synchronized (lock) {
            g.ready = false;
            g.services.clear();
            if (g.sweeper != null) {
                g.sweeper.cancel(false);
            }
        }
        g.parking.cancelAll("the upstream server stopped");
    }

    private void closed(Generation g, String why, boolean clean) {
        synchronized (lock) {
            if (current != g || stopped) {
                return;
            }
        }
        boolean wasReady = g.ready;
        unregister(g);
        if (wasReady) {
            LOG.warn("Upstream {} stopped: {}; its tools are withdrawn", spec.name(), why);
        }
        if (clean && wasReady && !"always".equals(config.restart())) {
            synchronized (lock) {
                state = State.STOPPED;
                lastError = why + " (restart = " + config.restart() + ": not started again)";
                current = null;
            }
            return;
        }
        failed(g, wasReady ? why : "could not start: " + why);
    }

    /** A failed start or an unexpected end: back off and start again, or give up. */
    private void failed(Generation g, String why) {
        synchronized (lock) {
            if (current != g || stopped) {
                g.connection.close();
                return;
            }
            current = null;
            lastError = why;
            if (readySince != null && Duration.between(readySince, Instant.now()).compareTo(STEADY) >= 0) {
                restartsInRow = 0;
            }
            readySince = null;
        }
        g.connection.close();
        synchronized (lock) {
            if (current != null || stopped) {
                return;
            }
            if (spec.kind() == ServerSpec.Kind.SHARED) {
                // the host's process: the host starts it again (its service comes back, a new server here)
                state = State.STOPPED;
                lastError = why + "; the host application starts it again";
                if (why.startsWith("could not start")) { // an end while ready was logged by closed()
                    LOG.warn("Upstream {} (shared by the host): {}; the host application starts it again", spec.name(), why);
                }
                return;
            }
            if ("never".equals(config.restart()) || restartsInRow >= config.maxRestarts()) {
                state = State.FAILED;
                String because = "never".equals(config.restart()) ? "restart = never"
                        : restartsInRow + " restarts in a row failed (maxRestarts)";
                LOG.error("Upstream {} failed and is not started again ({}): {}. Recent stderr: {}", spec.name(), because,
                        why, tail.last(5));
                lastError = why + "; not started again: " + because;
                return;
            }
            long delay = Math.min(config.maxBackoffMs(), config.backoffMs() << Math.min(restartsInRow, 30));
            restartsInRow++;
            restarts++;
            state = State.BACKING_OFF;
            LOG.warn("Upstream {}: {}; starting it again in {} ms (restart {} of {} in a row)", spec.name(), why, delay,
                    restartsInRow, config.maxRestarts());
            pendingStart = timer.schedule(() -> work.execute(this::connect), delay, TimeUnit.MILLISECONDS);
        }
    }

    /** The generation calls go to, or null while the server is not ready. */
    Generation ready() {
        synchronized (lock) {
            return current != null && current.ready ? current : null;
        }
    }

    Status status() {
        synchronized (lock) {
            Generation g = current;
            return new Status(spec.name(), spec.kind().name().toLowerCase(java.util.Locale.ROOT), state,
                    g == null ? "-" : g.connection.detail(), count(g, Registrations.Kind.TOOLS), count(g, Registrations.Kind.PROMPTS),
                    count(g, Registrations.Kind.RESOURCES) + count(g, Registrations.Kind.TEMPLATES), restarts, lastError,
                    tail.lines(), spec.source() == null ? "the host application" : "etc/" + spec.source().getFileName(),
                    g == null || !g.ready ? null : g.protocolVersion);
        }
    }

    private static int count(Generation g, Registrations.Kind kind) {
        return g == null ? 0 : g.services.count(kind);
    }

    /** Why calls cannot reach the server now, for the error a caller reads. */
    String unavailable() {
        synchronized (lock) {
            return "the upstream server " + spec.name() + " is " + state.label()
                    + (lastError == null ? "" : " (" + lastError + ")");
        }
    }

    String prefix(UpstreamConfig c) {
        return c.prefix().isEmpty() ? spec.name() : c.prefix().equals("-") ? "" : c.prefix();
    }

    private static List<Pattern> globs(String[] globs) {
        List<Pattern> out = new ArrayList<>();
        for (String g : TypedConfig.list(globs)) { // a .cfg list is one comma-separated string
            out.add(TypedConfig.glob(g));
        }
        return out;
    }

    private String version() {
        return context.getBundle().getVersion().toString();
    }
}
