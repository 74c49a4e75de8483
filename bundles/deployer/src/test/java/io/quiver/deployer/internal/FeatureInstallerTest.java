package io.quiver.deployer.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Dictionary;
import java.util.HashMap;
import java.util.Hashtable;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.osgi.framework.Bundle;

/** Feature files in deploy/ on a real framework, with the storage kept between runs as {@code --data} keeps it. */
class FeatureInstallerTest {

    @TempDir
    Path dir;

    private final Map<String, Dictionary<String, Object>> configurations = new HashMap<>();
    private final DeployProblems problems = new DeployProblems();

    private Path deploy() {
        return dir.resolve("deploy");
    }

    private Framework framework() throws Exception {
        return new Framework(dir.resolve("storage"), deploy());
    }

    private FeatureInstaller installer(Framework framework) {
        return new FeatureInstaller(framework.context(), Framework.configurationAdmin(configurations), problems,
                Map.of("mavenRepositories", dir.resolve("repo").toString()));
    }

    /** A feature file naming bundles {@code com.example:<artifact>:1.0} (jars in deploy/bundles/), with configurations. */
    private File feature(String file, String id, String configurations, String... artifacts) throws Exception {
        StringBuilder bundles = new StringBuilder();
        for (String a : artifacts) {
            bundles.append(bundles.length() == 0 ? "" : ",").append("{\"id\":\"com.example:").append(a).append(":1.0\"}");
        }
        Path path = deploy().resolve(file);
        Files.createDirectories(path.getParent());
        Files.writeString(path, "{\"feature-resource-version\":\"1.0\",\"id\":\"" + id + "\",\"bundles\":[" + bundles
                + "],\"configurations\":{" + configurations + "}}");
        return path.toFile();
    }

    private void bundleJar(String artifact, String symbolicName, String... headers) throws Exception {
        Path jar = deploy().resolve("bundles/" + artifact + "-1.0.jar");
        Files.createDirectories(jar.getParent());
        Files.write(jar, Framework.jar(symbolicName, "1.0", headers));
    }

    private static Dictionary<String, Object> properties(String... pairs) {
        Hashtable<String, Object> p = new Hashtable<>();
        for (int i = 0; i < pairs.length; i += 2) {
            p.put(pairs[i], pairs[i + 1]);
        }
        return p;
    }

    @Test
    void aConfigurationFromEtcWinsAndOnlyWhatTheFeatureCreatedIsDeleted() throws Exception {
        configurations.put("io.quiver.tools.files", properties("roots", "/srv/safe",
                FeatureInstaller.FILENAME, "file:/srv/quiver/etc/io.quiver.tools.files.cfg"));
        configurations.put("io.quiver.other", properties("x", "before"));
        try (Framework framework = framework()) {
            FeatureInstaller installer = installer(framework);
            File file = feature("f.json", "com.example:f:1.0", "\"io.quiver.tools.files\":{\"roots\":\"/\"},"
                    + "\"io.quiver.other\":{\"x\":\"feature\"},\"io.quiver.created\":{\"y\":\"feature\"}");
            installer.install(file);
            assertEquals("/srv/safe", configurations.get("io.quiver.tools.files").get("roots"), "etc/ wins");
            assertEquals("feature", configurations.get("io.quiver.other").get("x"));
            assertEquals("feature", configurations.get("io.quiver.created").get("y"));
            assertTrue(problems.problems().toString().contains("io.quiver.tools.files is not applied"),
                    problems.problems()::toString);

            Files.delete(file.toPath());
            installer.uninstall(file);
            assertNotNull(configurations.get("io.quiver.tools.files"), "a configuration from etc/ is never deleted");
            assertEquals("/srv/safe", configurations.get("io.quiver.tools.files").get("roots"));
            assertEquals("before", configurations.get("io.quiver.other").get("x"), "a replaced one is restored");
            assertNull(configurations.get("io.quiver.created"), "the one the feature created goes with it");
        }
    }

    /**
     * A changed setting of io.quiver.deployer applies in place: activated again, the installer forgot what the
     * installed features had replaced (their removal then restored nothing), and FileInstall handed every feature file
     * over once more.
     */
    @Test
    void aChangedSettingAppliesToTheNextFeatureAndWhatAnInstalledOneReplacedIsStillRestored() throws Exception {
        configurations.put("io.quiver.other", properties("x", "before"));
        try (Framework framework = framework()) {
            FeatureInstaller installer = installer(framework);
            bundleJar("lib", "test.lib");
            File first = feature("f.json", "com.example:f:1.0", "\"io.quiver.other\":{\"x\":\"feature\"}", "lib");
            installer.install(first);
            assertEquals("feature", configurations.get("io.quiver.other").get("x"));

            installer.modified(Map.of("mavenRepositories", dir.resolve("repo").toString(), "maxFileBytes", 10L));
            bundleJar("big", "test.big");
            installer.install(feature("g.json", "com.example:g:1.0", "", "big"));
            assertTrue(problems.problems().toString().contains("more than maxFileBytes (10)"), problems.problems()::toString);

            Files.delete(first.toPath());
            installer.uninstall(first);
            assertEquals("before", configurations.get("io.quiver.other").get("x"), "what the feature replaced is restored");
        }
        try (java.io.InputStream xml = getClass().getClassLoader()
                .getResourceAsStream("OSGI-INF/io.quiver.deployer.internal.FeatureInstaller.xml")) {
            assertNotNull(xml, "the component description bnd generates");
            assertTrue(new String(xml.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8)
                    .contains("modified=\"modified\""), "Declarative Services calls modified, not a new activation");
        }
    }

