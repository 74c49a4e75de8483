package io.quiver.tools.admin.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quiver.lib.config.TypedConfig;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ProtectedBundlesTest {

    private final ProtectedBundles some = new ProtectedBundles(new String[] {"io.quiver.api", "io.quiver.core",
        "io.quiver.transport.*", "io.quiver.shell", "io.quiver.tools.admin", "org.apache.felix.*", " "});

    @Test
    void exactNamesAndPrefixes() {
        assertTrue(some.matches("io.quiver.core"));
        assertTrue(some.matches("io.quiver.transport.http"));
        assertTrue(some.matches("org.apache.felix.scr"));
        assertFalse(some.matches("io.quiver.core.extra"));
        assertFalse(some.matches("io.quiver.tools.time"));
        assertFalse(some.matches(""));
        assertFalse(some.matches(null));
        assertFalse(new ProtectedBundles(null).matches("io.quiver.core"));
    }

    @Test
    void byDefaultTheTrustBoundaryIsProtectedToo() throws Exception {
        // an admin who uninstalled the permissions bundle opened every tool, the admin tools included, to everyone
        ProtectedBundles defaults = new ProtectedBundles((String[]) AdminConfig.class.getMethod("protectedBundles")
                .getDefaultValue());
        for (String name : List.of("io.quiver.permissions", "io.quiver.auth.jwt", "io.quiver.auth.apikeys",
                "io.quiver.audit", "io.quiver.core", "io.quiver.transport.http", "io.quiver.tools.admin")) {
            assertTrue(defaults.matches(name), name);
        }
        assertFalse(defaults.matches("io.quiver.tools.time"));
    }

    /**
     * A typo in a guard's setting keeps the guard: read through Declarative Services' conversion,
     * {@code protectFeatureBundles = yes} was false, and bundle_uninstall removed a feature's bundle.
     */
    @Test
    void aWrongValueKeepsTheGuardAndIsSaid() {
        TypedConfig.Result<AdminConfig> read = TypedConfig.read(AdminConfig.class, Map.of("protectFeatureBundles", "yes"),
                null);
        assertTrue(read.config().protectFeatureBundles());
        assertEquals(1, read.problems().size(), read.problems()::toString);
        assertTrue(read.problems().get(0).reason().startsWith("protectFeatureBundles = yes is not"), read.problems()::toString);
    }
}
