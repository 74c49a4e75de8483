package io.quiver.deployer.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.Dictionary;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.osgi.framework.Bundle;

/**
 * deploy/'s first pass, which the launcher runs before the start is over, on a real framework: what the folder holds
 * starts whatever the order of its files, and FileInstall's own first scan, which hands every file over again, finds
 * each done.
 */
class DeployPassTest {

    @TempDir
    Path dir;

    private final Map<String, Dictionary<String, Object>> configurations = new HashMap<>();
    private final DeployProblems problems = new DeployProblems();

    @AfterEach
    void forgetTries() {
        System.clearProperty(FailingActivator.TRIES);
    }

    private Path deploy() {
        return dir.resolve("deploy");
    }

    /** What one server's pass and installers share; a new one for each start. */
    private PassedFiles passed = new PassedFiles();

    /** A start of the server, with its storage kept between starts. */
    private Framework framework() throws Exception {
        passed = new PassedFiles();
        return new Framework(dir.resolve("storage"), deploy());
    }

    private FeatureInstaller features(Framework framework) {
        return new FeatureInstaller(framework.context(), Framework.configurationAdmin(configurations), problems, passed,
                Map.of("mavenRepositories", dir.resolve("repo").toString()));
    }

    private File write(String name, byte[] content) throws Exception {
        Path file = deploy().resolve(name);
        Files.createDirectories(file.getParent());
        Files.write(file, content);
        return file.toFile();
    }

    @Test
    void aJarNeedingAPackageOfAJarNamedAfterItStarts() throws Exception {
        try (Framework framework = framework()) {
            // a.jar comes first by name and needs b.jar's package: started one by one, it would not resolve
            write("a.jar", Framework.jar("test.a", "1.0", "Import-Package", "test.lib"));
            write("b.jar", Framework.jar("test.lib", "1.0", "Export-Package", "test.lib"));
            BundleDeployer jars = new BundleDeployer(framework.context(), problems, passed, Map.of());
            assertEquals(2, new DeployPass(framework.context(), jars, features(framework), passed).call());
            assertEquals(Bundle.ACTIVE, framework.bundle("test.a").getState(), problems.problems()::toString);
            assertEquals(Bundle.ACTIVE, framework.bundle("test.lib").getState());
            assertEquals(List.of(), problems.problems());
        }
    }

    @Test
    void aJarNeedingAPackageOfAFeatureStartsWhateverTheNames() throws Exception {
        try (Framework framework = framework()) {
            write("bundles/lib-1.0.jar", Framework.jar("test.lib", "1.0", "Export-Package", "test.lib"));
            write("z.json", ("{\"feature-resource-version\":\"1.0\",\"id\":\"com.example:z:1.0\","
                    + "\"bundles\":[{\"id\":\"com.example:lib:1.0\"}]}").getBytes());
            write("a.jar", Framework.jar("test.a", "1.0", "Import-Package", "test.lib"));
            BundleDeployer jars = new BundleDeployer(framework.context(), problems, passed, Map.of());
            new DeployPass(framework.context(), jars, features(framework), passed).call();
            assertEquals(Bundle.ACTIVE, framework.bundle("test.a").getState(), problems.problems()::toString);
        }
    }

    @Test
    void fileInstallsFirstScanFindsTheFilesDoneAndAChangedFileIsTakenAgain() throws Exception {
        try (Framework framework = framework()) {
            File failing = write("failing.jar", Framework.jar("test.failing", "1.0", "Import-Package",
                    "org.osgi.framework", "Bundle-Activator", FailingActivator.class.getName()));
            File good = write("good.jar", Framework.jar("test.good", "1.0"));
            BundleDeployer jars = new BundleDeployer(framework.context(), problems, passed, Map.of());
            new DeployPass(framework.context(), jars, features(framework), passed).call();
            assertEquals(1, Integer.getInteger(FailingActivator.TRIES, 0));
            assertTrue(problems.problems().toString().contains("did not start"), problems.problems()::toString);
            long goodId = framework.bundle("test.good").getBundleId();

            // FileInstall's first scan: every file once more, unchanged
            jars.install(failing);
            jars.install(good);
            assertEquals(1, Integer.getInteger(FailingActivator.TRIES, 0), "a failed start is not tried again");
            assertEquals(goodId, framework.bundle("test.good").getBundleId());
            assertEquals(Bundle.ACTIVE, framework.bundle("test.good").getState());
            assertTrue(problems.problems().toString().contains("did not start"), "the problem stays listed");

            // touched: how a user asks for another try
            Files.setLastModifiedTime(failing.toPath(), FileTime.fromMillis(failing.lastModified() + 5_000));
            jars.update(failing);
            assertEquals(2, Integer.getInteger(FailingActivator.TRIES, 0));
        }
    }

