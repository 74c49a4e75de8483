package io.quiver.core.internal.catalog;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.BooleanSupplier;
import java.util.function.LongFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The tool lifecycle in the operator's log: what one change of the tool registry did (a tool added,
 * updated, removed, shadowed or promoted), one INFO line each, naming the bundle and its version.
 */
final class ToolLog {

    private static final Logger LOG = LoggerFactory.getLogger("io.quiver.catalog");

    private final LongFunction<String> bundles;
    private final BooleanSupplier quiet;

    /**
     * @param bundles a bundle's label (symbolic name and version) by bundle id
     * @param quiet whether to log nothing now (the server is stopping: every tool goes)
     */
    ToolLog(LongFunction<String> bundles, BooleanSupplier quiet) {
        this.bundles = bundles;
        this.quiet = quiet;
    }

    String bundle(long id) {
        return bundles.apply(id);
    }

    /**
     * Logs what one change did to the given tool names (those of the service before and after it) in
     * one scope's registry.
     *
     * @param where how the scope is named at the end of each line (empty for the global one)
     */
    void changed(RankedRegistry.Snapshot<ToolEntry> before, RankedRegistry.Snapshot<ToolEntry> after, Set<String> names,
            String where) {
        if (LOG.isInfoEnabled() && !quiet.getAsBoolean()) {
            describe(before, after, names).forEach(line -> LOG.info("{}{}", line, where));
        }
    }

    /**
     * The lines a change gives for the given names: {@link #describe(RankedRegistry.Snapshot,
     * RankedRegistry.Snapshot)} of the snapshots cut down to them, so one tool coming or going costs
     * the same in a catalog of ten tools or ten thousand.
     */
    List<String> describe(RankedRegistry.Snapshot<ToolEntry> before, RankedRegistry.Snapshot<ToolEntry> after,
            Set<String> names) {
        return describe(only(before, names), only(after, names));
    }

    /** The lines one change gives, in name order. */
    List<String> describe(RankedRegistry.Snapshot<ToolEntry> before, RankedRegistry.Snapshot<ToolEntry> after) {
        List<String> lines = new ArrayList<>();
        Map<Long, RankedRegistry.Entry<ToolEntry>> shadowedBefore = byId(before.shadowed());
        Map<Long, RankedRegistry.Entry<ToolEntry>> shadowedAfter = byId(after.shadowed());
        for (RankedRegistry.Entry<ToolEntry> now : after.winners().values()) {
            RankedRegistry.Entry<ToolEntry> was = before.winners().get(now.key());
            if (was == null) {
                lines.add(shadowedBefore.containsKey(now.serviceId())
                        ? "Tool " + now.key() + " of " + of(now) + " promoted: the tool that shadowed it is gone"
                        : "Tool " + now.key() + " added (" + of(now) + ")");
            } else if (was.serviceId() != now.serviceId()) {
                lines.add(shadowedBefore.containsKey(now.serviceId())
                        ? "Tool " + now.key() + " of " + of(now) + " promoted: the one of " + of(was) + " is gone"
                        : "Tool " + now.key() + " of " + of(now) + " (ranking " + now.ranking() + ") shadows the one of "
                                + of(was) + " (ranking " + was.ranking() + ")");
            } else if (!was.value().equals(now.value())) {
                lines.add("Tool " + now.key() + " updated (" + of(now) + ")");
            }
        }
        for (RankedRegistry.Entry<ToolEntry> was : before.winners().values()) {
            RankedRegistry.Entry<ToolEntry> now = after.winners().get(was.key());
            if (now == null) {
                lines.add("Tool " + was.key() + " removed (" + of(was) + ")");
            }
        }
        for (RankedRegistry.Entry<ToolEntry> entry : after.shadowed()) {
            if (!shadowedBefore.containsKey(entry.serviceId())
                    && !before.winners().values().stream().anyMatch(w -> w.serviceId() == entry.serviceId())) {
                RankedRegistry.Entry<ToolEntry> winner = after.winners().get(entry.key());
                lines.add("Tool " + entry.key() + " of " + of(entry) + " (ranking " + entry.ranking()
                        + ") is shadowed by the one of " + of(winner) + " (ranking " + winner.ranking() + ")");
            }
        }
        for (RankedRegistry.Entry<ToolEntry> entry : before.shadowed()) {
            if (!shadowedAfter.containsKey(entry.serviceId())
                    && !after.winners().values().stream().anyMatch(w -> w.serviceId() == entry.serviceId())) {
                lines.add("Tool " + entry.key() + " of " + of(entry) + " removed (it was shadowed)");
            }
        }
        return lines;
    }

    private String of(RankedRegistry.Entry<ToolEntry> entry) {
        return bundles.apply(entry.value().bundleId());
    }

    private static RankedRegistry.Snapshot<ToolEntry> only(RankedRegistry.Snapshot<ToolEntry> snapshot,
            Set<String> names) {
        TreeMap<String, RankedRegistry.Entry<ToolEntry>> winners = new TreeMap<>();
        for (String name : names) {
            RankedRegistry.Entry<ToolEntry> winner = snapshot.winners().get(name);
            if (winner != null) {
                winners.put(name, winner);
            }
        }
        List<RankedRegistry.Entry<ToolEntry>> shadowed = snapshot.shadowed().stream()
                .filter(e -> names.contains(e.key())).toList();
        return new RankedRegistry.Snapshot<>(snapshot.version(), winners, shadowed);
    }

    private static Map<Long, RankedRegistry.Entry<ToolEntry>> byId(List<RankedRegistry.Entry<ToolEntry>> entries) {
        Map<Long, RankedRegistry.Entry<ToolEntry>> map = new HashMap<>();
        entries.forEach(e -> map.put(e.serviceId(), e));
        return map;
    }
}
