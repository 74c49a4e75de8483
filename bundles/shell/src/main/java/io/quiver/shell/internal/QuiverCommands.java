package io.quiver.shell.internal;

import io.quiver.api.CallerIdentity;
import io.quiver.api.operator.McpOperator;
import io.quiver.api.operator.Problem;
import io.quiver.api.operator.ProblemSource;
import io.quiver.api.operator.TransportStatus;
import io.quiver.api.transport.McpEngine;
import io.quiver.lib.config.TypedConfig;
import io.quiver.lib.feature.problems.BundleProblems;
import io.quiver.lib.feature.problems.ComponentProblems;
import java.io.IOException;
import java.time.Duration;
import java.util.Arrays;
import java.util.Dictionary;
import java.util.List;
import java.util.Map;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.framework.InvalidSyntaxException;
import org.osgi.framework.ServiceRegistration;
import org.osgi.service.cm.Configuration;
import org.osgi.service.cm.ConfigurationAdmin;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.osgi.service.component.annotations.ReferencePolicy;
import org.osgi.service.component.annotations.ReferencePolicyOption;
import org.osgi.service.component.runtime.ServiceComponentRuntime;
import org.osgi.service.metatype.annotations.AttributeDefinition;
import org.osgi.service.metatype.annotations.Designate;
import org.osgi.service.metatype.annotations.ObjectClassDefinition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

/**
 * The {@code quiver:*} Gogo commands. Gogo finds this service by its {@code osgi.command.*}
 * properties and calls the methods by name; each returns the text to print. Every reference is
 * optional, so the commands that do not need the engine ({@code problems}, {@code bundles},
 * {@code install}, ...) keep working while the core is broken, which is when they are needed.
 *
 * <p>Arguments with JSON in them must be quoted for Gogo, which reads {@code {...}} as a closure:
 * {@code quiver:call convert_time '{"source_timezone":"UTC","time":"12:00","target_timezone":"Asia/Tokyo"}'}.
 */
@Component(service = QuiverCommands.class, configurationPid = QuiverCommands.PID, property = {
    "osgi.command.scope=quiver",
    "osgi.command.function=tools",
    "osgi.command.function=shadowed",
    "osgi.command.function=sessions",
    "osgi.command.function=transports",
    "osgi.command.function=problems",
    "osgi.command.function=install",
    "osgi.command.function=update",
    "osgi.command.function=uninstall",
    "osgi.command.function=bundles",
    "osgi.command.function=call",
    "osgi.command.function=callin",
    "osgi.command.function=audit"
})
@Designate(ocd = QuiverCommands.Config.class)
public final class QuiverCommands {

    static final String PID = "io.quiver.shell";

    /** Settings of the operator commands. */
    @ObjectClassDefinition(name = "Quiver shell commands", description = "The quiver:* Gogo commands for operators.")
    public @interface Config {
        @AttributeDefinition(description = "How long quiver:call waits for a tool's answer (ms) before it cancels the call")
        long callTimeoutMs() default 120_000;
    }

    private static final String NO_CORE = "The Quiver core is not running (no %s service): see quiver:problems.\n";

    @Reference(cardinality = ReferenceCardinality.OPTIONAL, policy = ReferencePolicy.DYNAMIC,
            policyOption = ReferencePolicyOption.GREEDY)
    private volatile McpOperator operator;

    @Reference(cardinality = ReferenceCardinality.OPTIONAL, policy = ReferencePolicy.DYNAMIC,
            policyOption = ReferencePolicyOption.GREEDY)
    private volatile McpEngine engine;

    @Reference(cardinality = ReferenceCardinality.OPTIONAL, policy = ReferencePolicy.DYNAMIC,
            policyOption = ReferencePolicyOption.GREEDY)
    private volatile ServiceComponentRuntime scr;

    /** Parts of the server reporting problems (configuration values not taken, files refused from deploy/). */
    @Reference(cardinality = ReferenceCardinality.MULTIPLE, policy = ReferencePolicy.DYNAMIC,
            policyOption = ReferencePolicyOption.GREEDY)
    private volatile List<ProblemSource> problemSources;

    /** The transports serving MCP ({@code quiver:transports}). */
    @Reference(cardinality = ReferenceCardinality.MULTIPLE, policy = ReferencePolicy.DYNAMIC,
            policyOption = ReferencePolicyOption.GREEDY)
    private volatile List<TransportStatus> transports;

    /** Where the audit file is: the audit bundle's configuration ({@code quiver:audit}). */
    @Reference(cardinality = ReferenceCardinality.OPTIONAL, policy = ReferencePolicy.DYNAMIC,
            policyOption = ReferencePolicyOption.GREEDY)
    private volatile ConfigurationAdmin configAdmin;

    private static final Logger LOG = LoggerFactory.getLogger(QuiverCommands.class);

