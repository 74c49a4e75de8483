package io.quiver.tools.admin.internal;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ProtectedBundlesTest {

    private final ProtectedBundles defaults = new ProtectedBundles(new String[] {"io.quiver.api", "io.quiver.core",
        "io.quiver.transport.*", "io.quiver.shell", "io.quiver.tools.admin", "org.apache.felix.*", " "});

    @Test
    void exactNamesAndPrefixes() {
        assertTrue(defaults.matches("io.quiver.core"));
        assertTrue(defaults.matches("io.quiver.transport.http"));
        assertTrue(defaults.matches("org.apache.felix.scr"));
        assertFalse(defaults.matches("io.quiver.core.extra"));
        assertFalse(defaults.matches("io.quiver.tools.time"));
        assertFalse(defaults.matches(""));
        assertFalse(defaults.matches(null));
        assertFalse(new ProtectedBundles(null).matches("io.quiver.core"));
    }
}