    @Test
    void aFeatureCannotBringASecondCopyOfAPlatformBundle() throws Exception {
        bundleJar("evil", "io.quiver.api");
        try (Framework framework = framework()) {
            framework.context().installBundle("quiver:io.quiver:api:0.1.0",
                    new ByteArrayInputStream(Framework.jar("io.quiver.api", "0.1.0")));
            FeatureInstaller installer = installer(framework);
            File file = feature("f.json", "com.example:f:1.0", "\"io.quiver.x\":{\"a\":\"b\"}", "evil");
            installer.install(file);
            long copies = java.util.Arrays.stream(framework.context().getBundles())
                    .filter(b -> "io.quiver.api".equals(b.getSymbolicName())).count();
            assertEquals(1, copies);
            assertTrue(problems.problems().toString().contains("io.quiver.api, which the running platform already holds"),
                    problems.problems()::toString);
            assertNull(configurations.get("io.quiver.x"), "nothing of a refused feature is applied");
        }
    }

    @Test
    void aFeatureFileDeletedAfterARestartTakesItsBundlesAndConfigurations() throws Exception {
        bundleJar("a", "test.a");
        File f = feature("f.json", "com.example:f:1.0", "\"io.quiver.f\":{\"a\":\"b\"}", "a");
        try (Framework framework = framework()) {
            installer(framework).install(f);
            assertEquals(Bundle.ACTIVE, framework.bundle("test.a").getState());
        }
        try (Framework framework = framework()) {
            FeatureInstaller installer = installer(framework); // FileInstall installs nothing again: unchanged
            assertNotNull(framework.bundle("test.a"), "a feature file still there keeps its bundles");
            Files.delete(f.toPath());
            installer.uninstall(f);
            assertNull(framework.bundle("test.a"));
            assertNull(configurations.get("io.quiver.f"));
        }
    }

    @Test
    void aFeatureFileDeletedWhileTheServerWasStoppedTakesItsBundlesAtTheNextStart() throws Exception {
        bundleJar("a", "test.a");
        File f = feature("f.json", "com.example:f:1.0", "\"io.quiver.f\":{\"a\":\"b\"}", "a");
        try (Framework framework = framework()) {
            installer(framework).install(f);
        }
        Files.delete(f.toPath());
        try (Framework framework = framework()) {
            installer(framework);
            assertNull(framework.bundle("test.a"));
            assertNull(configurations.get("io.quiver.f"));
        }
    }

    @Test
    void aBundleTwoFeaturesNameStaysUntilBothAreGone() throws Exception {
        bundleJar("a", "test.a");
        File f = feature("f.json", "com.example:f:1.0", "", "a");
        File g = feature("g.json", "com.example:g:1.0", "", "a");
        try (Framework framework = framework()) {
            FeatureInstaller installer = installer(framework);
            installer.install(f);
            installer.install(g);
            Files.delete(f.toPath());
            installer.uninstall(f);
            assertNotNull(framework.bundle("test.a"), "g still names it");
            Files.delete(g.toPath());
            installer.uninstall(g);
            assertNull(framework.bundle("test.a"));
        }
    }

    @Test
    void anInstallThatFailsHalfwayTakesBackWhatItDid() throws Exception {
        bundleJar("a", "test.a");
        bundleJar("bad", "test.bad", "Import-Package", "org.osgi.framework,org.osgi.framework");
        configurations.put("io.quiver.other", properties("x", "before"));
        File f = feature("f.json", "com.example:f:1.0",
                "\"io.quiver.created\":{\"y\":\"z\"},\"io.quiver.other\":{\"x\":\"feature\"}", "a", "bad");
        try (Framework framework = framework()) {
            installer(framework).install(f);
            assertTrue(problems.problems().toString().contains("refused"), problems.problems()::toString);
            assertNull(framework.bundle("test.a"), "the bundle installed before the failure is uninstalled");
            assertNull(configurations.get("io.quiver.created"));
            assertEquals("before", configurations.get("io.quiver.other").get("x"));
        }
    }
}