    private final BundleContext context;
    /** What is wrong in the shell's settings, listed by quiver:problems (registered: null without a framework). */
    private final ServiceRegistration<ProblemSource> settingsProblems;
    private final List<Problem> wrongSettings;
    private final Duration callTimeout;
    private final ObjectMapper json = JsonMapper.builder().build();
    private final BundleOperations bundleOps;
    private final CatalogReport report;

    @Activate
    public QuiverCommands(BundleContext context, Map<String, Object> properties) {
        // read as every setting is: a wrong value keeps its default (through DS's conversion it failed the component,
        // and every quiver:* command with it), logged and listed
        TypedConfig.Result<Config> read = TypedConfig.read(Config.class, properties, null);
        Config config = read.config();
        this.wrongSettings = read.problems().stream().map(p -> new Problem(p.source(), p.reason())).toList();
        wrongSettings.forEach(p -> LOG.warn("{}", p));
        this.settingsProblems = context == null ? null
                : context.registerService(ProblemSource.class, this::wrongSettings, null);
        this.context = context;
        this.callTimeout = Duration.ofMillis(Math.max(1, config.callTimeoutMs()));
        this.bundleOps = new BundleOperations(context);
        this.report = new CatalogReport(this::bundleName);
    }

    @Deactivate
    void deactivate() {
        try {
            if (settingsProblems != null) {
                settingsProblems.unregister();
            }
        } catch (IllegalStateException e) {
            // gone with the bundle already
        }
    }

    /** What is wrong in the shell's settings. */
    List<Problem> wrongSettings() {
        return wrongSettings;
    }

    /** {@code quiver:tools}: the tools clients see (name, bundle, ranking, service id, description). */
    public String tools() {
        McpOperator op = operator;
        return op == null ? NO_CORE.formatted("McpOperator") : report.tools(op.tools());
    }

    /** {@code quiver:shadowed}: tool services that lost their name to a higher-ranked one. */
    public String shadowed() {
        McpOperator op = operator;
        return op == null ? NO_CORE.formatted("McpOperator") : report.shadowed(op.shadowed(), op.tools());
    }

    /** {@code quiver:sessions}: the open MCP sessions. */
    public String sessions() {
        McpOperator op = operator;
        return op == null ? NO_CORE.formatted("McpOperator") : report.sessions(op.sessions());
    }

    /**
     * {@code quiver:transports}: per transport, the streams open until their clients leave, the bytes held
     * for clients that have not read them, and the call pool's threads and waiting calls (each against its
     * limit).
     */
    public String transports() {
        List<TransportStatus> all = transports;
        return report.transports(all == null ? List.of() : all.stream().map(TransportStatus::status).toList());
    }

    /**
     * {@code quiver:problems}: what the server's parts report (configuration values not taken, files
     * refused from deploy/), tool services the catalog refused, bundles that are installed but not
     * resolved (with the missing requirements), and components that are not satisfied or failed.
     */
    public String problems() {
        StringBuilder out = new StringBuilder();
        int total = 0;

        List<ProblemSource> sources = problemSources;
        List<Problem> reported = sources == null ? List.of()
                : sources.stream().flatMap(s -> s.problems().stream()).toList();
        if (!reported.isEmpty()) {
            Table table = new Table(100, "WHERE", "PROBLEM");
            reported.forEach(p -> table.row(p.subject(), p.reason()));
            out.append("Reported by the server:\n").append(table).append('\n');
            total += reported.size();
        }

        McpOperator op = operator;
        if (op == null) {
            out.append("Catalog: the Quiver core is not running (no McpOperator service).\n\n");
            total++;
        } else if (!op.problems().isEmpty()) {
            out.append("Tool services the catalog refused:\n").append(report.catalogProblems(op.problems())).append('\n');
            total += op.problems().size();
        }

        total += bundleSection(out, "Bundles installed but not resolved", BundleProblems.find(context));
        total += bundleSection(out, "Bundles still starting", BundleProblems.starting(context));

        ServiceComponentRuntime runtime = scr;
        if (runtime == null) {
            out.append("Components: Declarative Services (ServiceComponentRuntime) is not running.\n\n");
            total++;
        } else {
            List<ComponentProblems.Problem> components = ComponentProblems.find(runtime, context);
            if (!components.isEmpty()) {
                Table table = new Table(CatalogReport.CELL, "COMPONENT", "BUNDLE", "STATE", "DETAIL");
                components.forEach(c -> table.row(c.component(), bundleName(c.bundleId()), c.state(), c.detail()));
                out.append("Components not working:\n").append(table).append('\n');
                total += components.size();
            }
        }
        return total == 0 ? "No problems.\n" : out + CatalogReport.count(total, "problem");
    }

