package io.quiver.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quiver.lib.feature.ArtifactId;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.felix.framework.Felix;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.osgi.framework.Bundle;
import org.osgi.framework.Constants;
import org.osgi.framework.wiring.BundleWire;
import org.osgi.framework.wiring.BundleWiring;
import tools.jackson.databind.ObjectMapper;

/**
 * Jackson from the launcher's class path: the system bundle exports what the feature's bundles would,
 * those bundles are left out of the plan only when the class path has their very version, and a bundle
 * importing Jackson then gets the launcher's own classes.
 */
class SharedLibrariesTest {

    @TempDir
    Path dir;

    private Felix felix;

    private static final String JACKSON = tools.jackson.databind.cfg.PackageVersion.VERSION.toString();
    private static final ArtifactId DATABIND = ArtifactId.parse("tools.jackson.core:jackson-databind:" + JACKSON);

    private final BundleRepository embedded = new BundleRepository(getClass().getClassLoader(), null);

    @AfterEach
    void stop() throws Exception {
        if (felix != null) {
            felix.stop();
            felix.waitForStop(10_000);
        }
    }

    @Test
    void theClassPathsJacksonIsExportedWithTheBundlesOwnHeaders() {
        SharedLibraries shared = SharedLibraries.find(getClass().getClassLoader(), embedded);
        assertTrue(shared.provides(DATABIND), DATABIND::toString);
        assertTrue(shared.provides(ArtifactId.parse("tools.jackson.core:jackson-core:" + JACKSON)));
        assertTrue(shared.exports().contains("tools.jackson.databind;version=\"" + JACKSON + "\""), shared.exports());
        assertTrue(shared.exports().contains("com.fasterxml.jackson.annotation;version="), shared.exports());
        assertTrue(shared.exports().contains("uses:="), "the bundle's uses constraints come along: " + shared.exports());
        // named for deploy/ and bundle_install, which refuse a second copy of a platform bundle
        List<String> names = List.of(shared.libraries().format().split(","));
        assertEquals(3, names.size(), shared.libraries().format());
        assertTrue(names.contains("tools.jackson.core.jackson-databind;version=" + JACKSON
                + ";maven=tools.jackson.core:jackson-databind:" + JACKSON), shared.libraries().format());
        assertTrue(names.stream().anyMatch(n -> n.startsWith("com.fasterxml.jackson.core.jackson-annotations;version=")),
                shared.libraries().format());
    }

    @Test
    void onlyTheVeryVersionIsLeftOutOfThePlan() {
        SharedLibraries shared = SharedLibraries.find(getClass().getClassLoader(), embedded);
        ArtifactId other = ArtifactId.parse("tools.jackson.core:jackson-databind:3.0.0");
        ArtifactId api = ArtifactId.parse("io.quiver:api:1.0.0");
        LaunchPlan plan = new LaunchPlan(List.of(new LaunchPlan.Step(DATABIND, 1, "core"),
                new LaunchPlan.Step(other, 1, "mine"), new LaunchPlan.Step(api, 1, "core")), Map.of("pid", Map.of()));

        LaunchPlan rest = shared.without(plan);

        assertEquals(List.of(other, api), rest.bundles().stream().map(LaunchPlan.Step::id).toList());
        assertEquals(plan.configurations(), rest.configurations());
    }

    @Test
    void aClassPathWithoutJacksonSharesNothing() throws Exception {
        try (URLClassLoader bare = new URLClassLoader(new URL[0], null)) {
            SharedLibraries shared = SharedLibraries.find(bare, embedded);
            assertEquals("", shared.exports());
            assertEquals("", shared.libraries().format());
            assertFalse(shared.provides(DATABIND));
        }
    }

