package io.quiver.launcher;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.slf4j.LoggerFactory;

/**
 * The two folders Apache Felix FileInstall watches (poll every second, first scan at once):
 * <ul>
 * <li>{@code deploy/}: bundles ({@code *.jar}) copied in are installed and started, removed ones are
 * uninstalled. This is FileInstall's initial watcher, set up by framework properties.</li>
 * <li>{@code etc/}: configurations ({@code *.cfg} as Java properties, {@code *.config} in the Felix
 * format); the file name is the PID ({@code pid.cfg}, or {@code factoryPid-name.cfg}). This is a
 * factory configuration of FileInstall's {@code org.apache.felix.fileinstall} PID, created through
 * Configuration Admin. The files are the source of truth: changes made through Configuration Admin
 * are not written back.</li>
 * </ul>
 */
final class DirectoryWatch {

    static final String FACTORY_PID = "org.apache.felix.fileinstall";
    static final String ETC_PID = FACTORY_PID + "~quiver-etc";
    /** The property FileInstall puts on every configuration it made from a file. */
    static final String FILENAME = "felix.fileinstall.filename";
    static final String ETC_FILTER = ".*\\.(cfg|config)";
    /** Bundles, and OSGi Feature files (installed by the io.quiver.deployer bundle). */
    static final String DEPLOY_FILTER = ".*\\.(jar|json)";
    static final String POLL_MS = "1000";
    /** deploy/ is polled faster: FileInstall takes a new file once two polls see it unchanged. */
    static final String DEPLOY_POLL_MS = "100";
    /** The framework start level at which deploy/ is watched. */
    static final int DEPLOY_START_LEVEL = 2;

    private final Path etc;
    private final Path deploy;
    /** Where FileInstall's watchers keep their temporary files; null: FileInstall's default. */
    private Path temporary;

    DirectoryWatch(Path etc, Path deploy) {
        this.etc = etc.toAbsolutePath().normalize();
        this.deploy = deploy.toAbsolutePath().normalize();
    }

    /**
     * Keeps FileInstall's temporary folders in the framework storage: by default each watcher makes one
     * ({@code fileinstall-<random>}) in the JDK's temporary folder at every start and a killed server leaves
     * them there; in the storage they go with it.
     */
    void keepTemporaryFilesIn(Path storage) throws IOException {
        temporary = storage;
        Files.createDirectories(storage.resolve(TEMPORARY_DEPLOY));
        Files.createDirectories(storage.resolve(TEMPORARY_ETC));
    }

    private static final String TEMPORARY_DEPLOY = "fileinstall-deploy";
    private static final String TEMPORARY_ETC = "fileinstall-etc";

    /**
     * Creates both folders if they are missing. A missing {@code etc/} is said in the log: a mistyped {@code --etc}
     * would otherwise start a server without the keys, grants and settings meant for it.
     */
    void createFolders() throws IOException {
        if (!Files.exists(etc)) {
            LoggerFactory.getLogger(DirectoryWatch.class).warn("{} did not exist: created empty, so no setting, key"
                    + " or grant of a file applies (is --etc right?)", etc);
        }
        Files.createDirectories(etc);
        Files.createDirectories(deploy);
    }

    /**
     * Framework properties for FileInstall's initial watcher: {@code deploy/}. It looks at the folder
     * only once the framework reaches start level {@value #DEPLOY_START_LEVEL}, which the launcher
     * sets after every feature bundle started: so the deployer's installers, which keep deploy/ from
     * touching the platform, handle every file, also those present at start-up.
     */
    Map<String, String> frameworkProperties() {
        Map<String, String> p = common();
        p.put("felix.fileinstall.dir", deploy.toString());
        p.put("felix.fileinstall.filter", DEPLOY_FILTER);
        p.put("felix.fileinstall.bundles.new.start", "true");
        p.put("felix.fileinstall.poll", DEPLOY_POLL_MS);
        p.put("felix.fileinstall.noInitialDelay", "false");
        p.put("felix.fileinstall.active.level", Integer.toString(DEPLOY_START_LEVEL));
        // deploy/bundles/ holds the jars feature files name; they are not bundles to install on their own
        p.put("felix.fileinstall.subdir.mode", "skip");
        if (temporary != null) {
            p.put("felix.fileinstall.tmpdir", temporary.resolve(TEMPORARY_DEPLOY).toString());
        }
        return p;
    }

    /** The FileInstall factory configuration that watches {@code etc/}. */
    Map<String, Object> etcConfiguration() {
        Map<String, Object> p = new LinkedHashMap<>(common());
        p.put("felix.fileinstall.dir", etc.toString());
        p.put("felix.fileinstall.filter", ETC_FILTER);
        if (temporary != null) {
            p.put("felix.fileinstall.tmpdir", temporary.resolve(TEMPORARY_ETC).toString());
        }
        return p;
    }

    private static Map<String, String> common() {
        Map<String, String> p = new LinkedHashMap<>();
        p.put("felix.fileinstall.poll", POLL_MS);
        p.put("felix.fileinstall.noInitialDelay", "true");
        p.put("felix.fileinstall.enableConfigSave", "false");
        // java.util.logging (stderr), not FileInstall's default of stdout; warnings and errors only
        p.put("felix.fileinstall.log.default", "jul");
        p.put("felix.fileinstall.log.level", "2");
        return p;
    }

    /** The configuration files in {@code etc/} now, by file name. */
    List<String> etcFiles() throws IOException {
        if (!Files.isDirectory(etc)) {
            return List.of();
        }
        Pattern filter = Pattern.compile(ETC_FILTER);
        try (Stream<Path> files = Files.list(etc)) {
            return files.filter(Files::isRegularFile)
                    .map(f -> f.getFileName().toString())
                    .filter(n -> filter.matcher(n).matches())
                    .sorted()
                    .toList();
        }
    }

    /**
     * Waits until FileInstall has turned every file of {@code etc/} into a configuration, so that
     * components see their configuration when they first activate.
     *
     * @return the files still not applied when the time ran out (empty when all were)
     */
    List<String> awaitEtcApplied(ConfigAdminBridge configAdmin, long timeoutMs) throws IOException, InterruptedException {
        List<String> expected = etcFiles();
        long deadline = System.nanoTime() + timeoutMs * 1_000_000L;
        while (true) {
            List<String> missing = new ArrayList<>(expected);
            for (Map<String, Object> c : configAdmin.select("(" + FILENAME + "=*)")) {
                String file = String.valueOf(c.get(FILENAME));
                missing.removeIf(name -> file.endsWith("/" + name));
            }
            if (missing.isEmpty() || System.nanoTime() > deadline) {
                return missing;
            }
            Thread.sleep(10);
        }
    }

    /**
     * Whether a file FileInstall named ({@value #FILENAME}: a {@code file:} URL or a path) is in the folder
     * {@code realEtc} (the real path of {@code etc/}) now, by its real path.
     */
    static boolean holds(Path realEtc, String filename) {
        try {
            Path file = filename.startsWith("file:") ? Path.of(URI.create(filename)) : Path.of(filename);
            return Files.isRegularFile(file) && file.toRealPath().getParent().equals(realEtc);
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    Path etc() {
        return etc;
    }

    Path deploy() {
        return deploy;
    }
}
