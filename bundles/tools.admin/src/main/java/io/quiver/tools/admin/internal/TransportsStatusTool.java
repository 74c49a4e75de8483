package io.quiver.tools.admin.internal;

import java.util.List;
import java.util.Map;

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
import io.quiver.api.operator.TransportInfo;
import io.quiver.api.operator.TransportStatus;
import io.quiver.api.schema.Description;

/**
 * {@code transports_status}: what each transport holds now, as {@code quiver:transports} shows it: the
 * streams open until their clients leave, the bytes held for clients that have not read them, and the
 * call pool. Read-only.
 */
@Component(service = Tool.class)
@McpTool(name = "transports_status",
        title = "Show what the transports hold",
        description = "Shows, for each transport serving MCP, what it holds now against its limits: the streams that "
                + "stay open until their clients leave (maxStreams), the bytes of answers and events kept for clients "
                + "that have not read them (maxUnsentBytesTotal), and the call pool for blocking tool calls (threads, "
                + "how many run a call, calls waiting; maxCallThreads, maxQueuedCalls).",
        output = TransportsStatusTool.Transports.class,
        readOnlyHint = true, destructiveHint = false, idempotentHint = false, openWorldHint = false)
public final class TransportsStatusTool implements Tool {

    /** One transport. */
    public record Entry(@Description("The transport: http") String name,
            @Description("Streams open until their clients leave (session GET streams, listen streams)") int openStreams,
            @Description("The most of them") int maxStreams,
            @Description("Bytes held for clients that have not read them yet") long unsentBytes,
            @Description("The most all connections together may hold") long maxUnsentBytes,
            @Description("Threads of the call pool, running or idle") int callThreads,
            @Description("Of those, the ones running a call") int busyCallThreads,
            @Description("The most the call pool grows to") int maxCallThreads,
            @Description("Calls waiting for a call thread") int queuedCalls,
            @Description("The most that may wait") int maxQueuedCalls,
            @Description("Threads still in calls answered without them (tools that ignored their timeout), which gave"
                    + " their place to new threads") int stuckCallThreads) {

        static Entry of(TransportInfo t) {
            return new Entry(t.name(), t.openStreams(), t.maxStreams(), t.unsentBytes(), t.maxUnsentBytes(),
                    t.callThreads(), t.busyCallThreads(), t.maxCallThreads(), t.queuedCalls(), t.maxQueuedCalls(),
                    t.stuckCallThreads());
        }
    }

    /** What {@code transports_status} returns as structured content. */
    public record Transports(@Description("The transports running") List<Entry> transports) {
    }

    @Reference(cardinality = ReferenceCardinality.MULTIPLE, policy = ReferencePolicy.DYNAMIC,
            policyOption = ReferencePolicyOption.GREEDY)
    private volatile List<TransportStatus> transports;

    @Override
    public Outcome call(ToolCall call) {
        List<TransportStatus> all = transports;
        List<Entry> entries = (all == null ? List.<TransportStatus>of() : all).stream()
                .map(t -> Entry.of(t.status())).toList();
        StringBuilder text = new StringBuilder();
        for (Entry e : entries) {
            text.append(e.name()).append(": ").append(e.openStreams()).append(" of ").append(e.maxStreams())
                    .append(" streams open, ").append(e.unsentBytes()).append(" of ").append(e.maxUnsentBytes())
                    .append(" bytes unread by clients, call threads ").append(e.callThreads()).append(" (")
                    .append(e.busyCallThreads()).append(" busy, at most ").append(e.maxCallThreads()).append("), ")
                    .append(e.queuedCalls()).append(" of ").append(e.maxQueuedCalls()).append(" calls waiting");
            if (e.stuckCallThreads() > 0) {
                text.append(", ").append(e.stuckCallThreads())
                        .append(" call threads stuck in calls that timed out (their tools ignore interrupts)");
            }
            text.append('\n');
        }
        if (entries.isEmpty()) {
            text.append("No transport is running.");
        }
        return Outcome.done(new ToolResult(List.of(new TextContent(text.toString().strip())), new Transports(entries),
                false, Map.of()));
    }
}
