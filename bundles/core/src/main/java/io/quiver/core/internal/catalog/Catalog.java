package io.quiver.core.internal.catalog;

import io.quiver.api.Tool;
import io.quiver.api.completion.Completer;
import io.quiver.api.operator.CatalogProblem;
import io.quiver.api.prompt.Prompt;
import io.quiver.api.resource.Resource;
import io.quiver.api.resource.ResourceTemplate;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
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
 * that comes or goes yields a new immutable snapshot; listeners hear which kind of list changed and
 * whether an entry left it.
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
         */
        void changed(Kind kind, boolean removed);
    }

    private static final Logger LOG = LoggerFactory.getLogger(Catalog.class);

    private final SchemaCheck schemas = new SchemaCheck();
    private final RankedRegistry<ToolEntry> tools = new RankedRegistry<>();
    private final RankedRegistry<ResourceEntry> resources = new RankedRegistry<>();
    private final RankedRegistry<TemplateEntry> templates = new RankedRegistry<>();
    private final RankedRegistry<PromptEntry> prompts = new RankedRegistry<>();
    private final RankedRegistry<Completer> completers = new RankedRegistry<>();
    private final List<Listener> listeners = new CopyOnWriteArrayList<>();
    private final Map<Long, CatalogProblem> problems = new ConcurrentHashMap<>();
    private final ToolLog toolLog;

    /** A catalog outside a framework (tests): bundles are named by id in the log. */
    public Catalog() {
        this(id -> "bundle " + id, () -> false);
    }

    /** In a framework: bundles named by symbolic name and version; nothing logged while the framework stops. */
    @Activate
    public Catalog(BundleContext context) {
        this(id -> {
            Bundle bundle = context.getBundle(id);
            return bundle == null ? "bundle " + id : bundle.getSymbolicName() + " " + bundle.getVersion();
        }, () -> context.getBundle(0).getState() == Bundle.STOPPING);
    }

    private Catalog(LongFunction<String> bundles, BooleanSupplier stopping) {
        this.toolLog = new ToolLog(bundles, stopping);
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

    public RankedRegistry.Snapshot<ToolEntry> tools() {
        return tools.snapshot();
    }

    public RankedRegistry.Snapshot<ResourceEntry> resources() {
        return resources.snapshot();
    }

    public RankedRegistry.Snapshot<TemplateEntry> templates() {
        return templates.snapshot();
    }

    public RankedRegistry.Snapshot<PromptEntry> prompts() {
        return prompts.snapshot();
    }

    public RankedRegistry.Snapshot<Completer> completers() {
        return completers.snapshot();
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
        synchronized (tools) {
            long serviceId = Props.serviceId(props);
            RankedRegistry.Entry<ToolEntry> was = tools.entry(serviceId);
            RankedRegistry.Snapshot<ToolEntry> before = tools.snapshot();
            add(tools, Kind.TOOLS, props, p -> ToolEntry.from(tool, p, schemas), e -> e.name());
            toolLog.changed(before, tools.snapshot(), names(was, tools.entry(serviceId)));
        }
    }

    public void unbindTool(Map<String, Object> props) {
        synchronized (tools) {
            RankedRegistry.Entry<ToolEntry> was = tools.entry(Props.serviceId(props));
            RankedRegistry.Snapshot<ToolEntry> before = tools.snapshot();
            remove(tools, Kind.TOOLS, props);
            toolLog.changed(before, tools.snapshot(), names(was, null));
        }
    }

    /** The tool names one service had before a change and has after it. */
    private static Set<String> names(RankedRegistry.Entry<ToolEntry> was, RankedRegistry.Entry<ToolEntry> now) {
        Set<String> names = new HashSet<>(2);
        if (was != null) {
            names.add(was.key());
        }
        if (now != null) {
            names.add(now.key());
        }
        return names;
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

    // -------------------------------------------------------------------------------------------

    private <T> void add(RankedRegistry<T> registry, Kind kind, Map<String, Object> props,
            Function<Map<String, Object>, T> reader, Function<T, String> key) {
        long serviceId = Props.serviceId(props);
        T value;
        try {
            value = reader.apply(props);
        } catch (IllegalArgumentException e) {
            long bundleId = Props.number(props, "service.bundleid", -1);
            LOG.warn("Refused service {} of {}: {}", serviceId, toolLog.bundle(bundleId), e.getMessage());
            problems.put(serviceId, new CatalogProblem(serviceId, bundleId, e.getMessage()));
            if (registry.remove(serviceId) && kind != null) {
                fire(kind, true);
            }
            return;
        }
        problems.remove(serviceId);
        if (registry.put(new RankedRegistry.Entry<>(key.apply(value), serviceId, Props.ranking(props), value))
                && kind != null) {
            fire(kind, false);
        }
    }

    private <T> void remove(RankedRegistry<T> registry, Kind kind, Map<String, Object> props) {
        problems.remove(Props.serviceId(props));
        if (registry.remove(Props.serviceId(props)) && kind != null) {
            fire(kind, true);
        }
    }

    private void fire(Kind kind, boolean removed) {
        for (Listener listener : listeners) {
            try {
                listener.changed(kind, removed);
            } catch (RuntimeException e) {
                LOG.warn("A catalog listener failed", e);
            }
        }
    }
}
