package io.quiver.launcher;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystems;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.osgi.framework.Bundle;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The feature bundles of a fresh temporary storage as an earlier run installed them, with Declarative Services'
 * reading of their components: a start seeded from it loads the bundles Felix's way for a kept storage instead of
 * installing them, and Felix SCR reads the components from its metadata cache instead of parsing every bundle's
 * component XML (~0.1 s of a start on two slow cores, docs/BENCHMARKS.md). It holds the bundles' folders as the
 * install left them (before any of them started; no bundle's data), the framework's bundle counter, the installed
 * bundles' fingerprints and SCR's cache as the run that made it stopped.
 *
 * <p>A template belongs to one launcher jar, one JDK and one list of features (a folder named after their digest
 * in the folder of templates, {@value #PROPERTY}, which the {@code quiver} script sets to
 * {@code launcher/target/quiver-storage}). What it holds is checked as a kept storage is: a bundle whose
 * fingerprint differs from the feature's is updated, one no feature names is uninstalled, a missing one installed;
 * a start that had to change anything discards the template, and the next run makes it again. A run without one
 * makes one: it copies the bundles' folders right after installing them into a folder of its own beside the
 * templates, adds SCR's cache once the framework has stopped cleanly after a whole start, and renames the folder
 * into place (a concurrent run that got there first wins; the loser deletes its copy). Jars are hard links where the
 * file system allows, copies elsewhere. The {@value #KEPT} templates used last are kept; one is renamed away before
 * it is deleted, so a start never sees half of one. Nothing else in the folder is touched.
 */
final class StorageTemplate {

    private static final Logger LOG = LoggerFactory.getLogger(StorageTemplate.class);

    /** The system property naming the folder of templates; without it no template is used or made. */
    static final String PROPERTY = "quiver.storageTemplates";
    /** Felix SCR's metadata cache, in its bundle's data folder (written as SCR stops with ds.cache.metadata). */
    static final String SCR_CACHE = "componentMetadataStore";
    private static final String JAR = "bundle.jar";
    /** The framework's own folder in its storage: the next bundle id, the Java version it last ran on. */
    private static final String SYSTEM_BUNDLE = "bundle0";
    /** How many templates are kept: {@value}. */
    static final int KEPT = 4;
    /** A template's name: a digest. */
    private static final Pattern TEMPLATE = Pattern.compile("[0-9a-f]{24}");
    /** A run's copy (being made, or a template being deleted): {@code .<digest>-<pid>-<uuid>}. */
    private static final Pattern COPY = Pattern.compile("\\.[0-9a-f]{24}-([0-9]+)-[0-9a-f-]{36}");

    private final Path folder;
    /** Whether this run's storage started from the template. */
    private boolean seeded;
    private volatile Path staging;

    private StorageTemplate(Path folder) {
        this.folder = folder;
    }

    /** The template for these features, or null when {@value #PROPERTY} is not set. */
    static StorageTemplate configured(List<String> features) {
        Path templates = folderOfTemplates();
        return templates == null ? null : new StorageTemplate(templates.resolve(key(features)));
    }

    /** The folder of templates {@value #PROPERTY} names, or null. */
    static Path folderOfTemplates() {
        String templates = System.getProperty(PROPERTY);
        return templates == null || templates.isBlank() ? null : Path.of(templates).toAbsolutePath().normalize();
    }

    /** A template in a given folder, named like one (for tests). */
    static StorageTemplate at(Path folder) {
        if (!TEMPLATE.matcher(folder.getFileName().toString()).matches()) {
            throw new IllegalArgumentException("not a template's name: " + folder);
        }
        return new StorageTemplate(folder);
    }

    /** A digest of the launcher jar (path, size, time), the JDK and the features, as a folder name. */
    private static String key(List<String> features) {
        StringBuilder what = new StringBuilder();
        try {
            Path jar = Path.of(StorageTemplate.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            what.append(jar).append('|').append(BundleRepository.LocalFile.fingerprint(jar));
        } catch (IOException | URISyntaxException | RuntimeException e) {
            what.append("no jar"); // the installer's fingerprints still tell each bundle apart
        }
        what.append('|').append(System.getProperty("java.home")).append('|').append(System.getProperty("java.version"));
        what.append('|').append(String.join(",", features));
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(what.toString().getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest, 0, 12);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e); // every JDK has SHA-256
        }
    }

    /**
     * Copies the template (if there is a whole one) into a fresh, empty storage before the framework initialises;
     * without one the storage stays as empty as it was.
     */
    void seed(Path storage) {
        if (!Files.isDirectory(folder, LinkOption.NOFOLLOW_LINKS)
                || !Files.isRegularFile(folder.resolve(BundleInstaller.FINGERPRINTS), LinkOption.NOFOLLOW_LINKS)
                || !Files.isDirectory(folder.resolve(SYSTEM_BUNDLE), LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(folder)) {
            for (Path entry : entries) {
                String name = entry.getFileName().toString();
                if (Files.isRegularFile(entry, LinkOption.NOFOLLOW_LINKS)) {
                    Files.copy(entry, storage.resolve(name));
                } else if (name.equals(SYSTEM_BUNDLE) || whole(entry)) {
                    copyTree(entry, storage.resolve(name), false);
                } else {
                    // the framework would log the bundle it cannot load, and remove it; the installer installs it
                    LOG.warn("The storage template {} lacks part of {}; installing that bundle instead", folder, name);
                }
            }
        } catch (IOException | RuntimeException e) {
            LOG.warn("Cannot start from the storage template {} ({}); installing the bundles instead", folder, e.toString());
            try {
                clear(storage);
            } catch (IOException ignored) {
                // the framework then loads what was copied, and the installer corrects it
            }
            return;
        }
        try {
            Files.setLastModifiedTime(folder, FileTime.fromMillis(System.currentTimeMillis())); // used: kept longest
        } catch (IOException | RuntimeException e) {
            // another user's template, say: it is used all the same
        }
        LOG.debug("Storage seeded from the template {}", folder);
        seeded = true;
    }

    /**
     * After the feature bundles were installed (none started yet): a run without a template stages its own; one that
     * started from the template drops it if its bundles had to be {@code changed} (a feature file edited, a bundle of
     * a feature rebuilt), and the next run installs them and makes it again.
     */
    void installed(Path storage, List<Bundle> bundles, boolean changed) {
        if (!seeded) {
            stage(storage, bundles);
        } else if (changed) {
            discard();
        }
    }

    /** The install failed: a template it started from goes, whatever in it was the cause. */
    void installFailed() {
        if (seeded) {
            discard();
        }
    }

    /** Whether a bundle's folder in the template has what its install wrote: its record and its jar. */
    private static boolean whole(Path bundle) {
        return Files.isRegularFile(bundle.resolve("bundle.info"), LinkOption.NOFOLLOW_LINKS)
                && Files.isRegularFile(bundle.resolve("version0.0").resolve(JAR), LinkOption.NOFOLLOW_LINKS);
    }

    /**
     * Copies the folders of the bundles just installed into a fresh storage (none of them started yet) into a
     * folder of this run's beside the templates, with the framework's own folder and the bundles' fingerprints;
     * {@link #finish} makes it the template. Whatever goes wrong leaves only the start without a template.
     */
    void stage(Path storage, List<Bundle> installed) {
        Path copy = copyName();
        try {
            createPrivate(folder.getParent());
            createPrivate(copy);
            copyTree(storage.resolve(SYSTEM_BUNDLE), copy.resolve(SYSTEM_BUNDLE), true);
            for (Bundle b : installed) {
                String name = "bundle" + b.getBundleId();
                copyTree(storage.resolve(name), copy.resolve(name), true);
            }
            Files.copy(storage.resolve(BundleInstaller.FINGERPRINTS), copy.resolve(BundleInstaller.FINGERPRINTS));
            staging = copy;
        } catch (IOException | RuntimeException e) {
            LOG.debug("No storage template from this run: {}", e.toString());
            deleteQuietly(copy);
        }
    }

    private void discard() {
        LOG.debug("The storage template {} no longer matches the features: the next start makes it again", folder);
        delete(folder);
    }

    /**
     * Once the framework has stopped: with {@code whole} (a start that got through, a clean stop) a copy staged by
     * this run gets SCR's cache and becomes the template; otherwise it is deleted. Then copies whose run is gone, and
     * the templates beyond the {@value #KEPT} used last, are deleted.
     */
    void finish(Path storage, boolean whole) {
        Path copy = staging;
        staging = null;
        try {
            if (copy != null && whole) {
                addScrCache(storage, copy);
                Files.move(copy, folder, StandardCopyOption.ATOMIC_MOVE);
                LOG.debug("Storage template {} written", folder);
            }
        } catch (FileAlreadyExistsException | java.nio.file.DirectoryNotEmptyException e) {
            // a concurrent run wrote the same template first
        } catch (IOException | RuntimeException e) {
            LOG.debug("No storage template from this run: {}", e.toString());
        } finally {
            if (copy != null) {
                deleteQuietly(copy);
            }
            sweep();
        }
    }

    /** SCR's cache in the stopped storage, copied to the same place in the template (SCR's bundle id is the same). */
    private static void addScrCache(Path storage, Path copy) throws IOException {
        try (DirectoryStream<Path> bundles = Files.newDirectoryStream(storage, "bundle*")) {
            for (Path b : bundles) {
                Path cache = b.resolve("data").resolve(SCR_CACHE);
                if (Files.isRegularFile(cache, LinkOption.NOFOLLOW_LINKS)
                        && Files.isDirectory(copy.resolve(b.getFileName()), LinkOption.NOFOLLOW_LINKS)) {
                    Path target = copy.resolve(b.getFileName()).resolve("data");
                    Files.createDirectories(target);
                    Files.copy(cache, target.resolve(SCR_CACHE));
                }
            }
        }
    }

    /**
     * Deletes the copies of runs that are gone (a kill, a crash) and the templates beyond the {@value #KEPT} used
     * last (one per launcher jar, JDK and list of features: ~30 MB each). Only names a template or a copy has.
     */
    private void sweep() {
        Path parent = folder.getParent();
        List<Path> templates = new ArrayList<>();
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(parent)) {
            for (Path e : entries) {
                String name = e.getFileName().toString();
                Matcher copy = COPY.matcher(name);
                if (TEMPLATE.matcher(name).matches()) {
                    templates.add(e);
                } else if (copy.matches() && runGone(copy.group(1))) {
                    deleteQuietly(e);
                }
            }
            if (templates.size() > KEPT) {
                Map<Path, Long> used = new HashMap<>();
                for (Path t : templates) {
                    used.put(t, Files.getLastModifiedTime(t, LinkOption.NOFOLLOW_LINKS).toMillis());
                }
                templates.sort(Comparator.comparing(used::get));
                templates.subList(0, templates.size() - KEPT).forEach(StorageTemplate::delete);
            }
        } catch (IOException | RuntimeException e) {
            // the next run tries again
        }
    }

    /** Whether no process has the id a copy's name gives (a live one, even another's with a reused id, keeps it). */
    private static boolean runGone(String pid) {
        try {
            long id = Long.parseLong(pid);
            return id != ProcessHandle.current().pid() && ProcessHandle.of(id).isEmpty();
        } catch (NumberFormatException e) {
            return false;
        }
    }

    /** A name for a copy of this run's beside the template. */
    private Path copyName() {
        return folder.resolveSibling("." + folder.getFileName() + "-" + ProcessHandle.current().pid() + "-" + UUID.randomUUID());
    }

    /** Deletes a template by renaming it away first: a start seeding from it meanwhile fails whole, never half. */
    private static void delete(Path template) {
        Path away = new StorageTemplate(template).copyName();
        try {
            Files.move(template, away, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException | RuntimeException e) {
            return; // gone already, or not ours to move
        }
        deleteQuietly(away);
    }

    /** A folder only its owner can read (a template describes the server's bundles and components). */
    private static void createPrivate(Path dir) throws IOException {
        if (Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        if (FileSystems.getDefault().supportedFileAttributeViews().contains("posix")) {
            try {
                Files.createDirectories(dir.getParent());
                Files.createDirectory(dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
                return;
            } catch (FileAlreadyExistsException e) {
                return; // a concurrent run made it
            }
        }
        Files.createDirectories(dir);
    }

    /**
     * Copies a folder's files into {@code target}: bundle jars as hard links where the file system allows (they are
     * never written after their install), other files as copies; links are not followed. With {@code bundleOnly},
     * only what installing a bundle writes (its {@code bundle.info} and revision folders, not its data folder).
     */
    private static void copyTree(Path source, Path target, boolean bundleOnly) throws IOException {
        Files.walkFileTree(source, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) throws IOException {
                if (bundleOnly && dir.getParent() != null && dir.getParent().equals(source)
                        && "data".equals(dir.getFileName().toString())) {
                    return FileVisitResult.SKIP_SUBTREE;
                }
                Files.createDirectories(target.resolve(source.relativize(dir).toString()));
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                if (!attrs.isRegularFile()) {
                    return FileVisitResult.CONTINUE;
                }
                Path to = target.resolve(source.relativize(file).toString());
                if (JAR.equals(file.getFileName().toString())) {
                    try {
                        Files.createLink(to, file);
                        return FileVisitResult.CONTINUE;
                    } catch (IOException | UnsupportedOperationException e) {
                        // another file system, or none with links: a copy
                    }
                }
                Files.copy(file, to);
                return FileVisitResult.CONTINUE;
            }
        });
    }

    /** Empties a fresh storage again but for its lock files. */
    private static void clear(Path storage) throws IOException {
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(storage, "bundle*")) {
            for (Path e : entries) {
                deleteQuietly(e);
            }
        }
        Files.deleteIfExists(storage.resolve(BundleInstaller.FINGERPRINTS));
    }

    private static void deleteQuietly(Path root) {
        if (!Files.exists(root, LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        try {
            Storage.deleteTree(root);
        } catch (IOException e) {
            LOG.debug("Cannot delete {}: {}", root, e.toString());
        }
    }
}
