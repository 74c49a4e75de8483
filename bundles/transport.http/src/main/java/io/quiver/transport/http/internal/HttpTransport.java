package io.quiver.transport.http.internal;

import io.quiver.api.auth.Authenticator;
import io.quiver.api.operator.Problem;
import io.quiver.api.operator.ProblemSource;
import io.quiver.api.operator.TransportInfo;
import io.quiver.api.operator.TransportStatus;
import io.quiver.api.transport.McpEngine;
import io.quiver.lib.config.TypedConfig;
import jakarta.servlet.Servlet;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Hashtable;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.osgi.framework.BundleContext;
import org.osgi.framework.ServiceReference;
import org.osgi.framework.ServiceRegistration;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Modified;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.osgi.service.component.annotations.ReferencePolicy;
import org.osgi.service.metatype.annotations.Designate;
import org.osgi.service.servlet.whiteboard.HttpWhiteboardConstants;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Streamable HTTP: registers the MCP servlet on the OSGi servlet whiteboard at the configured
 * path (PID {@code io.quiver.transport.http}). Bind address and port are the HTTP service's.
 *
 * <p>A configuration change applies in place (sessions and streams stay). When the HTTP service
 * listens beyond loopback and no {@code allowedHosts} are configured, the endpoint is not served at
 * all: any client could name a loopback host and pass the DNS-rebinding check. Beyond loopback it
 * also needs authentication (an {@link Authenticator} service, or {@code quiver.auth.required}),
 * unless the operator said {@code quiver.auth.insecureNoAuth} ({@code --insecure-no-auth}).
 *
 * <p>Beside the endpoint it serves the OAuth protected-resource metadata ({@link ResourceMetadataServlet}).
 */
@Component(configurationPid = "io.quiver.transport.http", service = {ProblemSource.class, TransportStatus.class},
        immediate = true)
@Designate(ocd = HttpConfig.class)
public final class HttpTransport implements ProblemSource, TransportStatus {

    /** The service property the launcher reads to find the endpoint. */
    public static final String ENDPOINT_PATH = "quiver.endpoint.path";
    /** The framework property with the address Felix HTTP listens on (absent: every address). */
    static final String HOST_PROPERTY = "org.apache.felix.http.host";
    /** The framework property by which the operator allows serving beyond loopback without authentication. */
    static final String INSECURE_PROPERTY = "quiver.auth.insecureNoAuth";

    private static final Logger LOG = LoggerFactory.getLogger(HttpTransport.class);

    private final BundleContext context;
    private final McpServlet servlet;
    private final Gatekeeper gate;
    private final ScheduledExecutorService timer;
    /** The authenticators by ranking (highest first), then service id. */
    private final Map<ServiceReference<Authenticator>, Authenticator> authenticators =
            new ConcurrentSkipListMap<>(Comparator.reverseOrder());
    private ServletRegistration registration;
    private ServiceRegistration<Servlet> metadata;
    /** The selector lane offered to Felix HTTP's Jetty (its plain HTTP connector's and its HTTPS one's), or null. */
    private ServiceRegistration<?> lane;
    private ServiceRegistration<?> tlsLane;
    private ScheduledFuture<?> keepAlive;
    private long keepAliveMs;
    private volatile List<Problem> problems = List.of();
    /** Why the endpoint is not served, or null. */
    private volatile Problem refused;
    private volatile HttpConfig config;
    /** Where the configuration came from, for the refusal. */
    private String source;

    private record ServletRegistration(ServiceRegistration<Servlet> service, List<String> patterns) {
    }

    /** Where the endpoint is served now (the last good tenantPath's). */
    private volatile Endpoints endpoints;

