package io.quiver.core.internal.catalog;

import io.quiver.api.CallerIdentity;
import io.quiver.api.Tool;
import io.quiver.api.completion.Completer;
import io.quiver.api.operator.CatalogProblem;
import io.quiver.api.prompt.Prompt;
import io.quiver.api.resource.Resource;
import io.quiver.api.resource.ResourceTemplate;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import java.util.function.LongFunction;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.osgi.service.component.annotations.ReferencePolicy;
import org.osgi.service.component.annotations.ReferencePolicyOption;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The whiteboard of tools, resources, resource templates, prompts and completers. Every service
 * that comes or goes yields a new immutable snapshot; listeners hear which kind of list changed,
 * whether an entry left it, and in which scopes.
 *
 * <p>Each entry is visible in one or more {@link Scope}s: a service's {@code mcp.tenant} and
 * {@code mcp.project} properties say where, else the operator's {@link ScopeRule}s, else it is
 * global. A caller reads the view of its place ({@link #tools(CallerIdentity)}): its project's
 * entries over its tenant's over the global ones, name by name.
 */
@Component(service = Catalog.class)
public final class Catalog {

    /** Which list changed. */
    public enum Kind { TOOLS, RESOURCES, PROMPTS }

    /** Hears list changes. */
    @FunctionalInterface
    public interface Listener {
        /**
         * @param kind the list that changed
         * @param removed true when an entry left the list, false when one was added or replaced
         * @param scopes the scopes whose entries changed: only callers these cover saw a change
         */
        void changed(Kind kind, boolean removed, Set<Scope> scopes);
    }

    static final String RULES_PROPERTY = "quiver.scope.rules";
    static final long RULES_WAIT_MS = 10_000;

    /** The service properties that scope an entry. */
    public static final String TENANT = "mcp.tenant";
    public static final String PROJECT = "mcp.project";

    private static final Logger LOG = LoggerFactory.getLogger(Catalog.class);

    /** Where a service came from and where it asked to be, to place it again when the rules change. */
    private record Origin(String bundle, Set<Scope> own) {
    }

    private final SchemaCheck schemas = new SchemaCheck();
    private final ScopedRegistry<ToolEntry> tools = new ScopedRegistry<>();
    private final ScopedRegistry<ResourceEntry> resources = new ScopedRegistry<>();
    private final ScopedRegistry<TemplateEntry> templates = new ScopedRegistry<>();
    private final ScopedRegistry<PromptEntry> prompts = new ScopedRegistry<>();
    private final ScopedRegistry<Completer> completers = new ScopedRegistry<>();
    private final List<Listener> listeners = new CopyOnWriteArrayList<>();
    private final Map<Long, CatalogProblem> problems = new ConcurrentHashMap<>();
    private final Map<Long, Origin> origins = new ConcurrentHashMap<>();
    private final List<ScopeRule> rules = new CopyOnWriteArrayList<>();
    /**
     * The reading of each service being read now (by service id): a tool's reading (its schemas) takes
     * milliseconds and is done outside the lists' locks, so that the tools of bundles starting on
     * several threads are read side by side. Only the last bind, update or unbind of a service counts.
     */
    private final Map<Long, Long> readings = new ConcurrentHashMap<>();
    private final AtomicLong lastReading = new AtomicLong();
    /**
     * How many scope rules the server started with ({@value #RULES_PROPERTY}, set by the launcher from
     * {@code etc/}); until that many have arrived, or {@value #RULES_WAIT_MS} ms have passed, what
     * the rules would place is seen by no one: never by every tenant for a moment.
     */
    private volatile int rulesAwaited;
    private final LongFunction<String> symbolicNames;
    private final ToolLog toolLog;

    /** A catalog outside a framework (tests): bundles are named by id in the log. */
    public Catalog() {
        this(id -> "bundle " + id, id -> null, () -> false);
    }

    /** A catalog outside a framework whose bundles have the given symbolic names (tests of scope rules). */
    Catalog(LongFunction<String> symbolicNames) {
        this(id -> "bundle " + id, symbolicNames, () -> false);
    }

    /** In a framework: bundles named by symbolic name and version; nothing logged while the framework stops. */
    @Activate
    public Catalog(BundleContext context) {
        this(id -> {
            Bundle bundle = context.getBundle(id);
            return bundle == null ? "bundle " + id : bundle.getSymbolicName() + " " + bundle.getVersion();
        }, id -> {
            Bundle bundle = context.getBundle(id);
            return bundle == null ? null : bundle.getSymbolicName();
        }, () -> context.getBundle(0).getState() == Bundle.STOPPING);
        String awaited = context.getProperty(RULES_PROPERTY);
        if (awaited != null && awaited.matches("[0-9]{1,6}") && Integer.parseInt(awaited) > 0) {
            awaitRules(Integer.parseInt(awaited), RULES_WAIT_MS);
        }
    }

    /**
     * Shows what rules may scope to no one until {@code count} rules have bound or {@code waitMs}
     * passed (then the rules there are apply, and the log says how many never came).
     */
    void awaitRules(int count, long waitMs) {
        rulesAwaited = count;
        Thread timer = new Thread(() -> {
            try {
                Thread.sleep(waitMs);
            } catch (InterruptedException e) {
                return;
            }
            if (rulesAwaited > 0) {
                LOG.warn("{} of {} scope rules of etc/ did not arrive within {} ms; the catalog goes on with {}",
                        rulesAwaited - rules.size(), rulesAwaited, waitMs, rules.size());
                rulesAwaited = 0;
                placeAgain();
            }
        }, "quiver-scope-rules-wait");
        timer.setDaemon(true);
        timer.start();
    }

    private Catalog(LongFunction<String> bundles, LongFunction<String> symbolicNames, BooleanSupplier stopping) {
        this.toolLog = new ToolLog(bundles, stopping);
        this.symbolicNames = symbolicNames;
        // The meta-schema and the validator's classes cost ~200 ms the first time; load them now,
        // beside the other bundles starting, not when the first tool arrives.
        Thread warm = new Thread(() -> {
            try {
                schemas.warmUp();
            } catch (RuntimeException e) {
                LOG.debug("Warming the schema validator failed", e);
            }
        }, "quiver-schema-warmup");
        warm.setDaemon(true);
        warm.start();
    }

    /** The tools a caller sees: its project's, its tenant's and the global ones. */
    public RankedRegistry.Snapshot<ToolEntry> tools(CallerIdentity caller) {
        return tools.view(caller.tenant(), caller.project());
    }

    public RankedRegistry.Snapshot<ResourceEntry> resources(CallerIdentity caller) {
        return resources.view(caller.tenant(), caller.project());
    }

    public RankedRegistry.Snapshot<TemplateEntry> templates(CallerIdentity caller) {
        return templates.view(caller.tenant(), caller.project());
    }

    public RankedRegistry.Snapshot<PromptEntry> prompts(CallerIdentity caller) {
        return prompts.view(caller.tenant(), caller.project());
    }

    public RankedRegistry.Snapshot<Completer> completers(CallerIdentity caller) {
        return completers.view(caller.tenant(), caller.project());
    }

    /** Every scope's own tools (global first, then by tenant and project), for the operator. */
    public Map<Scope, RankedRegistry.Snapshot<ToolEntry>> toolsByScope() {
        return tools.all();
    }

    /** Services refused because of their properties, by service id. */
    public List<CatalogProblem> problems() {
        return problems.values().stream().sorted(Comparator.comparingLong(CatalogProblem::serviceId)).toList();
    }

    /** Registers a listener for list changes. */
    public void addListener(Listener listener) {
        listeners.add(listener);
    }

    public void removeListener(Listener listener) {
        listeners.remove(listener);
    }

    // --- tools ---------------------------------------------------------------------------------

    @Reference(name = "tool", service = Tool.class, cardinality = ReferenceCardinality.MULTIPLE,
            policy = ReferencePolicy.DYNAMIC, policyOption = ReferencePolicyOption.GREEDY,
            unbind = "unbindTool", updated = "bindTool")
    public void bindTool(Tool tool, Map<String, Object> props) {
        add(tools, Kind.TOOLS, props, p -> ToolEntry.from(tool, p, schemas), ToolEntry::name);
    }

    public void unbindTool(Map<String, Object> props) {
        remove(tools, Kind.TOOLS, props);
    }

    // --- resources -----------------------------------------------------------------------------

    @Reference(name = "resource", service = Resource.class, cardinality = ReferenceCardinality.MULTIPLE,
            policy = ReferencePolicy.DYNAMIC, policyOption = ReferencePolicyOption.GREEDY,
            unbind = "unbindResource", updated = "bindResource")
    public void bindResource(Resource resource, Map<String, Object> props) {
        add(resources, Kind.RESOURCES, props, p -> ResourceEntry.from(resource, p), ResourceEntry::uri);
    }

    public void unbindResource(Map<String, Object> props) {
        remove(resources, Kind.RESOURCES, props);
    }

    @Reference(name = "template", service = ResourceTemplate.class, cardinality = ReferenceCardinality.MULTIPLE,
            policy = ReferencePolicy.DYNAMIC, policyOption = ReferencePolicyOption.GREEDY,
            unbind = "unbindTemplate", updated = "bindTemplate")
    public void bindTemplate(ResourceTemplate template, Map<String, Object> props) {
        add(templates, Kind.RESOURCES, props, p -> TemplateEntry.from(template, p), TemplateEntry::uriTemplate);
    }

    public void unbindTemplate(Map<String, Object> props) {
        remove(templates, Kind.RESOURCES, props);
    }

    // --- prompts and completions ---------------------------------------------------------------

    @Reference(name = "prompt", service = Prompt.class, cardinality = ReferenceCardinality.MULTIPLE,
            policy = ReferencePolicy.DYNAMIC, policyOption = ReferencePolicyOption.GREEDY,
            unbind = "unbindPrompt", updated = "bindPrompt")
    public void bindPrompt(Prompt prompt, Map<String, Object> props) {
        add(prompts, Kind.PROMPTS, props, p -> PromptEntry.from(prompt, p), PromptEntry::name);
    }

    public void unbindPrompt(Map<String, Object> props) {
        remove(prompts, Kind.PROMPTS, props);
    }

    @Reference(name = "completer", service = Completer.class, cardinality = ReferenceCardinality.MULTIPLE,
            policy = ReferencePolicy.DYNAMIC, policyOption = ReferencePolicyOption.GREEDY,
            unbind = "unbindCompleter", updated = "bindCompleter")
    public void bindCompleter(Completer completer, Map<String, Object> props) {
        add(completers, null, props, p -> {
            String type = Props.string(p, "mcp.completion.refType");
            String ref = Props.string(p, "mcp.completion.ref");
            if (type == null || ref == null) {
                throw new IllegalArgumentException("a completer needs mcp.completion.refType and mcp.completion.ref");
            }
            return completer;
        }, c -> completerKey(Props.string(props, "mcp.completion.refType"), Props.string(props, "mcp.completion.ref")));
    }

    public void unbindCompleter(Map<String, Object> props) {
        remove(completers, null, props);
    }

    /** The key completers are filed under. */
    public static String completerKey(String refType, String ref) {
        return refType + " " + ref;
    }

    // --- scope rules ---------------------------------------------------------------------------

    @Reference(name = "scopeRule", service = ScopeRule.class, cardinality = ReferenceCardinality.MULTIPLE,
            policy = ReferencePolicy.DYNAMIC, policyOption = ReferencePolicyOption.GREEDY,
            unbind = "unbindScopeRule")
    public void bindScopeRule(ScopeRule rule) {
        rules.add(rule);
        if (rules.size() >= rulesAwaited) {
            rulesAwaited = 0;
        }
        placeAgain();
    }

    public void unbindScopeRule(ScopeRule rule) {
        rules.remove(rule);
        placeAgain();
    }

    /** The rules changed: every entry not scoped by its own properties goes where they say now. */
    private void placeAgain() {
        placeAgain(tools, Kind.TOOLS);
        placeAgain(resources, Kind.RESOURCES);
        placeAgain(templates, Kind.RESOURCES);
        placeAgain(prompts, Kind.PROMPTS);
        placeAgain(completers, null);
    }

    private <T> void placeAgain(ScopedRegistry<T> registry, Kind kind) {
        synchronized (registry) {
            for (ScopedRegistry.Placement<T> placed : registry.placements().values()) {
                Origin origin = origins.get(placed.entry().serviceId());
                if (origin == null || origin.own() != null) {
                    continue;
                }
                Set<Scope> scopes = ruled(origin.bundle(), ruledName(registry, placed.entry().key()));
                if (!scopes.equals(placed.scopes())) {
                    place(registry, kind, placed.entry(), scopes);
                }
            }
        }
    }

    // -------------------------------------------------------------------------------------------

    private <T> void add(ScopedRegistry<T> registry, Kind kind, Map<String, Object> props,
            Function<Map<String, Object>, T> reader, Function<T, String> key) {
        long serviceId = Props.serviceId(props);
        long bundleId = Props.number(props, "service.bundleid", -1);
        long reading = lastReading.incrementAndGet();
        readings.put(serviceId, reading);
        T value = null;
        Set<Scope> own = null;
        IllegalArgumentException refused = null;
        try {
            value = reader.apply(props);
            own = ownScopes(props);
        } catch (IllegalArgumentException e) {
            refused = e;
        } catch (RuntimeException | Error e) {
            readings.remove(serviceId, reading);
            throw e;
        }
        synchronized (registry) {
            if (!readings.remove(serviceId, reading)) {
                return; // the service changed or left while it was read: that later reading or removal decides
            }
            if (refused != null) {
                LOG.warn("Refused service {} of {}: {}", serviceId, toolLog.bundle(bundleId), refused.getMessage());
                remove(registry, kind, props);
                problems.put(serviceId, new CatalogProblem(serviceId, bundleId, refused.getMessage()));
                return;
            }
            problems.remove(serviceId);
            String name = key.apply(value);
            Origin origin = new Origin(symbolicNames.apply(bundleId), own);
            origins.put(serviceId, origin);
            Set<Scope> scopes = own != null ? own : ruled(origin.bundle(), ruledName(registry, name));
            place(registry, kind, new RankedRegistry.Entry<>(name, serviceId, Props.ranking(props), value), scopes);
        }
    }

    private <T> void remove(ScopedRegistry<T> registry, Kind kind, Map<String, Object> props) {
        long serviceId = Props.serviceId(props);
        synchronized (registry) {
            readings.remove(serviceId); // a reading still under way is not taken
            problems.remove(serviceId);
            origins.remove(serviceId);
            Map<Scope, RankedRegistry.Snapshot<T>> before = before(registry, kind, registry.scopesOf(serviceId));
            RankedRegistry.Entry<T> was = registry.entry(serviceId);
            Set<Scope> changed = registry.remove(serviceId);
            logTools(registry, before, was, null);
            fire(kind, true, changed);
        }
    }

    /** Puts an entry into exactly the given scopes, logs what that did to the tools and tells the listeners. */
    private <T> void place(ScopedRegistry<T> registry, Kind kind, RankedRegistry.Entry<T> entry, Set<Scope> scopes) {
        Set<Scope> was = registry.scopesOf(entry.serviceId());
        Set<Scope> touched = new HashSet<>(was);
        touched.addAll(scopes);
        Map<Scope, RankedRegistry.Snapshot<T>> before = before(registry, kind, touched);
        RankedRegistry.Entry<T> previous = registry.entry(entry.serviceId());
        Set<Scope> changed = registry.put(entry, scopes);
        logTools(registry, before, previous, entry);
        fire(kind, !scopes.containsAll(was), changed);
    }

    private static <T> Map<Scope, RankedRegistry.Snapshot<T>> before(ScopedRegistry<T> registry, Kind kind,
            Set<Scope> scopes) {
        Map<Scope, RankedRegistry.Snapshot<T>> before = new HashMap<>();
        if (kind == Kind.TOOLS) {
            scopes.forEach(s -> before.put(s, registry.of(s).snapshot()));
        }
        return before;
    }

    /** The operator's log lines for what one change did to the tools, scope by scope. */
    @SuppressWarnings("unchecked")
    private <T> void logTools(ScopedRegistry<T> registry, Map<Scope, RankedRegistry.Snapshot<T>> before,
            RankedRegistry.Entry<T> was, RankedRegistry.Entry<T> now) {
        if (before.isEmpty()) {
            return;
        }
        Set<String> names = new HashSet<>(2);
        if (was != null) {
            names.add(was.key());
        }
        if (now != null) {
            names.add(now.key());
        }
        before.forEach((scope, snapshot) -> toolLog.changed((RankedRegistry.Snapshot<ToolEntry>) snapshot,
                (RankedRegistry.Snapshot<ToolEntry>) registry.of(scope).snapshot(), names, scope.where()));
    }

    /** Where a service's own properties put it, or {@code null} when they say nothing. */
    private static Set<Scope> ownScopes(Map<String, Object> props) {
        List<String> tenants = Props.strings(props, TENANT);
        List<String> projects = Props.strings(props, PROJECT);
        if (tenants.isEmpty()) {
            if (!projects.isEmpty()) {
                throw new IllegalArgumentException(PROJECT + " needs " + TENANT + ", the tenant the project belongs to");
            }
            return null;
        }
        try {
            return Scope.of(tenants, projects);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("mcp." + e.getMessage(), e); // names the property
        }
    }

    /**
     * The name scope rules match an entry by: its key, but for a completer the prompt name or URI template it
     * completes, so that a rule naming a prompt places the prompt's completer with it (not everywhere).
     */
    private String ruledName(ScopedRegistry<?> registry, String key) {
        return registry == completers ? key.substring(key.indexOf(' ') + 1) : key;
    }

    /**
     * Where the operator's rules put an entry: the union of every matching rule's scopes, else global;
     * nowhere while rules of etc/ are still awaited.
     */
    private Set<Scope> ruled(String bundle, String name) {
        if (rulesAwaited > 0) {
            return Set.of();
        }
        Set<Scope> scopes = null;
        for (ScopeRule rule : rules) {
            if (rule.matches(bundle, name)) {
                if (scopes == null) {
                    scopes = new HashSet<>();
                }
                scopes.addAll(rule.scopes());
            }
        }
        return scopes == null ? Set.of(Scope.GLOBAL) : Set.copyOf(scopes);
    }

    /**
     * What a caller may see changed without a change of the catalog (a call policy came, went, or changed its rules):
     * every list may look different to anyone, so clients are told of all three.
     */
    public void policyChanged() {
        for (Kind kind : Kind.values()) {
            fire(kind, false, Set.of(Scope.GLOBAL));
        }
    }

    private void fire(Kind kind, boolean removed, Set<Scope> scopes) {
        if (kind == null || scopes.isEmpty()) {
            return;
        }
        for (Listener listener : listeners) {
            try {
                listener.changed(kind, removed, scopes);
            } catch (RuntimeException e) {
                LOG.warn("A catalog listener failed", e);
            }
        }
    }
}
