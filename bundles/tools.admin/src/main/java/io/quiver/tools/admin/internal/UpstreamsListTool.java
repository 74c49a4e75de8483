package io.quiver.tools.admin.internal;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.osgi.service.component.annotations.ReferencePolicy;
import org.osgi.service.component.annotations.ReferencePolicyOption;

import io.quiver.api.McpTool;
import io.quiver.api.Outcome;
import io.quiver.api.Tool;
import io.quiver.api.ToolCall;
import io.quiver.api.ToolResult;
import io.quiver.api.content.TextContent;
import io.quiver.api.operator.UpstreamDirectory;
import io.quiver.api.operator.UpstreamInfo;
import io.quiver.api.schema.Description;

/**
 * {@code upstreams_list}: the upstream MCP servers of {@code etc/mcp-servers.json}, as
 * {@code quiver:upstreams} shows them; with {@code name}, one server and the tail of its stderr.
 * Read-only.
 */
@Component(service = Tool.class)
@McpTool(name = "upstreams_list",
        title = "List upstream MCP servers",
        description = "Lists the upstream MCP servers this Quiver server runs (declared in etc/mcp-servers.json and "
                + "etc/*.mcp.json): each one's state (starting, ready, backing-off, failed, stopped), how many tools it "
                + "lists (and how many prompts and resources), its restarts, its process id or URL, the MCP revision agreed with it and its last error. "
                + "Give a name to also get the last lines it wrote on stderr.",
        arguments = UpstreamsListTool.Arguments.class,
        output = UpstreamsListTool.UpstreamList.class,
        readOnlyHint = true, destructiveHint = false, idempotentHint = true, openWorldHint = false)
public final class UpstreamsListTool implements Tool {

    /** The arguments. */
    public record Arguments(@Description("One server's name: its stderr tail is included") Optional<String> name) {
    }

    /** One server. */
    public record Entry(@Description("Its name in mcpServers") String name,
            @Description("stdio, http, or shared (a server the host application owns, when Quiver is embedded)") String kind,
            @Description("starting, ready, backing-off, failed or stopped") String state,
            @Description("The child's process id or the URL") String connection,
            @Description("The MCP revision agreed with it (absent while it is not connected)") Optional<String> protocol,
            @Description("How many of its tools are listed") int tools,
            @Description("How many of its prompts are listed") int prompts,
            @Description("How many of its resources and resource templates are listed") int resources,
            @Description("How many times it was started again after a failure") long restarts,
            @Description("Why it last failed or stopped, if it did") Optional<String> lastError,
            @Description("The file that declares it") String declaredIn,
            @Description("Its last stderr lines (only when asked for by name)") Optional<List<String>> stderrTail) {
    }

    /** What {@code upstreams_list} returns as structured content. */
    public record UpstreamList(@Description("The servers, by name") List<Entry> upstreams) {
    }

    @Reference(cardinality = ReferenceCardinality.OPTIONAL, policy = ReferencePolicy.DYNAMIC,
            policyOption = ReferencePolicyOption.GREEDY)
    private volatile UpstreamDirectory directory;

    @Override
    public Outcome call(ToolCall call) {
        String name = call.arguments(Arguments.class).name().orElse(null);
        UpstreamDirectory d = directory;
        List<UpstreamInfo> all = d == null ? List.of() : d.upstreams();
        List<Entry> entries = all.stream().filter(u -> name == null || name.equals(u.name()))
                .map(u -> new Entry(u.name(), u.kind(), u.state(), u.connection(), Optional.ofNullable(u.protocol()),
                        u.tools(), u.prompts(), u.resources(), u.restarts(),
                        Optional.ofNullable(u.lastError()), u.declaredIn(),
                        name == null ? Optional.empty() : Optional.of(u.stderrTail())))
                .toList();
        if (name != null && entries.isEmpty()) {
            return Outcome.done(ToolResult.error("No upstream server " + name + "."));
        }
        StringBuilder text = new StringBuilder();
        for (Entry e : entries) {
            text.append(e.name()).append(" (").append(e.kind()).append("): ").append(e.state()).append(", ")
                    .append(e.tools()).append(" tools, ");
            if (e.prompts() + e.resources() > 0) {
                text.append(e.prompts()).append(" prompts, ").append(e.resources()).append(" resources, ");
            }
            text.append(e.restarts()).append(" restarts, ").append(e.connection());
            e.protocol().ifPresent(protocol -> text.append(", protocol ").append(protocol));
            e.lastError().ifPresent(error -> text.append("; last error: ").append(error));
            text.append('\n');
            e.stderrTail().ifPresent(tail -> tail.forEach(line -> text.append("  ").append(line).append('\n')));
        }
        if (entries.isEmpty()) {
            text.append(d == null ? "The upstream bundle is not running." : "No upstream servers are declared.");
        }
        return Outcome.done(new ToolResult(List.of(new TextContent(text.toString().strip())), new UpstreamList(entries),
                false, Map.of()));
    }
}
