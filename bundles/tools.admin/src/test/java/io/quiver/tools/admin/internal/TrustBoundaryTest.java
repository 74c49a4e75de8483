package io.quiver.tools.admin.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.jar.Attributes;
import java.util.jar.Manifest;
import org.junit.jupiter.api.Test;

class TrustBoundaryTest {

    @Test
    void anOrdinaryToolBundleReachesNothing() {
        assertEquals(List.of(), TrustBoundary.reached(manifest("Import-Package",
                "io.quiver.api;version=\"[1.2,2)\",io.quiver.api.content;version=\"[1.0,2)\",org.slf4j;version=\"[2.0,3)\"")));
    }

    @Test
    void importsOfTheGuardedPackagesAreFound() {
        List<String> reached = TrustBoundary.reached(manifest("Import-Package",
                "io.quiver.api;version=\"[1.2,2)\",io.quiver.api.auth;version=\"[1.0,2)\","
                        + "org.osgi.service.cm;resolution:=optional;version=\"[1.6,2)\""));
        assertEquals(2, reached.size(), reached.toString());
        assertTrue(reached.get(0).startsWith("io.quiver.api.auth"), reached.toString());
        assertTrue(reached.get(1).startsWith("org.osgi.service.cm"), reached.toString());
    }

    @Test
    void severalPackagesInOneClauseAndQuotedCommasAreRead() {
        assertEquals(1, TrustBoundary.reached(manifest("Import-Package",
                "io.quiver.api;io.quiver.api.call;version=\"[1.0,2)\",x;version=\"1,2\"")).size());
    }

    @Test
    void wildcardDynamicImportsAndRequireBundleAreFound() {
        assertEquals(3, TrustBoundary.reached(manifest("DynamicImport-Package", "*")).size());
        assertEquals(2, TrustBoundary.reached(manifest("DynamicImport-Package", "io.quiver.*")).size());
        assertEquals(0, TrustBoundary.reached(manifest("DynamicImport-Package", "com.example.*")).size());
        assertEquals(1, TrustBoundary.reached(manifest("Require-Bundle", "io.quiver.api;bundle-version=\"1.0\"")).size());
    }

    private static Manifest manifest(String header, String value) {
        Manifest m = new Manifest();
        m.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        m.getMainAttributes().putValue(header, value);
        return m;
    }
}
