package io.quiver.core.internal.wiring;

import io.quiver.api.CallerIdentity;
import io.quiver.api.call.CallListener;
import io.quiver.api.call.CallPolicy;
import io.quiver.api.call.HostChannel;
import io.quiver.api.operator.CatalogEntry;
import io.quiver.api.operator.CatalogProblem;
import io.quiver.api.operator.McpOperator;
import io.quiver.api.operator.Problem;
import io.quiver.api.operator.ProblemSource;
import io.quiver.api.operator.SessionInfo;
import io.quiver.api.resource.ResourceEvents;
import io.quiver.api.transport.Inbound;
import io.quiver.api.transport.McpEngine;
import io.quiver.api.transport.McpSession;
import io.quiver.api.transport.Receipt;
import io.quiver.core.internal.catalog.Catalog;
import io.quiver.core.internal.catalog.RankedRegistry;
import io.quiver.core.internal.catalog.Scope;
import io.quiver.core.internal.catalog.ToolEntry;
import io.quiver.core.internal.engine.Engine;
import io.quiver.core.internal.messages.ProtocolVersions;
import io.quiver.core.internal.pipeline.Extensions;
import io.quiver.core.internal.pipeline.ToolLimitsRegistry;
import io.quiver.core.internal.request.Session;
import io.quiver.core.internal.rpc.JsonRpc;
import io.quiver.core.internal.rpc.RpcError;
import io.quiver.core.internal.settings.EngineConfig;
import io.quiver.core.internal.settings.EngineSettings;
import io.quiver.lib.config.TypedConfig;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Hashtable;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.framework.BundleEvent;
import org.osgi.framework.Constants;
import org.osgi.framework.ServiceRegistration;
import org.osgi.framework.SynchronousBundleListener;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Modified;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.osgi.service.component.annotations.ReferencePolicy;
import org.osgi.service.metatype.annotations.Designate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The engine as an OSGi service: configuration in, {@link McpEngine} and {@link ResourceEvents} out.
 * A configuration change is applied to the running engine (sessions and streams stay); a value that
 * is not valid keeps its last good one, is logged once and listed as a problem until it is fixed.
 */
@Component(service = {McpEngine.class, ResourceEvents.class, McpOperator.class}, configurationPid = "io.quiver.core")
@Designate(ocd = EngineConfig.class)
public final class EngineComponent implements McpEngine, ResourceEvents, McpOperator {

    private static final Logger LOG = LoggerFactory.getLogger(EngineComponent.class);
    /** The shortest request-state signing key taken (HMAC-SHA256 wants 256 bits). */
    static final int MIN_KEY_LENGTH = 32;

    private final EngineAssembly assembly;
    private final Engine engine;
    private final Catalog catalog;
    private final ToolLimitsRegistry limits = new ToolLimitsRegistry();
    private final Extensions extensions = new Extensions();
    private final ServiceRegistration<ProblemSource> problemSource;
    private final BundleContext context;
    /** While a host channel is in force: the marker other bundles follow (HostChannel.IN_FORCE). */
    private ServiceRegistration<?> hostMarker;
    /** Drains the engine when the framework begins to stop, before any bundle (a tool's, say) stops. */
    private final SynchronousBundleListener frameworkStopping;
    private volatile List<Problem> configProblems = List.of();

    @Activate
    public EngineComponent(@Reference Catalog catalog, Map<String, Object> properties, BundleContext context) {
        this.catalog = catalog;
        extensions.hostRequired(Boolean.parseBoolean(context.getProperty(HostBundles.REQUIRED)));
        extensions.policyRequired(Boolean.parseBoolean(context.getProperty(POLICY_REQUIRED)));
        String version = EngineComponent.class.getPackage().getImplementationVersion();
        this.assembly = EngineAssembly.of(catalog, new EngineSettings(read(properties, null),
                version == null ? "0.1.0" : version), limits, extensions);
        this.engine = assembly.engine();
        this.problemSource = context.registerService(ProblemSource.class, () -> configProblems, null);
        this.context = context;
        this.frameworkStopping = event -> {
            if (event.getType() == BundleEvent.STOPPING && event.getBundle().getBundleId() == 0) {
                engine.drain();
            }
        };
        context.addBundleListener(frameworkStopping);
    }

    @Modified
    void modified(Map<String, Object> properties) {
        assembly.reconfigure(read(properties, engine.settings().config()));
    }