    @Test
    void anotherVersionOnTheClassPathIsNotShared() throws Exception {
        // the application pins 3.0.0 (annotations 2.0), which a local Maven repository holds too; the
        // features name other versions
        Path m2 = dir.resolve("m2");
        for (String id : List.of("com.fasterxml.jackson.core:jackson-annotations:2.0", "tools.jackson.core:jackson-core:3.0.0",
                "tools.jackson.core:jackson-databind:3.0.0")) {
            ArtifactId old = ArtifactId.parse(id);
            pom(old.groupId(), old.artifactId(), old.version());
            TestBundles.write(m2.resolve(old.repositoryPath()), old.groupId() + "." + old.artifactId(),
                    Map.of(Constants.EXPORT_PACKAGE, "p." + old.artifactId().replace('-', '.') + ";version=\"" + old.version() + "\""));
        }
        try (URLClassLoader app = new URLClassLoader(new URL[] {dir.resolve("classes").toUri().toURL()}, null)) {
            SharedLibraries shared = SharedLibraries.find(app, new BundleRepository(getClass().getClassLoader(), m2));
            assertEquals("", shared.exports());
            assertEquals("", shared.libraries().format());
            assertFalse(shared.provides(ArtifactId.parse("tools.jackson.core:jackson-databind:3.0.0")));
            assertFalse(shared.provides(DATABIND));
        }
    }

    @Test
    void jacksonIsSharedWholeOrNotAtAll() throws Exception {
        // core and annotations at the features' versions, databind pinned to another: nothing is shared
        String annotations = SharedLibraries.classPathVersion(getClass().getClassLoader(),
                "com.fasterxml.jackson.core", "jackson-annotations").orElseThrow();
        pom("com.fasterxml.jackson.core", "jackson-annotations", annotations);
        pom("tools.jackson.core", "jackson-core", JACKSON);
        pom("tools.jackson.core", "jackson-databind", "3.0.0");
        try (URLClassLoader app = new URLClassLoader(new URL[] {dir.resolve("classes").toUri().toURL()}, null)) {
            SharedLibraries shared = SharedLibraries.find(app, embedded);
            assertEquals("", shared.exports());
            assertEquals("", shared.libraries().format());
            assertFalse(shared.provides(ArtifactId.parse("tools.jackson.core:jackson-core:" + JACKSON)));
        }
        // the same class path with databind at the features' version too: all three
        pom("tools.jackson.core", "jackson-databind", JACKSON);
        try (URLClassLoader app = new URLClassLoader(new URL[] {dir.resolve("classes").toUri().toURL()}, null)) {
            SharedLibraries shared = SharedLibraries.find(app, embedded);
            assertTrue(shared.provides(DATABIND));
            assertTrue(shared.provides(ArtifactId.parse("tools.jackson.core:jackson-core:" + JACKSON)));
        }
    }

    private void pom(String groupId, String artifactId, String version) throws Exception {
        Path folder = dir.resolve("classes/META-INF/maven/" + groupId + "/" + artifactId);
        Files.createDirectories(folder);
        Files.writeString(folder.resolve("pom.properties"), "version=" + version + "\n");
    }

    @Test
    void theSwitchTurnsItOff() {
        System.setProperty(SharedLibraries.PROPERTY, "false");
        try {
            SharedLibraries shared = SharedLibraries.find(getClass().getClassLoader(), embedded);
            assertEquals("", shared.exports());
            assertEquals("", shared.libraries().format());
            assertFalse(shared.provides(DATABIND));
        } finally {
            System.clearProperty(SharedLibraries.PROPERTY);
        }
    }

    @Test
    void aBundleImportingJacksonGetsTheLaunchersClasses() throws Exception {
        SharedLibraries shared = SharedLibraries.find(getClass().getClassLoader(), embedded);
        felix = new Felix(Map.of(Constants.FRAMEWORK_STORAGE, dir.resolve("storage").toString(),
                Constants.FRAMEWORK_STORAGE_CLEAN, Constants.FRAMEWORK_STORAGE_CLEAN_ONFIRSTINIT,
                Constants.FRAMEWORK_SYSTEMPACKAGES_EXTRA, shared.exports()));
        felix.init();
        felix.start();
        Path jar = TestBundles.write(dir.resolve("user.jar"), "test.user",
                Map.of(Constants.IMPORT_PACKAGE, "tools.jackson.databind;version=\"[3.0,4)\""));
        Bundle user = felix.getBundleContext().installBundle(jar.toUri().toString());
        user.start();

        BundleWire wire = user.adapt(BundleWiring.class).getRequiredWires("osgi.wiring.package").get(0);
        assertEquals(0L, wire.getProvider().getBundle().getBundleId(), "the system bundle exports Jackson");
        assertSame(ObjectMapper.class, user.loadClass(ObjectMapper.class.getName()));
    }
}
