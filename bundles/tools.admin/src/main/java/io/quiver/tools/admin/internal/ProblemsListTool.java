package io.quiver.tools.admin.internal;

import io.quiver.api.McpTool;
import io.quiver.api.Outcome;
import io.quiver.api.Tool;
import io.quiver.api.ToolCall;
import io.quiver.api.ToolResult;
import io.quiver.api.content.TextContent;
import io.quiver.api.operator.McpOperator;
import io.quiver.api.operator.Problem;
import io.quiver.api.operator.ProblemSource;
import io.quiver.api.schema.Description;
import io.quiver.lib.feature.problems.BundleProblems;
import io.quiver.lib.feature.problems.ComponentProblems;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.osgi.service.component.annotations.ReferencePolicy;
import org.osgi.service.component.annotations.ReferencePolicyOption;
import org.osgi.service.component.runtime.ServiceComponentRuntime;

/**
 * {@code problems_list}: what the server's parts report for the operator to fix (configuration values
 * not taken, files refused from deploy/, tool services the catalog refused, bundles that did not resolve,
 * components that do not work), as {@code quiver:problems} shows them. Read-only.
 */
@Component(service = Tool.class)
@McpTool(name = "problems_list",
        title = "List server problems",
        description = "Lists what this Quiver server reports for its operator to fix: configuration values it did "
                + "not take (and the value it keeps instead), files in deploy/ it refused or that failed, tool services "
                + "it refused (an invalid schema, say), bundles that did not resolve, components that failed (and "
                + "those of bundles installed while it runs that wait for a service or configuration), and why. "
                + "Each stays listed until its cause is fixed.",
        output = ProblemsListTool.ProblemList.class,
        readOnlyHint = true, destructiveHint = false, idempotentHint = true, openWorldHint = false)
public final class ProblemsListTool implements Tool {

    /** One problem. */
    public record Entry(@Description("What it is about: a file, a configuration") String subject,
            @Description("What is wrong, and what the server does meanwhile") String reason) {
    }

    /** What {@code problems_list} returns as structured content. */
    public record ProblemList(@Description("The problems, empty when there are none") List<Entry> problems) {
    }

    @Reference(cardinality = ReferenceCardinality.MULTIPLE, policy = ReferencePolicy.DYNAMIC,
            policyOption = ReferencePolicyOption.GREEDY)
    private volatile List<ProblemSource> sources;

    @Reference(cardinality = ReferenceCardinality.OPTIONAL, policy = ReferencePolicy.DYNAMIC,
            policyOption = ReferencePolicyOption.GREEDY)
    private volatile McpOperator operator;

    @Reference(cardinality = ReferenceCardinality.OPTIONAL, policy = ReferencePolicy.DYNAMIC,
            policyOption = ReferencePolicyOption.GREEDY)
    private volatile ServiceComponentRuntime components;

    private final BundleContext context;

    @Activate
    public ProblemsListTool(BundleContext context) {
        this.context = context;
    }

    /**
     * Whether a bundle came after the start (deploy/, bundle_install): the platform's own components may wait for a
     * service or configuration by design (the API key authenticator until a key file exists); a failed one is
     * listed wherever it is.
     */
    private boolean installedAtRunTime(long bundleId) {
        Bundle bundle = context.getBundle(bundleId);
        return bundle != null && bundleId != 0
                && !bundle.getLocation().startsWith(BundleUninstallTool.FEATURE_LOCATION_PREFIX);
    }

    /** The file URLs (bundle locations) of the problems about files, such as those deploy/ reports. */
    private static Set<String> filesTold(List<Problem> problems) {
        Set<String> files = new HashSet<>();
        for (Problem p : problems) {
            try {
                Path file = Path.of(p.subject());
                if (file.isAbsolute()) {
                    files.add(file.toUri().toString());
                }
            } catch (InvalidPathException e) {
                // not a file
            }
        }
        return files;
    }

    @Override
    public Outcome call(ToolCall call) {
        List<ProblemSource> now = sources;
        List<Problem> problems = new ArrayList<>();
        if (now != null) {
            now.forEach(s -> problems.addAll(s.problems()));
        }
        McpOperator op = operator;
        if (op != null) {
            op.problems().forEach(p -> problems.add(new Problem("tool service " + p.serviceId() + " of bundle "
                    + p.bundleId(), "refused by the catalog: " + p.reason())));
        }
        // a tool bundle that does not resolve, or whose component failed, has no tools to list: say why
        try {
            Set<String> told = filesTold(problems);
            Stream.concat(BundleProblems.find(context).stream().map(u -> new BundleProblems.Found(u.name(), u.location(),
                            "installed but not resolved: " + u.reason())), BundleProblems.starting(context).stream())
                    .filter(f -> !told.contains(f.location())) // deploy/ told of its file already
                    .forEach(f -> problems.add(new Problem("bundle " + f.name(), f.reason())));
        } catch (IllegalStateException e) {
            // the framework is stopping
        }
        ServiceComponentRuntime scr = components;
        if (scr != null) {
            for (ComponentProblems.Problem c : ComponentProblems.find(scr, context)) {
                if (c.failed() || installedAtRunTime(c.bundleId())) {
                    problems.add(new Problem("component " + c.component() + " of bundle " + c.bundleId(),
                            c.state() + ": " + c.detail()));
                }
            }
        }
        StringBuilder text = new StringBuilder();
        problems.forEach(p -> text.append(p).append('\n'));
        text.append(problems.isEmpty() ? "No problems." : problems.size() + " problem(s)");
        List<Entry> entries = problems.stream().map(p -> new Entry(p.subject(), p.reason())).toList();
        return Outcome.done(new ToolResult(List.of(new TextContent(text.toString())), new ProblemList(entries), false,
                Map.of()));
    }
}
