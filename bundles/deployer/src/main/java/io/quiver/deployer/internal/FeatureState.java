package io.quiver.deployer.internal;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Which feature files of deploy/ are installed, the bundles each names and the configurations each
 * created, kept in the deployer's bundle data so that it outlives a restart with a kept framework
 * storage: a feature file deleted then (or while the server was stopped) must still take its bundles
 * and configurations with it, and nothing it did not create.
 */
final class FeatureState {

    private static final Logger LOG = LoggerFactory.getLogger("io.quiver.deploy");
    private static final String FILE = "file.";
    private static final String BUNDLES = "bundles.";
    private static final String CONFIG = "config.";

    private final File store;
    private final Properties entries = new Properties();
    /** Whether a record was there to read: none, and the deploy/ folder's features are from an older deployer. */
    private final boolean existed;

    /** @param store where the state is kept, or null to keep it only in memory */
    FeatureState(File store) {
        this.store = store;
        this.existed = store != null && store.isFile();
        if (existed) {
            try (InputStream in = Files.newInputStream(store.toPath())) {
                entries.load(in);
            } catch (IOException e) {
                LOG.warn("Cannot read {}: the features of deploy/ are taken as not installed: {}", store, e.getMessage());
            }
        }
    }

    /** Whether there was a record when the deployer started. */
    boolean existed() {
        return existed;
    }

    /** Records a feature file as installed, naming these bundles ({@code group:artifact:version}). */
    void installed(String file, String featureId, List<String> coordinates) {
        entries.setProperty(FILE + file, featureId);
        entries.setProperty(BUNDLES + file, String.join(",", coordinates));
        save();
    }

    /** The feature id of an installed file, or null. */
    String featureOf(String file) {
        return entries.getProperty(FILE + file);
    }

    /** The feature files recorded as installed. */
    Set<String> files() {
        Set<String> files = new TreeSet<>();
        for (String key : entries.stringPropertyNames()) {
            if (key.startsWith(FILE)) {
                files.add(key.substring(FILE.length()));
            }
        }
        return files;
    }

    /** Forgets an installed file (not the configurations its feature created). */
    void removed(String file) {
        entries.remove(FILE + file);
        entries.remove(BUNDLES + file);
        save();
    }

    /** The bundles ({@code group:artifact:version}) that the installed features name, all together. */
    Set<String> namedBundles() {
        Set<String> named = new TreeSet<>();
        for (String key : entries.stringPropertyNames()) {
            if (key.startsWith(BUNDLES)) {
                Arrays.stream(entries.getProperty(key).split(",")).filter(s -> !s.isEmpty()).forEach(named::add);
            }
        }
        return named;
    }

    /** Records that a feature created the configuration of a PID (there was none before). */
    void created(String pid, String featureId) {
        entries.setProperty(CONFIG + pid, featureId);
        save();
    }

    /** The PIDs whose configurations a feature created. */
    List<String> createdBy(String featureId) {
        List<String> pids = new ArrayList<>();
        for (String key : entries.stringPropertyNames()) {
            if (key.startsWith(CONFIG) && featureId.equals(entries.getProperty(key))) {
                pids.add(key.substring(CONFIG.length()));
            }
        }
        return pids;
    }

    /** Forgets who created the configuration of a PID (it was deleted). */
    void forget(String pid) {
        entries.remove(CONFIG + pid);
        save();
    }

    private void save() {
        if (store == null) {
            return;
        }
        // written beside and moved in place: a crash mid-write leaves the last whole record, not half of one
        Path next = store.toPath().resolveSibling(store.getName() + ".next");
        try {
            try (OutputStream out = Files.newOutputStream(next)) {
                entries.store(out, "Feature files installed from deploy/ (io.quiver.deployer)");
            }
            Files.move(next, store.toPath(), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            LOG.warn("Cannot write {}: after a restart the features of deploy/ may not be removed: {}", store,
                    e.getMessage());
        }
    }
}