    /** A table of bundles with what is wrong with each, under {@code title}; how many. */
    private static int bundleSection(StringBuilder out, String title, List<BundleProblems.Found> found) {
        if (found.isEmpty()) {
            return 0;
        }
        Table table = new Table(CatalogReport.CELL, "BUNDLE", "REASON");
        found.forEach(f -> table.row(f.name(), f.reason()));
        out.append(title).append(":\n").append(table).append('\n');
        return found.size();
    }

    /** {@code quiver:bundles}: every bundle with its state, version and location. */
    public String bundles() {
        return bundleOps.list();
    }

    /** {@code quiver:install <url-or-path>}: installs a bundle and starts it. */
    public String install(String urlOrPath) {
        return bundleOps.install(urlOrPath);
    }

    /** {@code quiver:update <bundle-id-or-name>}: reloads a bundle from its location and refreshes it. */
    public String update(String bundle) {
        return bundleOps.update(bundle);
    }

    /** {@code quiver:uninstall <bundle-id-or-name>}: uninstalls a bundle and refreshes the wiring. */
    public String uninstall(String bundle) {
        return bundleOps.uninstall(bundle);
    }

    /** {@code quiver:call <tool>}: calls a tool without arguments. */
    public String call(String tool) throws InterruptedException {
        return call(tool, "{}");
    }

    /** {@code quiver:call <tool> '<json-object>'}: calls a tool through the engine, as any MCP client does. */
    public String call(String tool, String jsonArguments) throws InterruptedException {
        return call(ShellClient.OPERATOR, tool, jsonArguments);
    }

    /** {@code quiver:callin <tenant>[/<project>] <tool>}: calls a tool of a tenant's (or project's) catalog. */
    public String callin(String place, String tool) throws InterruptedException {
        return callin(place, tool, "{}");
    }

    /** {@code quiver:callin <tenant>[/<project>] <tool> '<json-object>'}: as {@code call}, in that tenant and project. */
    public String callin(String place, String tool, String jsonArguments) throws InterruptedException {
        String[] parts = place.split("/", -1);
        if (parts.length > 2 || Arrays.stream(parts).anyMatch(p -> !CallerIdentity.isPlaceName(p))) {
            return "Not a place: " + place + ". Give a tenant, or a tenant and a project: quiver:callin acme/showcase <tool>\n";
        }
        return call(ShellClient.OPERATOR.in(parts[0], parts.length == 2 ? parts[1] : null), tool, jsonArguments);
    }

    private String call(CallerIdentity caller, String tool, String jsonArguments) throws InterruptedException {
        McpEngine e = engine;
        if (e == null) {
            return NO_CORE.formatted("McpEngine");
        }
        Map<String, Object> arguments;
        try {
            arguments = arguments(jsonArguments);
        } catch (IllegalArgumentException ex) {
            return ex.getMessage() + "\n";
        }
        ShellClient client = new ShellClient(e, json, callTimeout, context.getBundle().getVersion().toString(), caller);
        try {
            return CallReport.format(client.call(tool, arguments), json);
        } catch (ShellClient.CallFailed ex) {
            return ex.getMessage() + "\n";
        }
    }

    /** {@code quiver:audit}: the last 20 lines of the audit file. */
    public String audit() {
        return audit(20);
    }

    /** {@code quiver:audit <n>}: the last n lines of the audit file (one JSON object per call). */
    public String audit(int lines) {
        ConfigurationAdmin cm = configAdmin;
        Dictionary<String, Object> config = null;
        if (cm != null) {
            try {
                // listConfigurations, not getConfiguration: that one would create an empty configuration
                Configuration[] found = cm.listConfigurations("(service.pid=" + AuditTail.PID + ")");
                config = found == null || found.length == 0 ? null : found[0].getProperties();
            } catch (IOException | InvalidSyntaxException e) {
                return "Configuration Admin cannot tell where the audit file is: " + e.getMessage() + "\n";
            }
        }
        return AuditTail.report(config, lines);
    }

    @SuppressWarnings("unchecked")
    Map<String, Object> arguments(String text) {
        JsonNode node;
        try {
            node = json.readTree(text == null || text.isBlank() ? "{}" : text);
        } catch (JacksonException ex) {
            throw new IllegalArgumentException("The arguments are not JSON: " + ex.getOriginalMessage()
                    + "\nGive one JSON object in single quotes: quiver:call <tool> '{\"name\":\"value\"}'");
        }
        if (!node.isObject()) {
            throw new IllegalArgumentException("The arguments must be one JSON object, in single quotes: "
                    + "quiver:call <tool> '{\"name\":\"value\"}'");
        }
        return json.treeToValue(node, Map.class);
    }

    private String bundleName(long id) {
        Bundle bundle = context.getBundle(id);
        if (bundle == null) {
            return id < 0 ? "?" : id + " (gone)";
        }
        String name = bundle.getSymbolicName();
        return id + " " + (name == null ? bundle.getLocation() : name);
    }
}
