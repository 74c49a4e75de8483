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
        return FrameworkProperties.of(settings, Storage.temporaryAt(home.resolve("data")),
                new DirectoryWatch(settings.etc(), settings.deploy()), shared);
    }

    /** A storage template's jars are hard links to the storage's: the file tools keep out of both. */
    @Test
    void theFolderOfStorageTemplatesIsPrivateBesideTheApplicationsOwn() {
        Path templates = home.resolve("templates");
        Path own = home.resolve("records");
        System.setProperty(StorageTemplate.PROPERTY, templates.toString());
        try {
            Map<String, Object> p = of(Map.of(Quiver.PRIVATE_FOLDERS, own.toString()));
            assertEquals(own + java.io.File.pathSeparator + templates, p.get(Quiver.PRIVATE_FOLDERS));
        } finally {
            System.clearProperty(StorageTemplate.PROPERTY);
        }
        assertFalse(of(Map.of()).containsKey(Quiver.PRIVATE_FOLDERS), "no templates, nothing private");
    }

    /** The engine allows nothing until the permissions bundle's policy is in, and it nothing until etc/'s grants are. */
    @Test
    void thePolicyIsRequiredAndTheGrantFilesOfEtcAreCounted() throws Exception {
        Path etc = Files.createDirectories(home.resolve("etc"));
        assertEquals("true", of(Map.of()).get(FrameworkProperties.POLICY_REQUIRED));
        assertFalse(of(Map.of()).containsKey(FrameworkProperties.GRANTS), "no grant file, nothing to wait for");
        Files.writeString(etc.resolve("io.quiver.permissions.grant-devs.cfg"), "roles = dev\nallow = tool:*\n");
        Files.writeString(etc.resolve("io.quiver.permissions.grant-ops.config"), "roles=\"ops\"\n");
        Files.writeString(etc.resolve("io.quiver.permissions.grant-old.cfg.bak"), "");
        Files.writeString(etc.resolve("io.quiver.permissions.cfg"), "");
        Files.createDirectory(etc.resolve("io.quiver.permissions.grant-folder.cfg"));
        Files.createSymbolicLink(etc.resolve("io.quiver.permissions.grant-broken.cfg"), etc.resolve("nowhere"));
        assertEquals("2", of(Map.of()).get(FrameworkProperties.GRANTS), "files that become configurations only");
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

    /** The port the start checks is free: --port, the file's own, or none when the file turns plain HTTP off. */
    @Test
    void thePlainPortToCheckFollowsFelixHttpsFile() throws Exception {
        Path etc = Files.createDirectories(home.resolve("etc"));
        assertEquals(7711, FrameworkProperties.plainHttpPort(etc, 7711), "no file: --port");

        Files.writeString(etc.resolve("org.apache.felix.http.cfg"), "org.apache.felix.https.enable = true\n");
        assertEquals(7711, FrameworkProperties.plainHttpPort(etc, 7711), "HTTPS beside plain HTTP on --port");

        Files.writeString(etc.resolve("org.apache.felix.http.cfg"), "org.apache.felix.http.enable = false\n");
        assertEquals(-1, FrameworkProperties.plainHttpPort(etc, 7711), "HTTPS alone: no plain port");

        Files.writeString(etc.resolve("org.apache.felix.http.cfg"), "org.osgi.service.http.port = 8080\n");
        assertEquals(8080, FrameworkProperties.plainHttpPort(etc, 7711), "the file's own port");

        Files.delete(etc.resolve("org.apache.felix.http.cfg"));
        Files.writeString(etc.resolve("org.apache.felix.http.config"),
                "org.apache.felix.http.enable=B\"false\"\norg.apache.felix.https.enable=B\"true\"\n");
        assertEquals(-1, FrameworkProperties.plainHttpPort(etc, 7711), "the typed form");
        Files.writeString(etc.resolve("org.apache.felix.http.config"), "org.osgi.service.http.port=I\"9090\"\n");
        assertEquals(9090, FrameworkProperties.plainHttpPort(etc, 7711), "a typed port");
    }
}
