package io.quiver.api.operator;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class BundleStateTest {

    @Test
    void namesTheOsgiStateValues() {
        // org.osgi.framework.Bundle: INSTALLED 0x02, RESOLVED 0x04, ACTIVE 0x20
        assertEquals("INSTALLED", BundleState.name(2));
        assertEquals("RESOLVED", BundleState.name(4));
        assertEquals("ACTIVE", BundleState.name(32));
        assertEquals("64", BundleState.name(64));
    }
}
