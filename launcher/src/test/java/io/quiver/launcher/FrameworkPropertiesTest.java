package io.quiver.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quiver.lib.feature.platform.PlatformLibraries;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FrameworkPropertiesTest {

    @TempDir
    Path home;

    private Map<String, Object> of(Map<String, String> given) {
        return of(given, SharedLibraries.NONE);
    }

    private Map<String, Object> of(Map<String, String> given, SharedLibraries shared) {
        LaunchSettings d = LaunchSettings.defaults();
        LaunchSettings settings = new LaunchSettings(d.features(), 0, d.bind(), home.resolve("etc"),
                home.resolve("deploy"), null, given, d.startTimeout(), true);
        return FrameworkProperties.of(settings, new Storage(home.resolve("data"), true),
                new DirectoryWatch(settings.etc(), settings.deploy()), shared);
    }

    @Test
    void eventAdminRunsASmallPoolUnlessTheStartSaysOtherwise() {
        assertEquals("4", of(Map.of()).get(FrameworkProperties.EVENT_ADMIN_THREADS));
        assertEquals("12", of(Map.of(FrameworkProperties.EVENT_ADMIN_THREADS, "12"))
                .get(FrameworkProperties.EVENT_ADMIN_THREADS));
    }

    @Test
    void theBundlesTheClassPathStandsInForAreNamedToTheBundles() {
        SharedLibraries shared = SharedLibraries.find(getClass().getClassLoader(),
                new BundleRepository(getClass().getClassLoader(), null));
        Map<String, Object> p = of(Map.of(), shared);
        assertEquals(shared.libraries().format(), p.get(PlatformLibraries.PROPERTY));
        assertTrue(p.get("org.osgi.framework.system.packages.extra").toString().endsWith(shared.exports()));
        assertFalse(of(Map.of()).containsKey(PlatformLibraries.PROPERTY), "nothing shared, nothing named");
    }

    /** Felix HTTP's own file in etc/ (HTTPS, say): Jetty waits for it and starts once, not on plain HTTP first. */
    @Test
    void felixHttpWaitsForItsConfigurationOnlyWhenEtcHasOne() throws Exception {
        Path etc = Files.createDirectories(home.resolve("etc"));
        assertFalse(of(Map.of()).containsKey(FrameworkProperties.HTTP_REQUIRE_CONFIG));

        Files.writeString(etc.resolve("org.apache.felix.http.config"), "org.apache.felix.https.enable=B\"true\"\n");
        assertEquals("true", of(Map.of()).get(FrameworkProperties.HTTP_REQUIRE_CONFIG), "the typed .config form");
        assertEquals(etc.resolve("org.apache.felix.http.config"), FrameworkProperties.httpConfiguration(etc));

        Files.delete(etc.resolve("org.apache.felix.http.config"));
        Files.writeString(etc.resolve("org.apache.felix.http.cfg"), "org.apache.felix.https.enable=true\n");
        assertEquals("true", of(Map.of()).get(FrameworkProperties.HTTP_REQUIRE_CONFIG));
        assertEquals("false", of(Map.of(FrameworkProperties.HTTP_REQUIRE_CONFIG, "false"))
                .get(FrameworkProperties.HTTP_REQUIRE_CONFIG), "what the start says wins");

        Files.writeString(etc.resolve("org.apache.felix.http.jetty.cfg"), "x=1\n");
        Files.delete(etc.resolve("org.apache.felix.http.cfg"));
        assertFalse(of(Map.of()).containsKey(FrameworkProperties.HTTP_REQUIRE_CONFIG), "another PID is not Felix HTTP's");
    }
}