    @Activate
    public HttpTransport(@Reference McpEngine engine, Map<String, Object> properties, BundleContext context) {
        this.context = context;
        ScheduledThreadPoolExecutor timer = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, "quiver-sse-timer");
            t.setDaemon(true);
            return t;
        });
        // a body's deadline is set for each request whose body comes after its headers, and nearly always
        // cancelled: gone from the queue at once, not 30 s later
        timer.setRemoveOnCancelPolicy(true);
        this.timer = timer;
        this.source = TypedConfig.source(properties);
        this.config = read(properties, null);
        this.gate = new Gatekeeper(Boolean.parseBoolean(context.getProperty(Gatekeeper.REQUIRED_PROPERTY)));
        this.servlet = new McpServlet(engine, config, timer, headerWatch(), gate);
        servlet.endpoints(endpoints);
        this.metadata = context.registerService(Servlet.class, new ResourceMetadataServlet(gate, () -> this.config, servlet::guard),
                metadataProperties());
        timer.scheduleWithFixedDelay(servlet::sweepHeaders, 1, 1, TimeUnit.SECONDS);
        source = TypedConfig.source(properties);
        apply();
    }

    @Reference(cardinality = ReferenceCardinality.MULTIPLE, policy = ReferencePolicy.DYNAMIC)
    void addAuthenticator(ServiceReference<Authenticator> ref, Authenticator authenticator) {
        authenticators.put(ref, authenticator);
        gate.authenticators(List.copyOf(authenticators.values()));
        reapply();
    }

    void removeAuthenticator(ServiceReference<Authenticator> ref) {
        authenticators.remove(ref);
        gate.authenticators(List.copyOf(authenticators.values()));
        reapply();
    }

    /**
     * An authenticator came or went: beyond loopback that decides whether the endpoint is served, and the open
     * streams' credentials are checked again (on the checking thread).
     */
    private synchronized void reapply() {
        if (source != null) {
            apply();
        }
        servlet.recheckStreams();
    }

    @Modified
    synchronized void modified(Map<String, Object> properties) {
        source = TypedConfig.source(properties);
        config = read(properties, config);
        servlet.configure(config);
        servlet.endpoints(endpoints);
        apply();
    }

    /** Registers, moves or withdraws the endpoint, and sets the keep-alive timer, for the configuration now. */
    private synchronized void apply() {
        HttpConfig c = config;
        lane(c.selectorLane());
        String refusal = refusal(c);
        refused = refusal == null ? null : new Problem(source, refusal);
        if (refusal != null) {
            LOG.error("{}", refusal);
            unregister();
        } else if (registration == null) {
            register(c);
        } else if (!registration.patterns().equals(List.of(endpoints.patterns()))) {
            // the same servlet on a new path: streams open on the old one keep their connections
            registration.service().setProperties(servletProperties(path(c), endpoints));
            registration = new ServletRegistration(registration.service(), List.of(endpoints.patterns()));
            LOG.info("The MCP endpoint moved to {}", String.join(" and ", endpoints.patterns()));
        }
        long interval = Math.max(1000, c.sseKeepAliveMs());
        if (keepAlive == null || interval != keepAliveMs) {
            if (keepAlive != null) {
                keepAlive.cancel(false);
            }
            keepAliveMs = interval;
            keepAlive = timer.scheduleWithFixedDelay(servlet::keepAlive, interval, interval, TimeUnit.MILLISECONDS);
        }
    }

    private static Hashtable<String, Object> metadataProperties() {
        Hashtable<String, Object> props = new Hashtable<>();
        props.put(HttpWhiteboardConstants.HTTP_WHITEBOARD_SERVLET_PATTERN,
                new String[] {Gatekeeper.METADATA_PATH, Gatekeeper.METADATA_PATH + "/*"});
        props.put(HttpWhiteboardConstants.HTTP_WHITEBOARD_SERVLET_NAME, "quiver-oauth-resource-metadata");
        return props;
    }

    private void register(HttpConfig c) {
        registration = new ServletRegistration(context.registerService(Servlet.class, servlet,
                servletProperties(path(c), endpoints)), List.of(endpoints.patterns()));
    }

    private void unregister() {
        if (registration != null) {
            try {
                registration.service().unregister();
            } catch (IllegalStateException e) {
                // bundle already stopping
            }
            registration = null;
        }
    }

    private static Hashtable<String, Object> servletProperties(String path, Endpoints endpoints) {
        Hashtable<String, Object> props = new Hashtable<>();
        props.put(HttpWhiteboardConstants.HTTP_WHITEBOARD_SERVLET_PATTERN, endpoints.patterns());
        props.put(HttpWhiteboardConstants.HTTP_WHITEBOARD_SERVLET_NAME, "quiver-mcp");
        props.put(HttpWhiteboardConstants.HTTP_WHITEBOARD_SERVLET_ASYNC_SUPPORTED, Boolean.TRUE);
        props.put(ENDPOINT_PATH, path);
        return props;
    }

    /**
     * Offers (or withdraws) the {@link SelectorLane} to Felix HTTP's Jetty 12. Elsewhere (another HTTP
     * service, no Jetty) every request takes the container's threads as before.
     */
    private void lane(boolean wanted) {
        if (wanted && lane == null) {
            try {
                lane = context.registerService(org.apache.felix.http.jetty.ConnectorFactory.class,
                        new SelectorLane(servlet::serves, gate::checksWithoutWaiting, servlet, false), null);
                tlsLane = context.registerService(org.apache.felix.http.jetty.ConnectorFactory.class,
                        new SelectorLane(servlet::serves, gate::checksWithoutWaiting, servlet, true), null);
            } catch (LinkageError e) {
                LOG.info("Not Felix HTTP's Jetty: MCP requests take the container's threads ({})", e.toString());
            }
        } else if (!wanted && lane != null) {
            for (ServiceRegistration<?> offered : new ServiceRegistration<?>[] {tlsLane, lane}) {
                try {
                    if (offered != null) {
                        offered.unregister();
                    }
                } catch (IllegalStateException e) {
                    // bundle already stopping
                }
            }
            lane = null;
            tlsLane = null;
        }
    }

    /** The header-time guard where the HTTP service is Jetty's (Felix HTTP), else none. */
    private static HeaderWatch headerWatch() {
        try {
            return new HeaderGuard();
        } catch (LinkageError e) {
            LOG.info("Not Jetty: request headers are not timed ({})", e.toString());
            return HeaderWatch.NONE;
        }
    }

    /** Why the endpoint must not be served as configured, or null. */
    private String refusal(HttpConfig c) {
        String bind = context.getProperty(HOST_PROPERTY);
        if (isLoopback(bind)) {
            return null;
        }
        String where = "Not serving MCP on " + (bind == null || bind.isBlank() ? "every address" : bind);
        if (TypedConfig.list(c.allowedHosts()).isEmpty()) {
            return where + ": listening beyond loopback needs allowedHosts, the host names clients use to reach this server"
                    + " (set allowedHosts in etc/io.quiver.transport.http.cfg, e.g. allowedHosts = mcp.example.com),"
                    + " or bind to 127.0.0.1";
        }
        if (!gate.required() && !Boolean.parseBoolean(context.getProperty(INSECURE_PROPERTY))) {
            return where + ": listening beyond loopback needs authentication (configure etc/io.quiver.auth.jwt.cfg or"
                    + " an API key, see docs/security.md), or --insecure-no-auth on a network you trust";
        }
        return null;
    }


    /** Whether an address (a literal or a name) is the loopback interface only. */
    static boolean isLoopback(String bind) {
        if (bind == null || bind.isBlank()) {
            return false;
        }
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

    /** The configuration to use: the good values given, the last good ones for the rest. */
    private HttpConfig read(Map<String, Object> properties, HttpConfig previous) {
        TypedConfig.Result<HttpConfig> result = TypedConfig.read(HttpConfig.class, properties, previous);
        List<Problem> found = new ArrayList<>(result.problems().stream().map(p -> new Problem(p.source(), p.reason()))
                .toList());
        try {
            endpoints = new Endpoints(path(result.config()), result.config().tenantPath());
        } catch (IllegalArgumentException e) {
            // keep the last good template (none at first: only the default tenant is served)
            found.add(new Problem(source, "tenantPath = " + result.config().tenantPath() + ": " + e.getMessage()));
            endpoints = new Endpoints(path(result.config()), endpoints == null ? "" : endpoints.tenantPath());
        }
        found.stream().filter(p -> !problems.contains(p)).forEach(p -> LOG.warn("{}", p));
        problems = List.copyOf(found);
        return result.config();
    }

    @Override
    public TransportInfo status() {
        return servlet.status();
    }

    @Override
    public List<Problem> problems() {
        Problem r = refused;
        if (r == null) {
            return problems;
        }
        List<Problem> all = new ArrayList<>(problems);
        all.add(r);
        return all;
    }

    /**
     * Streams still open end here. When the whole server stops, the engine has drained before (calls in
     * flight answered, streams given their last message); this transport alone stopping (its bundle
     * updated, say) leaves the engine serving other transports.
     */
    @Deactivate
    synchronized void deactivate() {
        unregister();
        lane(false);
        try {
            metadata.unregister();
        } catch (IllegalStateException e) {
            // bundle already stopping
        }
        timer.shutdownNow();
        servlet.closeAll();
    }


    static String path(HttpConfig c) {
        String p = c.path() == null || c.path().isBlank() ? "/mcp" : c.path().trim();
        return p.startsWith("/") ? p : "/" + p;
    }
}
