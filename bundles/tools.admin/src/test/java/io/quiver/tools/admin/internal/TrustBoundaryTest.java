package io.quiver.tools.admin.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.jar.Attributes;
import java.util.jar.Manifest;
import org.junit.jupiter.api.Test;

class TrustBoundaryTest {

    @Test
    void anOrdinaryToolBundleReachesNothing() {
        assertEquals(List.of(), reached(manifest("Import-Package",
                "io.quiver.api;version=\"[1.2,2)\",io.quiver.api.content;version=\"[1.0,2)\",org.slf4j;version=\"[2.0,3)\"")));
    }

    @Test
    void importsOfTheGuardedPackagesAreFound() {
        List<String> reached = reached(manifest("Import-Package",
                "io.quiver.api;version=\"[1.2,2)\",io.quiver.api.auth;version=\"[1.0,2)\","
                        + "org.osgi.service.cm;resolution:=optional;version=\"[1.6,2)\""));
        assertEquals(2, reached.size(), reached.toString());
        assertTrue(reached.get(0).startsWith("io.quiver.api.auth"), reached.toString());
        assertTrue(reached.get(1).startsWith("org.osgi.service.cm"), reached.toString());
    }

    @Test
    void severalPackagesInOneClauseAndQuotedCommasAreRead() {
        assertEquals(1, reached(manifest("Import-Package",
                "io.quiver.api;io.quiver.api.call;version=\"[1.0,2)\",x;version=\"1,2\"")).size());
    }

    @Test
    void wildcardDynamicImportsAndRequireBundleAreFound() {
        assertEquals(3, reached(manifest("DynamicImport-Package", "*")).size());
        assertEquals(2, reached(manifest("DynamicImport-Package", "io.quiver.*")).size());
        assertEquals(0, reached(manifest("DynamicImport-Package", "com.example.*")).size());
        assertEquals(1, reached(manifest("Require-Bundle", "io.quiver.api;bundle-version=\"1.0\"")).size());
    }

    /**
     * Require-Bundle reaches what the bundles it names export, also through the bundles they require; a fragment
     * reaches what its host does; a name not installed, or the framework as a host, counts as reaching the boundary.
     * Found by an attack: Require-Bundle of Configuration Admin let an admin plant an operator's API key.
     */
    @Test
    void requireBundleAndFragmentHostReachWhatTheBundlesTheyNameGive() {
        Map<String, List<Map<String, String>>> bundles = Map.of(
                "org.apache.felix.configadmin", List.of(Map.of("Export-Package",
                        "org.apache.felix.cm;version=\"1.2\",org.osgi.service.cm;uses:=\"org.osgi.framework\";version=\"1.6\"",
                        TrustBoundary.BUNDLE_ID, "7")),
                "com.example.wrapper", List.of(Map.of("Require-Bundle", "org.apache.felix.configadmin;visibility:=reexport",
                        TrustBoundary.BUNDLE_ID, "8")),
                "io.quiver.core", List.of(Map.of("Import-Package", "io.quiver.api,io.quiver.api.call;version=\"[1.4,2)\"",
                        TrustBoundary.BUNDLE_ID, "9")),
                "com.example.tools", List.of(Map.of("Import-Package", "io.quiver.api", "Export-Package", "com.example.tools",
                        TrustBoundary.BUNDLE_ID, "10")),
                "org.apache.felix.framework", List.of(Map.of("Export-Package", "org.osgi.framework;version=\"1.10\"",
                        TrustBoundary.BUNDLE_ID, "0")),
                "system.bundle", List.of(Map.of("Export-Package", "org.osgi.framework;version=\"1.10\"",
                        TrustBoundary.BUNDLE_ID, "0")));
        Function<String, List<Map<String, String>>> installed = name -> bundles.getOrDefault(name, List.of());
        assertEquals(List.of("org.osgi.service.cm (Require-Bundle org.apache.felix.configadmin)"),
                TrustBoundary.reached(manifest("Require-Bundle", "org.apache.felix.configadmin"), installed));
        assertEquals(List.of("org.osgi.service.cm (Require-Bundle org.apache.felix.configadmin) (Require-Bundle com.example.wrapper)"),
                TrustBoundary.reached(manifest("Require-Bundle", "com.example.wrapper;bundle-version=1.0"), installed));
        assertEquals(List.of("io.quiver.api.call (Import-Package) (Fragment-Host io.quiver.core)"),
                TrustBoundary.reached(manifest("Fragment-Host", "io.quiver.core;bundle-version=\"[0,1)\""), installed));
        assertEquals(List.of("org.osgi.service.cm (Fragment-Host org.apache.felix.configadmin)"),
                TrustBoundary.reached(manifest("Fragment-Host", "org.apache.felix.configadmin"), installed));
        assertEquals(List.of("every package (a framework extension) (Fragment-Host system.bundle)"),
                TrustBoundary.reached(manifest("Fragment-Host", "system.bundle;extension:=framework"), installed));
        assertEquals(1, TrustBoundary.reached(manifest("Fragment-Host", "org.apache.felix.framework"), installed).size());
        assertEquals(List.of("what com.example.later would export (it is not installed) (Require-Bundle com.example.later)"),
                TrustBoundary.reached(manifest("Require-Bundle", "com.example.later"), installed));
        assertEquals(List.of(), TrustBoundary.reached(manifest("Require-Bundle", "com.example.tools,system.bundle"), installed),
                "bundles that export none of them");
        assertEquals(List.of(), TrustBoundary.reached(manifest("Fragment-Host", "com.example.tools"), installed));
    }

    /**
     * Exporting a guarded package or one of Quiver's own reaches the boundary: a later version of the API exported by
     * an admin's bundle would be wired to the engine and the authenticators at the next resolution (a restart).
     */
    @Test
    void exportsOfGuardedOrQuiverPackagesAreFound() {
        assertEquals(List.of("io.quiver.api.call (Export-Package)"), reached(manifest("Export-Package",
                "io.quiver.api.call;version=\"1.99\",com.example.tools;version=1.0")));
        assertEquals(List.of("org.osgi.service.cm (Export-Package)"), reached(manifest("Export-Package",
                "org.osgi.service.cm;version=\"1.9\"")));
        assertEquals(List.of("io.quiver.core.internal.engine (Export-Package)"), reached(manifest("Export-Package",
                "io.quiver.core.internal.engine")));
        assertEquals(List.of(), reached(manifest("Export-Package", "com.example.tools;uses:=\"io.quiver.api\"")));
    }

    /** Nothing installed: any bundle a header names counts as reaching the boundary. */
    private static List<String> reached(Manifest manifest) {
        return TrustBoundary.reached(manifest, name -> List.of());
    }

    private static Manifest manifest(String header, String value) {
        Manifest m = new Manifest();
        m.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        m.getMainAttributes().putValue(header, value);
        return m;
    }
}
