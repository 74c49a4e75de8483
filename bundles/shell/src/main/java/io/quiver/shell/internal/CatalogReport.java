package io.quiver.shell.internal;

import io.quiver.api.operator.CatalogEntry;
import io.quiver.api.operator.CatalogProblem;
import io.quiver.api.operator.SessionInfo;
import io.quiver.api.operator.TransportInfo;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.LongFunction;
import java.util.stream.Collectors;

/** What {@code quiver:tools}, {@code quiver:shadowed}, {@code quiver:sessions} and {@code quiver:transports} print. */
final class CatalogReport {

    /** Width at which a cell other than the last is cut. */
    static final int CELL = 48;

    private final LongFunction<String> bundleName;

    /** @param bundleName the label of a bundle id ({@code 12 io.quiver.tools.time}) */
    CatalogReport(LongFunction<String> bundleName) {
        this.bundleName = bundleName;
    }

    String tools(List<CatalogEntry> tools) {
        if (tools.isEmpty()) {
            return "No tools.\n";
        }
        // the scope column only where some tool is for a tenant or project alone
        if (tools.stream().allMatch(t -> t.scope().isEmpty())) {
            Table table = new Table(CELL, "NAME", "BUNDLE", "RANKING", "SERVICE", "DESCRIPTION");
            for (CatalogEntry tool : tools) {
                table.row(tool.name(), bundleName.apply(tool.bundleId()), tool.ranking(), tool.serviceId(),
                        tool.description());
            }
            return table + count(tools.size(), "tool");
        }
        Table table = new Table(CELL, "SCOPE", "NAME", "BUNDLE", "RANKING", "SERVICE", "DESCRIPTION");
        for (CatalogEntry tool : tools) {
            table.row(scope(tool), tool.name(), bundleName.apply(tool.bundleId()), tool.ranking(), tool.serviceId(),
                    tool.description());
        }
        return table + count(tools.size(), "tool")
                + "SCOPE: who sees the tool (every tenant, one tenant, or tenant/project); a project's tool shadows its"
                + " tenant's of the same name, which shadows one for every tenant.\n";
    }

    String shadowed(List<CatalogEntry> shadowed, List<CatalogEntry> winners) {
        if (shadowed.isEmpty()) {
            return "No shadowed tools: every tool name has one service.\n";
        }
        Map<String, CatalogEntry> byName = winners.stream()
                .collect(Collectors.toMap(w -> w.scope() + " " + w.name(), Function.identity(), (a, b) -> a));
        Table table = new Table(CELL, "NAME", "BUNDLE", "RANKING", "SERVICE", "SHADOWED BY");
        for (CatalogEntry loser : shadowed) {
            CatalogEntry winner = byName.get(loser.scope() + " " + loser.name());
            table.row(loser.name(), bundleName.apply(loser.bundleId()), loser.ranking(), loser.serviceId(),
                    winner == null ? "?" : "service " + winner.serviceId() + " (ranking " + winner.ranking()
                            + ", bundle " + bundleName.apply(winner.bundleId()) + ")");
        }
        return table + count(shadowed.size(), "shadowed tool")
                + "The highest service.ranking wins a name, then the lowest service.id; a shadowed tool"
                + " takes over when the winner goes.\n";
    }

    private static String scope(CatalogEntry entry) {
        return entry.scope().isEmpty() ? "(every tenant)" : entry.scope();
    }

    /** One row per transport: its lasting streams, the bytes its clients have not read, its call pool. */
    String transports(List<TransportInfo> transports) {
        if (transports.isEmpty()) {
            return "No transport is running.\n";
        }
        Table table = new Table(CELL, "TRANSPORT", "STREAMS", "UNREAD BYTES", "CALL THREADS (BUSY)", "QUEUED CALLS",
                "STUCK");
        for (TransportInfo t : transports) {
            table.row(t.name(), t.openStreams() + " / " + t.maxStreams(), t.unsentBytes() + " / " + t.maxUnsentBytes(),
                    t.callThreads() + " (" + t.busyCallThreads() + ") / " + t.maxCallThreads(),
                    t.queuedCalls() + " / " + t.maxQueuedCalls(), String.valueOf(t.stuckCallThreads()));
        }
        return table.toString();
    }

    String sessions(List<SessionInfo> sessions) {
        if (sessions.isEmpty()) {
            return "No open sessions.\n";
        }
        Table table = new Table(CELL, "ID", "PROTOCOL", "CALLER", "STREAM", "IN FLIGHT", "IDLE", "CLIENT");
        for (SessionInfo s : sessions) {
            table.row(s.id(), s.protocolVersion(), s.caller(), s.streamOpen() ? "open" : "-",
                    s.requestsInFlight(), idle(s.idleMillis()), s.client());
        }
        return table + count(sessions.size(), "session");
    }

    String catalogProblems(List<CatalogProblem> problems) {
        Table table = new Table(CELL, "SERVICE", "BUNDLE", "REASON");
        for (CatalogProblem p : problems) {
            table.row(p.serviceId(), bundleName.apply(p.bundleId()), p.reason());
        }
        return table.toString();
    }

    static String idle(long millis) {
        Duration d = Duration.ofMillis(Math.max(0, millis));
        if (d.toHours() > 0) {
            return d.toHours() + "h" + d.toMinutesPart() + "m";
        }
        if (d.toMinutes() > 0) {
            return d.toMinutes() + "m" + d.toSecondsPart() + "s";
        }
        return d.toSeconds() + "s";
    }

    static String count(int n, String noun) {
        return n + " " + noun + (n == 1 ? "" : "s") + "\n";
    }
}