    /** The configuration to use: the good values given, the last good ones for the rest. */
    private EngineConfig read(Map<String, Object> properties, EngineConfig previous) {
        TypedConfig.Result<EngineConfig> result = TypedConfig.read(EngineConfig.class, properties, previous);
        EngineConfig config = result.config();
        List<Problem> found = new ArrayList<>();
        result.problems().forEach(p -> found.add(new Problem(p.source(), p.reason())));
        for (String key : config.requestStateKeys()) {
            for (String part : key.split(",")) {
                if (!part.isBlank() && part.trim().length() < MIN_KEY_LENGTH) {
                    String kept = previous == null ? "(a random key)" : "the previous keys";
                    found.add(new Problem(TypedConfig.source(properties), "requestStateKeys has a key of "
                            + part.trim().length() + " characters; keys need at least " + MIN_KEY_LENGTH
                            + "; keeping " + kept));
                    config = TypedConfig.read(EngineConfig.class, withKeys(properties, previous), previous).config();
                }
            }
        }
        for (Problem problem : found) {
            if (!configProblems.contains(problem)) {
                LOG.warn("{}", problem);
            }
        }
        configProblems = List.copyOf(found);
        return config;
    }

    /** The properties with the request-state keys of the previous configuration (none: random). */
    private static Map<String, Object> withKeys(Map<String, Object> properties, EngineConfig previous) {
        Map<String, Object> copy = new HashMap<>(properties);
        copy.put("requestStateKeys", previous == null ? new String[0] : previous.requestStateKeys());
        return copy;
    }

    @Reference(service = ToolLimitsComponent.class, cardinality = ReferenceCardinality.MULTIPLE,
            policy = ReferencePolicy.DYNAMIC, unbind = "unbindLimits", updated = "bindLimits")
    void bindLimits(ToolLimitsComponent component) {
        limits.put(component, component.limits()); // by the component: a renamed tool's limits go with the rename
        for (String tool : limits.limitedTwice()) {
            LOG.warn("Tool {} is limited by more than one io.quiver.core.tool configuration: the first one counts", tool);
        }
    }

    void unbindLimits(ToolLimitsComponent component) {
        limits.remove(component);
    }

    // The call SPIs, followed while the engine runs: the pipeline reads the ones in place at each call.

    @Reference(cardinality = ReferenceCardinality.MULTIPLE, policy = ReferencePolicy.DYNAMIC,
            unbind = "unbindPolicy", updated = "bindPolicy")
    void bindPolicy(CallPolicy policy, Map<String, Object> properties) {
        extensions.addPolicy(policy, ranking(properties), serviceId(properties));
        catalog.policyChanged();
    }

    /**
     * A call policy's marker that its rules changed ({@value #POLICY_REVISION}: the permissions bundle's, after a grant
     * came, changed or went): every client is told its lists may have changed.
     */
    @Reference(service = Object.class, cardinality = ReferenceCardinality.MULTIPLE, policy = ReferencePolicy.DYNAMIC,
            target = "(" + POLICY_REVISION + "=*)", unbind = "policyRevised", updated = "policyRevised")
    void policyRevised(Map<String, Object> properties) {
        catalog.policyChanged();
    }

    static final String POLICY_REVISION = "io.quiver.policy.revision";
    /** The framework property (the launcher's) saying that the platform brings a call policy: {@value}. */
    static final String POLICY_REQUIRED = "quiver.policy.required";

    void unbindPolicy(CallPolicy policy, Map<String, Object> properties) {
        extensions.removePolicy(serviceId(properties));
        if (extensions.policyMissing() && context.getBundle(0).getState() == Bundle.ACTIVE) {
            LOG.error("The call policy is gone (its bundle stopped?): nothing is listed or allowed to anyone until one is"
                    + " registered again; start the permissions bundle again, or restart the server");
        }
        catalog.policyChanged();
    }

    @Reference(cardinality = ReferenceCardinality.MULTIPLE, policy = ReferencePolicy.DYNAMIC,
            unbind = "unbindHost", updated = "bindHost")
    void bindHost(HostChannel host, Map<String, Object> properties) {
        String from = HostBundles.registrant(properties);
        if (!HostBundles.allowed(from)) {
            LOG.warn("A host channel registered by {} is ignored: only the embedder's host channel takes part in calls"
                    + " (the framework property {} names the bundles allowed to provide one)", from, HostBundles.PROPERTY);
            return;
        }
        extensions.addHost(host, ranking(properties), serviceId(properties));
        markHost();
    }