    @Test
    void aDeployFolderReachedThroughASymbolicLinkHoldsEachFileUnderOneName() throws Exception {
        Path real = Files.createDirectories(dir.resolve("real-deploy"));
        Path link = Files.createSymbolicLink(dir.resolve("deploy-link"), real);
        Files.write(real.resolve("a.jar"), Framework.jar("test.a", "1.0"));
        try (Framework framework = new Framework(dir.resolve("storage"), link)) {
            BundleDeployer jars = new BundleDeployer(framework.context(), problems, passed, Map.of());
            new DeployPass(framework.context(), jars, features(framework), passed).call();
            // FileInstall watches the canonical folder and names the file so
            File canonical = real.toRealPath().resolve("a.jar").toFile();
            jars.install(canonical);
            assertEquals(List.of(), problems.problems(), "not refused as installed from another name");
            assertEquals(canonical.toPath().toUri().toString(), framework.bundle("test.a").getLocation());
            Files.delete(canonical.toPath());
            jars.uninstall(canonical);
            assertEquals(null, framework.bundle("test.a"), "its deletion reaches the bundle");
        }
    }

    @Test
    void aFileDeletedBeforeFileInstallEverSawItGoesAndOneItSawIsLeftToIt() throws Exception {
        try (Framework framework = framework()) {
            File seen = write("seen.jar", Framework.jar("test.seen", "1.0"));
            File unseen = write("unseen.jar", Framework.jar("test.unseen", "1.0"));
            BundleDeployer jars = new BundleDeployer(framework.context(), problems, passed, Map.of());
            DeployPass pass = new DeployPass(framework.context(), jars, features(framework), passed);
            pass.call();
            jars.install(seen); // FileInstall's first scan found this one: it tells its deletion itself
            Files.delete(seen.toPath());
            Files.delete(unseen.toPath());
            pass.removeGoneUnseen(List.of(), List.of(seen, unseen));
            assertEquals(null, framework.bundle("test.unseen"));
            assertEquals(Bundle.ACTIVE, framework.bundle("test.seen").getState(), "FileInstall's to remove");
        }
    }

    @Test
    void aFileTheRunningPassHasNotReachedYetIsLeftToIt() throws Exception {
        try (Framework framework = framework()) {
            File a = write("a.jar", Framework.jar("test.a", "1.0"));
            BundleDeployer jars = new BundleDeployer(framework.context(), problems, passed, Map.of());
            passed.claim(List.of(a));
            jars.install(a); // FileInstall, once the launcher has stopped waiting for a long pass
            assertEquals(null, framework.bundle("test.a"));
            jars.deployAll(List.of(a));
            assertEquals(Bundle.ACTIVE, framework.bundle("test.a").getState());
        }
    }

    @Test
    void aKeptStoragesFeatureFileChangedWhileStoppedIsLeftToFileInstall() throws Exception {
        write("bundles/lib-1.0.jar", Framework.jar("test.lib", "1.0"));
        File feature = write("f.json", ("{\"feature-resource-version\":\"1.0\",\"id\":\"com.example:f:1.0\","
                + "\"bundles\":[{\"id\":\"com.example:lib:1.0\"}],\"configurations\":{\"io.quiver.x\":{\"v\":\"one\"}}}")
                .getBytes());
        try (Framework framework = framework()) {
            new DeployPass(framework.context(), new BundleDeployer(framework.context(), problems, passed, Map.of()),
                    features(framework), passed).call();
        }
        write("f.json", ("{\"feature-resource-version\":\"1.0\",\"id\":\"com.example:f:1.0\","
                + "\"bundles\":[{\"id\":\"com.example:lib:1.0\"}],\"configurations\":{\"io.quiver.x\":{\"v\":\"two\"}}}")
                .getBytes());
        try (Framework framework = framework()) {
            FeatureInstaller installer = features(framework);
            new DeployPass(framework.context(), new BundleDeployer(framework.context(), problems, passed, Map.of()),
                    installer, passed).call();
            installer.update(feature); // FileInstall remembers the file as it was, and hands the change over
            assertEquals("two", configurations.get("io.quiver.x").get("v"));
        }
    }

    @Test
    void aKeptStoragesFeatureIsNotInstalledAgain() throws Exception {
        write("bundles/lib-1.0.jar", Framework.jar("test.lib", "1.0"));
        write("f.json", ("{\"feature-resource-version\":\"1.0\",\"id\":\"com.example:f:1.0\","
                + "\"bundles\":[{\"id\":\"com.example:lib:1.0\"}],\"configurations\":{\"io.quiver.x\":{\"v\":\"feature\"}}}")
                .getBytes());
        try (Framework framework = framework()) {
            BundleDeployer jars = new BundleDeployer(framework.context(), problems, passed, Map.of());
            new DeployPass(framework.context(), jars, features(framework), passed).call();
            assertEquals("feature", configurations.get("io.quiver.x").get("v"));
        }
        configurations.get("io.quiver.x").put("v", "changed since"); // Configuration Admin's, kept with the storage
        try (Framework framework = framework()) {
            BundleDeployer jars = new BundleDeployer(framework.context(), problems, passed, Map.of());
            long libId = framework.bundle("test.lib").getBundleId();
            new DeployPass(framework.context(), jars, features(framework), passed).call();
            assertEquals("changed since", configurations.get("io.quiver.x").get("v"), "the feature is not applied again");
            assertEquals(libId, framework.bundle("test.lib").getBundleId());
        }
    }
}
