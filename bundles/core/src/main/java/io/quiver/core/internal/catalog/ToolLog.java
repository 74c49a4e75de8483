package io.quiver.core.internal.catalog;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
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

    /** Logs what one change did to the given tool names (those of the service before and after it). */
    void changed(RankedRegistry.Snapshot<ToolEntry> before, RankedRegistry.Snapshot<ToolEntry> after, Set<String> names) {
        if (LOG.isInfoEnabled() && !quiet.getAsBoolean()) {
            describe(before, after, names).forEach(LOG::info);
        }
    }

    /** The lines a change gives, in name order, looking at every name. */
    List<String> describe(RankedRegistry.Snapshot<ToolEntry> before, RankedRegistry.Snapshot<ToolEntry> after) {
        Set<String> names = new TreeSet<>(before.winners().keySet());
        names.addAll(after.winners().keySet());
        before.shadowed().forEach(e -> names.add(e.key()));
        after.shadowed().forEach(e -> names.add(e.key()));
        return describe(before, after, names);
    }

    /**
     * The lines a change gives for the given names, in name order: only they are looked at, so one
     * tool coming or going costs the same in a catalog of ten tools or ten thousand.
     */
    List<String> describe(RankedRegistry.Snapshot<ToolEntry> before, RankedRegistry.Snapshot<ToolEntry> after,
            Set<String> names) {
        List<String> sorted = new ArrayList<>(names);
        sorted.sort(null);
        List<RankedRegistry.Entry<ToolEntry>> shadowedBefore = only(before.shadowed(), names);
        List<RankedRegistry.Entry<ToolEntry>> shadowedAfter = only(after.shadowed(), names);
        Set<Long> wasShadowed = ids(shadowedBefore);
        Set<Long> isShadowed = ids(shadowedAfter);
        Set<Long> wonBefore = new HashSet<>();
        Set<Long> winsAfter = new HashSet<>();
        for (String name : sorted) {
            RankedRegistry.Entry<ToolEntry> was = before.winners().get(name);
            RankedRegistry.Entry<ToolEntry> now = after.winners().get(name);
            if (was != null) {
                wonBefore.add(was.serviceId());
            }
            if (now != null) {
                winsAfter.add(now.serviceId());
            }
        }
        List<String> lines = new ArrayList<>();
        for (String name : sorted) {
            RankedRegistry.Entry<ToolEntry> now = after.winners().get(name);
            if (now == null) {
                continue;
            }
            RankedRegistry.Entry<ToolEntry> was = before.winners().get(name);
            if (was == null) {
                lines.add(wasShadowed.contains(now.serviceId())
                        ? "Tool " + now.key() + " of " + of(now) + " promoted: the tool that shadowed it is gone"
                        : "Tool " + now.key() + " added (" + of(now) + ")");
            } else if (was.serviceId() != now.serviceId()) {
                lines.add(wasShadowed.contains(now.serviceId())
                        ? "Tool " + now.key() + " of " + of(now) + " promoted: the one of " + of(was) + " is gone"
                        : "Tool " + now.key() + " of " + of(now) + " (ranking " + now.ranking() + ") shadows the one of "
                                + of(was) + " (ranking " + was.ranking() + ")");
            } else if (!was.value().equals(now.value())) {
                lines.add("Tool " + now.key() + " updated (" + of(now) + ")");
            }
        }
        for (String name : sorted) {
            RankedRegistry.Entry<ToolEntry> was = before.winners().get(name);
            if (was != null && after.winners().get(name) == null) {
                lines.add("Tool " + was.key() + " removed (" + of(was) + ")");
            }
        }
        for (RankedRegistry.Entry<ToolEntry> entry : shadowedAfter) {
            if (!wasShadowed.contains(entry.serviceId()) && !wonBefore.contains(entry.serviceId())) {
                RankedRegistry.Entry<ToolEntry> winner = after.winners().get(entry.key());
                lines.add("Tool " + entry.key() + " of " + of(entry) + " (ranking " + entry.ranking()
                        + ") is shadowed by the one of " + of(winner) + " (ranking " + winner.ranking() + ")");
            }
        }
        for (RankedRegistry.Entry<ToolEntry> entry : shadowedBefore) {
            if (!isShadowed.contains(entry.serviceId()) && !winsAfter.contains(entry.serviceId())) {
                lines.add("Tool " + entry.key() + " of " + of(entry) + " removed (it was shadowed)");
            }
        }
        return lines;
    }

    private String of(RankedRegistry.Entry<ToolEntry> entry) {
        return bundles.apply(entry.value().bundleId());
    }

    private static List<RankedRegistry.Entry<ToolEntry>> only(List<RankedRegistry.Entry<ToolEntry>> entries,
            Set<String> names) {
        List<RankedRegistry.Entry<ToolEntry>> kept = new ArrayList<>();
        for (RankedRegistry.Entry<ToolEntry> entry : entries) {
            if (names.contains(entry.key())) {
                kept.add(entry);
            }
        }
        return kept;
    }

    private static Set<Long> ids(List<RankedRegistry.Entry<ToolEntry>> entries) {
        Set<Long> ids = new HashSet<>();
        entries.forEach(e -> ids.add(e.serviceId()));
        return ids;
    }
}
