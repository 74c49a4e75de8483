package io.quiver.launcher;

import io.quiver.lib.feature.ArtifactId;
import io.quiver.lib.feature.Feature;
import io.quiver.lib.feature.FeatureBundle;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What to install and configure for a list of features: every bundle once (the lowest start-order
 * wins), sorted by start-order, then feature order, then file order; configurations merged (a
 * later feature's PID replaces an earlier one's).
 */
public record LaunchPlan(List<Step> bundles, Map<String, Map<String, Object>> configurations) {

    /** One bundle to install and start, and the feature that asked for it first. */
    public record Step(ArtifactId id, int startOrder, String feature) {
    }

    public LaunchPlan {
        bundles = List.copyOf(bundles);
        configurations = Collections.unmodifiableMap(new LinkedHashMap<>(configurations));
    }

    public static LaunchPlan of(List<Feature> features) {
        Map<String, Step> byId = new LinkedHashMap<>();
        Map<String, Map<String, Object>> configurations = new LinkedHashMap<>();
        for (Feature feature : features) {
            for (FeatureBundle bundle : feature.bundles()) {
                Step step = new Step(bundle.id(), bundle.startOrder(), feature.name());
                byId.merge(bundle.id().toString(), step,
                        (first, again) -> again.startOrder() < first.startOrder()
                                ? new Step(first.id(), again.startOrder(), first.feature()) : first);
            }
            configurations.putAll(feature.configurations());
        }
        List<Step> ordered = new ArrayList<>(byId.values());
        // List.sort is stable: equal start-orders keep feature order, then file order
        ordered.sort(Comparator.comparingInt(Step::startOrder));
        return new LaunchPlan(ordered, configurations);
    }
}
