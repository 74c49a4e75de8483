package io.quiver.core.internal.wiring;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class HostBundlesTest {

    @Test
    void onlyTheNamedBundlesMayProvideTheHostChannel() {
        assertTrue(HostBundles.allowed("io.quiver.host", HostBundles.BRIDGE));
        assertFalse(HostBundles.allowed("com.example.tools", HostBundles.BRIDGE));
        assertFalse(HostBundles.allowed("io.quiver.host.evil", HostBundles.BRIDGE), "a name, not a prefix");
        assertTrue(HostBundles.allowed("PAXEXAM-PROBE-1234", "io.quiver.host, PAXEXAM-PROBE-*"));
        assertFalse(HostBundles.allowed("io.quiver.host", ""), "an empty list allows no bundle");
    }
}
