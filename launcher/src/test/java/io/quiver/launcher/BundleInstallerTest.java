package io.quiver.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quiver.lib.feature.ArtifactId;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.felix.framework.Felix;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.osgi.framework.Bundle;

/**
 * The feature bundles on a real framework: in a kept storage a bundle is installed once, kept while its
 * content is unchanged, updated when it changed and uninstalled when no feature names it; in a fresh
 * temporary storage they are simply installed, with no fingerprints taken or written.
 */
class BundleInstallerTest {

    @TempDir
    Path dir;

    /** Each installed bundle's Test-Made header after the last run: which content the framework holds. */
    private final Map<String, String> made = new java.util.HashMap<>();

    @Test
    void aKeptStorageKeepsUnchangedBundlesUpdatesChangedOnesAndDropsTheRest() throws Exception {
        Path storage = dir.resolve("storage");
        bundle("a");
        bundle("b");
        bundle("c");

        Map<String, Long> first = run(storage, false, "a", "b", "c");
        assertTrue(Files.isRegularFile(storage.resolve(BundleInstaller.FINGERPRINTS)));

        String firstB = made.get("test.b");
        Map<String, Long> same = run(storage, false, "a", "b", "c");
        assertEquals(first, same, "unchanged bundles are kept as they were (same bundle ids)");
        assertEquals(firstB, made.get("test.b"));

        bundle("b"); // new content: a new modification time and size
        Path b = jar("b");
        Files.setLastModifiedTime(b, FileTime.fromMillis(Files.getLastModifiedTime(b).toMillis() + 5_000));
        Map<String, Long> after = run(storage, false, "a", "b");
        assertEquals(first.get("test.a"), after.get("test.a"));
        assertEquals(first.get("test.b"), after.get("test.b"), "an update keeps the bundle's id");
        assertFalse(firstB.equals(made.get("test.b")), "b was updated to its new content");
        assertFalse(after.containsKey("test.c"), "c, which no feature names any more, is uninstalled: " + after);
        assertTrue(Files.readString(storage.resolve(BundleInstaller.FINGERPRINTS)).contains("test\\:b"));
    }

    /**
     * A feature that names a bundle at another location (its artifact renamed), with the same symbolic name and
     * version: the one installed before is uninstalled first, since the framework refuses the same bundle twice.
     */
    @Test
    void aBundleNamedAtAnotherLocationReplacesTheOneBefore() throws Exception {
        Path storage = dir.resolve("renamed");
        bundle("a");
        TestBundles.write(jar("renamed"), "test.a", Map.of("Test-Made", "renamed"));
        run(storage, false, "a");

        Map<String, Long> after = run(storage, false, "renamed");

        assertEquals(List.of("test.a"), List.copyOf(after.keySet()));
        assertEquals("renamed", made.get("test.a"), "the bundle of the new location");
    }

    @Test
    void aTemporaryStorageGetsNoFingerprints() throws Exception {
        Path storage = dir.resolve("tmp-storage");
        bundle("a");
        Map<String, Long> installed = run(storage, true, "a");
        assertTrue(installed.containsKey("test.a"), installed::toString);
        assertFalse(Files.exists(storage.resolve(BundleInstaller.FINGERPRINTS)));
    }

    /** One framework run: installs the named bundles, returns symbolic name to bundle id, stops. */
    private Map<String, Long> run(Path storage, boolean temporary, String... names) throws Exception {
        Felix felix = new Felix(Map.of("org.osgi.framework.storage", storage.toString(),
                "org.osgi.framework.storage.clean", temporary ? "onFirstInit" : "none"));
        felix.init();
        try {
            List<LaunchPlan.Step> steps = new ArrayList<>();
            for (String name : names) {
                steps.add(new LaunchPlan.Step(id(name), 1, "test"));
            }
            List<Bundle> bundles = new BundleInstaller(new BundleRepository(getClass().getClassLoader(), dir.resolve("repo")))
                    .install(felix.getBundleContext(), new LaunchPlan(steps, Map.of()), temporary ? null : storage);
            assertEquals(names.length, bundles.size());
            Map<String, Long> ids = new java.util.TreeMap<>();
            for (Bundle bundle : felix.getBundleContext().getBundles()) {
                if (bundle.getBundleId() != 0) {
                    ids.put(bundle.getSymbolicName(), bundle.getBundleId());
                    made.put(bundle.getSymbolicName(), bundle.getHeaders().get("Test-Made"));
                }
            }
            return ids;
        } finally {
            felix.stop();
            felix.waitForStop(10_000);
        }
    }

    private static ArtifactId id(String name) {
        return ArtifactId.parse("test:" + name + ":1.0.0");
    }

    private Path jar(String name) {
        return dir.resolve("repo").resolve(id(name).repositoryPath());
    }

    /** (Re)writes bundle {@code test.<name>} in the repository, with new content each time. */
    private void bundle(String name) throws Exception {
        TestBundles.write(jar(name), "test." + name, Map.of("Test-Made", Long.toString(System.nanoTime())));
    }
}
