package io.quiver.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quiver.lib.feature.Feature;
import io.quiver.lib.feature.FeatureBundle;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The features the build embeds (target/classes/features) and the bundles it embeds agree. */
class EmbeddedFeaturesTest {

    private final FeatureCatalog catalog = FeatureCatalog.embedded();

    @Test
    void theFeaturesAreEmbedded() {
        assertTrue(catalog.available().containsAll(List.of("conformance", "core", "http", "stdio", "tools-default")),
                () -> "available: " + catalog.available());
    }

    @Test
    void everyBundleOfEveryFeatureIsEmbedded() throws Exception {
        BundleRepository embeddedOnly = new BundleRepository(getClass().getClassLoader(), null);
        List<String> missing = new ArrayList<>();
        for (String name : catalog.available()) {
            Feature feature = catalog.load(name);
            assertEquals("io.quiver:feature-" + name + ":" + FrameworkProperties.version("quiver.version"), feature.id());
            for (FeatureBundle b : feature.bundles()) {
                if (embeddedOnly.find(b.id()).isEmpty()) {
                    missing.add(name + ": " + b.id());
                }
            }
        }
        assertEquals(List.of(), missing, "bundles named by a feature but not in the launcher's bundles/ (add them to launcher/pom.xml)");
    }

    @Test
    void coreHasTheServicesTheLauncherReliesOn() throws Exception {
        List<String> ids = catalog.load("core").bundles().stream().map(b -> b.id().artifactId()).toList();
        assertTrue(ids.containsAll(List.of("org.apache.felix.configadmin", "org.apache.felix.fileinstall",
                "org.apache.felix.scr", "org.osgi.service.component", "api", "core")), ids::toString);
    }

    @Test
    void coreComesFirstWhateverIsAsked() throws Exception {
        assertEquals(List.of("core", "http"), catalog.load(List.of("http")).stream().map(Feature::name).toList());
    }

    @Test
    void unknownFeatureNamesTheAvailableOnes() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> catalog.load("nope"));
        assertTrue(e.getMessage().contains("available: admin, conformance, core, host, http, shell, stdio, tools-default"),
                e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> catalog.load("../etc/passwd"));
        assertThrows(IllegalArgumentException.class, () -> catalog.load("/no/such/feature.json"));
    }
}
