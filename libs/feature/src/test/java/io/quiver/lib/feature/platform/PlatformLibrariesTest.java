package io.quiver.lib.feature.platform;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class PlatformLibrariesTest {

    private static final String LAUNCHER = "com.fasterxml.jackson.core.jackson-annotations;version=2.23.0"
            + ";maven=com.fasterxml.jackson.core:jackson-annotations:2.23,"
            + "tools.jackson.core.jackson-databind;version=3.3.0;maven=tools.jackson.core:jackson-databind:3.3.0";

    @Test
    void theLaunchersPropertyNamesEachLibraryByBundleAndByMavenCoordinates() {
        PlatformLibraries libraries = PlatformLibraries.parse(LAUNCHER);
        assertEquals("3.3.0", libraries.bySymbolicName("tools.jackson.core.jackson-databind").orElseThrow().version());
        assertEquals("2.23.0", libraries.bySymbolicName("com.fasterxml.jackson.core.jackson-annotations").orElseThrow()
                .version());
        assertTrue(libraries.provides("tools.jackson.core:jackson-databind:3.3.0"));
        assertTrue(libraries.provides("com.fasterxml.jackson.core:jackson-annotations:2.23"));
    }

    @Test
    void whatTheLauncherWritesReadsBack() {
        PlatformLibraries written = new PlatformLibraries(List.of(new PlatformLibraries.Library(
                "tools.jackson.core.jackson-databind", "3.3.0", "tools.jackson.core:jackson-databind:3.3.0")));
        assertEquals("tools.jackson.core.jackson-databind;version=3.3.0;maven=tools.jackson.core:jackson-databind:3.3.0",
                written.format());
        assertEquals(LAUNCHER, PlatformLibraries.parse(LAUNCHER).format());
        assertEquals("", PlatformLibraries.NONE.format());
    }

    @Test
    void anotherVersionOrNameIsNotThePlatforms() {
        PlatformLibraries libraries = PlatformLibraries.parse(LAUNCHER);
        assertFalse(libraries.provides("tools.jackson.core:jackson-databind:3.2.0"));
        assertFalse(libraries.provides("tools.jackson.core:jackson-core:3.3.0"));
        assertFalse(libraries.provides("tools.jackson.core:jackson-databind:sources:3.3.0"));
        assertTrue(libraries.bySymbolicName("tools.jackson.core.jackson-core").isEmpty());
        assertTrue(libraries.bySymbolicName("tools.jackson.core").isEmpty());
    }

    @Test
    void withoutThePropertyNothingIsTheClassPaths() {
        PlatformLibraries none = PlatformLibraries.parse(null);
        assertTrue(none.isEmpty());
        assertTrue(none.bySymbolicName("tools.jackson.core.jackson-databind").isEmpty());
        assertFalse(none.provides("tools.jackson.core:jackson-databind:3.3.0"));
        assertTrue(PlatformLibraries.parse("").bySymbolicName("").isEmpty());
        assertTrue(PlatformLibraries.parse("x;version=1;maven=not-coordinates,y").isEmpty(), "not the launcher's entries");
    }
}
