package io.quiver.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.stream.Stream;
import org.apache.felix.framework.Felix;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.osgi.framework.Bundle;

/**
 * A fresh temporary storage seeded from the bundles a first run installed: the next run loads them instead of
 * installing them again, a damaged template costs only the bundles it lacks, and only a whole run makes one.
 */
class StorageTemplateTest {

    /** A template's name (a digest's first 24 hexadecimal digits). */
    private static final String KEY = "0123456789abcdef01234567";

    @TempDir
    Path dir;

    @AfterEach
    void unset() {
        System.clearProperty(StorageTemplate.PROPERTY);
    }

    @Test
    void theNextRunLoadsTheBundlesTheFirstInstalled() throws Exception {
        Path templates = dir.resolve("templates");
        Map<String, Long> installed = firstRun(templates);
        List<Path> made = templates(templates);
        assertEquals(1, made.size(), made::toString);
        Path template = made.get(0);
        assertTrue(Files.isRegularFile(template.resolve(BundleInstaller.FINGERPRINTS)));
        try (Stream<Path> files = Files.walk(template)) {
            List<Path> caches = files.filter(f -> f.getFileName().toString().equals(StorageTemplate.SCR_CACHE)).toList();
            assertEquals(1, caches.size(), "Declarative Services' reading of the components: " + caches);
        }
        assertFalse(hasStagedCopies(templates), "the run's own copy became the template");

        try (Quiver second = start("second")) {
            assertEquals(installed, featureBundles(second), "the same bundles, installed when the first run installed them");
            installed.keySet().forEach(location -> assertTrue(active(second, location), location + " started"));
        }
        assertEquals(List.of(template), templates(templates), "a seeded run makes none");
    }

    @Test
    void aTemplateThatLacksABundleCostsOnlyThatBundle() throws Exception {
        Path templates = dir.resolve("templates");
        Map<String, Long> installed = firstRun(templates);
        Path template = templates(templates).get(0);
        String core = BundleInstaller.PREFIX + "io.quiver:core:" + FrameworkProperties.version("quiver.version");
        Path coreFolder = bundleFolder(template, core);
        Files.delete(coreFolder.resolve("version0.0").resolve("bundle.jar")); // its folder is there, its jar not

        try (Quiver second = start("second")) {
            Map<String, Long> now = featureBundles(second);
            assertEquals(installed.keySet(), now.keySet());
            assertNotEquals(installed.get(core), now.get(core), "installed again");
            now.keySet().forEach(location -> assertTrue(active(second, location), location));
            installed.keySet().stream().filter(l -> !l.equals(core))
                    .forEach(l -> assertEquals(installed.get(l), now.get(l), l + " came from the template"));
        }
    }

    @Test
    void onlyAWholeRunMakesATemplateAndTheFirstOfTwoWins() throws Exception {
        Path storage = dir.resolve("storage");
        Felix felix = framework(storage);
        Bundle b = installOne(felix, storage);
        Path templates = dir.resolve("templates");
        Path folder = templates.resolve(KEY);

        StorageTemplate failed = StorageTemplate.at(folder);
        failed.stage(storage, List.of(b));
        assertTrue(hasStagedCopies(templates));
        failed.finish(storage, false);
        assertFalse(Files.exists(folder), "a start that did not get through makes no template");
        assertFalse(hasStagedCopies(templates), "nor leaves its copy");

        StorageTemplate one = StorageTemplate.at(folder);
        StorageTemplate two = StorageTemplate.at(folder);
        one.stage(storage, List.of(b));
        two.stage(storage, List.of(b));
        one.finish(storage, true);
        Files.writeString(folder.resolve("mark"), "the first");
        two.finish(storage, true);
        assertEquals("the first", Files.readString(folder.resolve("mark")), "the template is not replaced");
        assertFalse(hasStagedCopies(templates), "the second run's copy is deleted");
        assertTrue(Files.isRegularFile(folder.resolve("bundle" + b.getBundleId()).resolve("bundle.info")));
        felix.stop();
        felix.waitForStop(10_000);
    }

    @Test
    void theTemplatesUsedLastAreKeptAndTheCopiesOfRunsThatAreGoneAreSwept() throws Exception {
        Path templates = dir.resolve("templates");
        long now = System.currentTimeMillis();
        for (int i = 0; i < StorageTemplate.KEPT; i++) {
            Path old = Files.createDirectories(templates.resolve(String.format("%024x", i)));
            Files.setLastModifiedTime(old, FileTime.fromMillis(now - (i + 1) * 60_000L));
        }
        Process gone = new ProcessBuilder("true").start();
        gone.waitFor();
        Path leftByAKill = Files.createDirectories(templates.resolve("." + KEY + "-" + gone.pid() + "-" + UUID.randomUUID()));
        Path ofALiveRun = Files.createDirectories(templates.resolve("." + KEY + "-1-" + UUID.randomUUID()));
        Path notOurs = Files.writeString(templates.resolve("notes.txt"), "mine");
        Path notOursEither = Files.createDirectories(templates.resolve(".config"));
        Path storage = dir.resolve("storage");
        Felix felix = framework(storage);
        Bundle b = installOne(felix, storage);

        Path newest = templates.resolve(String.format("%024x", 99));
        StorageTemplate fresh = StorageTemplate.at(newest);
        fresh.stage(storage, List.of(b));
        fresh.finish(storage, true);

        List<Path> kept = templates(templates);
        assertTrue(kept.contains(newest), kept::toString);
        assertFalse(kept.contains(templates.resolve(String.format("%024x", StorageTemplate.KEPT - 1))),
                "the one used longest ago goes: " + kept);
        assertEquals(StorageTemplate.KEPT + 1, kept.size(), "the four kept, and notes.txt: " + kept);
        assertFalse(Files.exists(leftByAKill), "the copy of a run that is gone is swept");
        assertTrue(Files.exists(ofALiveRun), "a live run's copy stays");
        assertTrue(Files.exists(notOurs) && Files.exists(notOursEither), "what is not a template or a copy stays");
        felix.stop();
        felix.waitForStop(10_000);
    }

