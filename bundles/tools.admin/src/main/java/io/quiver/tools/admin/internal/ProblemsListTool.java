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
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.osgi.service.component.annotations.ReferencePolicy;
import org.osgi.service.component.annotations.ReferencePolicyOption;

/**
 * {@code problems_list}: what the server's parts report for the operator to fix (configuration values
 * not taken, files refused from deploy/, tool services the catalog refused), as {@code quiver:problems}
 * shows them. Read-only.
 */
@Component(service = Tool.class)
@McpTool(name = "problems_list",
        title = "List server problems",
        description = "Lists what this Quiver server reports for its operator to fix: configuration values it did "
                + "not take (and the value it keeps instead), files in deploy/ it refused or that failed, tool services "
                + "it refused (an invalid schema, say), and why. "
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
        StringBuilder text = new StringBuilder();
        problems.forEach(p -> text.append(p).append('\n'));
        text.append(problems.isEmpty() ? "No problems." : problems.size() + " problem(s)");
        List<Entry> entries = problems.stream().map(p -> new Entry(p.subject(), p.reason())).toList();
        return Outcome.done(new ToolResult(List.of(new TextContent(text.toString())), new ProblemList(entries), false,
                Map.of()));
    }
}
