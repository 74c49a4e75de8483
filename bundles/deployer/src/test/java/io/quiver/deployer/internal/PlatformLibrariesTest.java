package io.quiver.deployer.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class PlatformLibrariesTest {

    private static final String LAUNCHER = "com.fasterxml.jackson.core.jackson-annotations;version=2.23.0"
            + ";maven=com.fasterxml.jackson.core:jackson-annotations:2.23,"
            + "tools.jackson.core.jackson-databind;version=3.3.0;maven=tools.jackson.core:jackson-databind:3.3.0";

    @Test
    void theLaunchersPropertyNamesEachLibraryByBundleAndByMavenCoordinates() {
        PlatformLibraries libraries = new PlatformLibraries(LAUNCHER);
        assertEquals("3.3.0", libraries.bySymbolicName("tools.jackson.core.jackson-databind").orElseThrow().version());
        assertEquals("2.23.0", libraries.bySymbolicName("com.fasterxml.jackson.core.jackson-annotations").orElseThrow()
                .version());
        assertTrue(libraries.provides("tools.jackson.core", "jackson-databind", "3.3.0"));
        assertTrue(libraries.provides("com.fasterxml.jackson.core", "jackson-annotations", "2.23"));
    }

    @Test
    void anotherVersionOrNameIsNotThePlatforms() {
        PlatformLibraries libraries = new PlatformLibraries(LAUNCHER);
        assertFalse(libraries.provides("tools.jackson.core", "jackson-databind", "3.2.0"));
        assertFalse(libraries.provides("tools.jackson.core", "jackson-core", "3.3.0"));
        assertTrue(libraries.bySymbolicName("tools.jackson.core.jackson-core").isEmpty());
        assertTrue(libraries.bySymbolicName("tools.jackson.core").isEmpty());
    }

    @Test
    void withoutThePropertyNothingIsTheClassPaths() {
        PlatformLibraries none = new PlatformLibraries(null);
        assertTrue(none.bySymbolicName("tools.jackson.core.jackson-databind").isEmpty());
        assertFalse(none.provides("tools.jackson.core", "jackson-databind", "3.3.0"));
        assertTrue(new PlatformLibraries("").bySymbolicName("").isEmpty());
    }
}