    /**
     * A template whose bundles no longer match the features (a bundle rebuilt, a feature file edited) is checked as a
     * kept storage is, then discarded: the start after makes it again.
     */
    @Test
    void aTemplateThatHadToBeCorrectedIsMadeAgain() throws Exception {
        Path templates = dir.resolve("templates");
        firstRun(templates);
        Path template = templates(templates).get(0);
        Path fingerprints = template.resolve(BundleInstaller.FINGERPRINTS);
        String core = "quiver\\:io.quiver\\:core\\:";
        List<String> lines = Files.readAllLines(fingerprints).stream()
                .map(l -> l.startsWith(core) ? l.substring(0, l.indexOf('=') + 1) + "0/0" : l).toList();
        Files.write(fingerprints, lines);

        try (Quiver second = start("second")) {
            featureBundles(second).keySet().forEach(location -> assertTrue(active(second, location), location));
            assertEquals(List.of(), templates(templates), "the template that no longer matched is gone");
        }
        assertEquals(List.of(), templates(templates), "a run that started from a template makes none");
        try (Quiver third = start("third")) {
            assertFalse(featureBundles(third).isEmpty());
        }
        assertEquals(List.of(template), templates(templates), "made again");
        assertFalse(Files.readString(template.resolve(BundleInstaller.FINGERPRINTS)).contains("=0/0"));
    }

    private static Felix framework(Path storage) throws Exception {
        Felix felix = new Felix(Map.of("org.osgi.framework.storage", storage.toString(),
                "org.osgi.framework.storage.clean", "none"));
        felix.init();
        return felix;
    }

    /** A feature bundle installed into the storage, and its fingerprints file written as the installer does. */
    private Bundle installOne(Felix felix, Path storage) throws Exception {
        Path jar = TestBundles.write(dir.resolve("repo/f.jar"), "test.feature", Map.of());
        Files.writeString(storage.resolve(BundleInstaller.FINGERPRINTS), "x=1\n");
        try (InputStream in = Files.newInputStream(jar)) {
            return felix.getBundleContext().installBundle(BundleInstaller.PREFIX + "test:feature:1.0.0", in);
        }
    }

    /** Names the folder of templates and runs a first server, which makes one as it stops: its bundles' install times. */
    private Map<String, Long> firstRun(Path templates) throws Exception {
        System.setProperty(StorageTemplate.PROPERTY, templates.toString());
        try (Quiver first = start("first")) {
            Map<String, Long> installed = featureBundles(first);
            assertEquals(List.of(), templates(templates), "a template is made once its run has stopped");
            return installed;
        }
    }

    private Quiver start(String name) throws Exception {
        Path home = dir.resolve(name);
        return Quiver.builder().features("core").port(0).etc(home.resolve("etc")).deploy(home.resolve("deploy"))
                .build().start();
    }

    /** The feature bundles' locations and the times they were installed. */
    private static Map<String, Long> featureBundles(Quiver quiver) {
        Map<String, Long> bundles = new TreeMap<>();
        for (Bundle b : quiver.framework().getBundleContext().getBundles()) {
            if (b.getLocation().startsWith(BundleInstaller.PREFIX)) {
                bundles.put(b.getLocation(), b.getLastModified());
            }
        }
        assertFalse(bundles.isEmpty());
        return bundles;
    }

    private static boolean active(Quiver quiver, String location) {
        Bundle b = quiver.framework().getBundleContext().getBundle(location);
        return b != null && (b.getState() == Bundle.ACTIVE || b.getHeaders().get("Fragment-Host") != null);
    }

    private static Path bundleFolder(Path template, String location) throws IOException {
        try (Stream<Path> folders = Files.list(template)) {
            for (Path f : folders.filter(p -> p.getFileName().toString().startsWith("bundle")).toList()) {
                Path info = f.resolve("bundle.info");
                if (Files.isRegularFile(info) && Files.readAllLines(info).get(1).equals(location)) {
                    return f;
                }
            }
        }
        throw new AssertionError("no folder of " + location + " in " + template);
    }

    private static List<Path> templates(Path templates) throws IOException {
        if (!Files.isDirectory(templates)) {
            return List.of();
        }
        try (Stream<Path> all = Files.list(templates)) {
            return all.filter(p -> !p.getFileName().toString().startsWith(".")).sorted().toList();
        }
    }

    private static boolean hasStagedCopies(Path templates) throws IOException {
        if (!Files.isDirectory(templates)) {
            return false;
        }
        try (Stream<Path> all = Files.list(templates)) {
            return all.anyMatch(p -> p.getFileName().toString().startsWith("."));
        }
    }
}
