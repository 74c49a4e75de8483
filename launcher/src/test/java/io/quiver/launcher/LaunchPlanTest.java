package io.quiver.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.quiver.lib.feature.ArtifactId;
import io.quiver.lib.feature.Feature;
import io.quiver.lib.feature.FeatureBundle;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LaunchPlanTest {

    private static FeatureBundle bundle(String id, int order) {
        return new FeatureBundle(ArtifactId.parse(id), order);
    }

    @Test
    void startOrderThenFeatureOrderThenFileOrder() {
        Feature core = new Feature("core", "q:core:1",
                List.of(bundle("g:scr:1", 4), bundle("g:lib:1", 1), bundle("g:engine:1", 10)), Map.of());
        Feature http = new Feature("http", "q:http:1",
                List.of(bundle("g:api:1", 1), bundle("g:jetty:1", 4), bundle("g:lib:1", 20)), Map.of());
        LaunchPlan plan = LaunchPlan.of(List.of(core, http));
        assertEquals(List.of("g:lib:1", "g:api:1", "g:scr:1", "g:jetty:1", "g:engine:1"),
                plan.bundles().stream().map(s -> s.id().toString()).toList());
        assertEquals("core", plan.bundles().get(0).feature());
    }

    @Test
    void aBundleNamedTwiceStartsAtItsLowestOrder() {
        Feature a = new Feature("a", "q:a:1", List.of(bundle("g:x:1", 30)), Map.of());
        Feature b = new Feature("b", "q:b:1", List.of(bundle("g:y:1", 10), bundle("g:x:1", 5)), Map.of());
        LaunchPlan plan = LaunchPlan.of(List.of(a, b));
        assertEquals(List.of(new LaunchPlan.Step(ArtifactId.parse("g:x:1"), 5, "a"),
                new LaunchPlan.Step(ArtifactId.parse("g:y:1"), 10, "b")), plan.bundles());
    }

    @Test
    void aLaterFeatureReplacesAConfiguration() {
        Feature a = new Feature("a", "q:a:1", List.of(), Map.of("p", Map.of("k", "a", "only", "a"), "q", Map.of("k", "a")));
        Feature b = new Feature("b", "q:b:1", List.of(), Map.of("p", Map.of("k", "b")));
        LaunchPlan plan = LaunchPlan.of(List.of(a, b));
        assertEquals(Map.of("k", "b"), plan.configurations().get("p"));
        assertEquals(Map.of("k", "a"), plan.configurations().get("q"));
    }
}
