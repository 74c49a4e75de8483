package io.quiver.deployer.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FeatureFileTest {

    @TempDir
    Path dir;

    @Test
    void readsBundlesInStartOrderAndTypedConfigurations() throws Exception {
        Path file = dir.resolve("tools.json");
        Files.writeString(file, """
                {"feature-resource-version":"1.0","id":"com.example:tools:1.0",
                 "bundles":[{"id":"com.example:b:2.0","start-order":"20"},{"id":"com.example:a:1.0","start-order":10}],
                 "configurations":{"io.quiver.core.tool~slow":{"tool":"slow","timeoutMs:Long":5000,"hosts":["a","b"],
                   "ratio":0.5,"on":true}}}""");
        FeatureFile feature = FeatureFile.read(file.toFile());
        assertEquals("com.example:tools:1.0", feature.id());
        assertEquals(List.of("a", "b"), feature.bundles().stream().map(FeatureFile.BundleRef::artifactId).toList());
        var config = feature.configurations().get("io.quiver.core.tool~slow");
        assertEquals("slow", config.get("tool"));
        assertEquals(5000L, config.get("timeoutMs"));
        assertArrayEquals(new String[] {"a", "b"}, (String[]) config.get("hosts"));
        assertEquals(0.5, config.get("ratio"));
        assertEquals(true, config.get("on"));
    }

    @Test
    void otherJsonIsNotAFeatureAndSaysSo() throws Exception {
        Path file = dir.resolve("data.json");
        Files.writeString(file, "{\"name\":\"x\"}");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> FeatureFile.read(file.toFile()));
        assertTrue(e.getMessage().contains("data.json: no id"), e.getMessage());
        Files.writeString(file, "not json");
        e = assertThrows(IllegalArgumentException.class, () -> FeatureFile.read(file.toFile()));
        assertTrue(e.getMessage().contains("data.json is not valid JSON"), e.getMessage());
    }

    @Test
    void findsBundlesBesideTheFeatureThenInMaven() throws Exception {
        Path repo = dir.resolve("repo");
        Path feature = dir.resolve("deploy/f.json");
        Files.createDirectories(feature.getParent().resolve("bundles"));
        Path beside = Files.createFile(feature.getParent().resolve("bundles/a-1.0.jar"));
        Path maven = Files.createDirectories(repo.resolve("com/example/b/2.0")).resolve("b-2.0.jar");
        Files.createFile(maven);
        BundleLocator locator = new BundleLocator(List.of(repo));
        assertEquals(beside, locator.find(feature, new FeatureFile.BundleRef("com.example", "a", "1.0", 0)));
        assertEquals(maven, locator.find(feature, new FeatureFile.BundleRef("com.example", "b", "2.0", 0)));
        assertNull(locator.find(feature, new FeatureFile.BundleRef("com.example", "c", "1.0", 0)));
    }
}