    void unbindHost(HostChannel host, Map<String, Object> properties) {
        extensions.removeHost(serviceId(properties));
        markHost();
    }

    /** Registers the {@link HostChannel#IN_FORCE} marker while a host channel takes part in calls, and only then. */
    private synchronized void markHost() {
        boolean inForce = extensions.host() != null;
        if (inForce && hostMarker == null) {
            Hashtable<String, Object> props = new Hashtable<>();
            props.put(HostChannel.IN_FORCE, Boolean.TRUE);
            hostMarker = context.registerService(Object.class, new Object(), props);
        } else if (!inForce && hostMarker != null) {
            try {
                hostMarker.unregister();
            } catch (IllegalStateException e) {
                // gone with the bundle
            }
            hostMarker = null;
        }
    }

    @Reference(cardinality = ReferenceCardinality.MULTIPLE, policy = ReferencePolicy.DYNAMIC,
            unbind = "unbindCallListener")
    void bindCallListener(CallListener listener) {
        extensions.addListener(listener);
    }

    void unbindCallListener(CallListener listener) {
        extensions.removeListener(listener);
    }

    private static int ranking(Map<String, Object> properties) {
        return properties.get(Constants.SERVICE_RANKING) instanceof Integer ranking ? ranking : 0;
    }

    private static long serviceId(Map<String, Object> properties) {
        return properties.get(Constants.SERVICE_ID) instanceof Long id ? id : Long.MAX_VALUE;
    }

    @Deactivate
    void deactivate() {
        try {
            context.removeBundleListener(frameworkStopping);
            problemSource.unregister();
        } catch (IllegalStateException e) {
            // the bundle is stopping
        }
        engine.drain();
        assembly.close();
    }

    @Override
    public void drain() {
        engine.drain();
    }

    @Override
    public Receipt receive(byte[] message, Inbound inbound) {
        return engine.receive(message, inbound);
    }

    @Override
    public Receipt receiveNow(byte[] message, Inbound inbound) {
        return engine.receiveNow(message, inbound);
    }

    @Override
    public Optional<McpSession> session(String id) {
        return engine.session(id);
    }

    @Override
    public byte[] errorResponse(int code, String message) {
        return JsonRpc.error(null, new RpcError(code, message, null));
    }

    @Override
    public List<String> supportedVersions() {
        return engine.supportedVersions();
    }

    @Override
    public boolean hasSessions(String version) {
        return !ProtocolVersions.atLeast(version, ProtocolVersions.STATELESS);
    }

    @Override
    public void updated(String uri) {
        engine.resourceUpdated(uri);
    }

    @Override
    public void updated(String uri, io.quiver.api.resource.Subscribable source) {
        engine.resourceUpdated(uri, source);
    }

    @Override
    public List<CatalogEntry> tools() {
        List<CatalogEntry> all = new ArrayList<>();
        catalog.toolsByScope().forEach((scope, tools) ->
                tools.winners().values().forEach(e -> all.add(entry(scope, e))));
        return all;
    }

    @Override
    public List<CatalogEntry> shadowed() {
        List<CatalogEntry> all = new ArrayList<>();
        catalog.toolsByScope().forEach((scope, tools) -> tools.shadowed().forEach(e -> all.add(entry(scope, e))));
        return all;
    }

    @Override
    public List<CatalogProblem> problems() {
        return catalog.problems();
    }

    @Override
    public List<SessionInfo> sessions() {
        return engine.sessions().all().stream()
                .sorted(Comparator.comparing(Session::id))
                .map(s -> new SessionInfo(s.id(), s.protocolVersion(),
                        (s.client().name() + " " + s.client().version()).trim(), who(s.caller()),
                        s.hasStream(), s.inflight(), s.idleMillis()))
                .toList();
    }

    /** A session's caller as the operator reads it: the subject, and where it is unless in the default tenant as a whole. */
    private static String who(CallerIdentity caller) {
        if (caller.project() == null && CallerIdentity.DEFAULT_TENANT.equals(caller.tenant())) {
            return caller.subject();
        }
        return caller.subject() + " (" + caller.tenant() + (caller.project() == null ? "" : "/" + caller.project()) + ")";
    }

    private static CatalogEntry entry(Scope scope, RankedRegistry.Entry<ToolEntry> e) {
        return new CatalogEntry(e.key(), e.value().descriptor().description(), e.serviceId(),
                e.ranking(), e.value().bundleId(), scope.label());
    }
}
