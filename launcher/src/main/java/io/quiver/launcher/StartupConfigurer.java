package io.quiver.launcher;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Brings configuration in while the bundles start, so that components activate with it:
 * as soon as Configuration Admin is up, the features' configurations and the {@code etc/} watcher
 * are applied; as soon as FileInstall is up, the start waits (briefly) until every file of
 * {@code etc/} is a configuration.
 * <p>
 * An {@code etc/} file wins over a feature configuration of the same PID: FileInstall replaces the
 * feature's properties with the file's, and a configuration that came from a file is never
 * overwritten by a feature on a later start.
 */
final class StartupConfigurer implements Consumer<Bundle> {

    private static final Logger LOG = LoggerFactory.getLogger(StartupConfigurer.class);
    private static final String FILEINSTALL = "org.apache.felix.fileinstall";
    /** How much longer the start waits for a file of the trust boundary before it refuses to go on without it. */
    static final long GUARDS_TIMEOUT_MS = 10_000;

    private final BundleContext context;
    private final Map<String, Map<String, Object>> configurations;
    private final DirectoryWatch watch;
    private final long etcTimeoutMs;
    private ConfigAdminBridge configAdmin;
    private boolean etcAwaited;

    StartupConfigurer(BundleContext context, Map<String, Map<String, Object>> configurations,
                      DirectoryWatch watch, long etcTimeoutMs) {
        this.context = context;
        this.configurations = configurations;
        this.watch = watch;
        this.etcTimeoutMs = etcTimeoutMs;
    }

    @Override
    public void accept(Bundle started) {
        if (configAdmin == null) {
            Optional<ConfigAdminBridge> found = ConfigAdminBridge.find(context);
            if (found.isEmpty()) {
                return;
            }
            configAdmin = found.get();
            removeLeftOvers();
            applyFeatureConfigurations();
            configAdmin.apply(DirectoryWatch.ETC_PID, watch.etcConfiguration());
        }
        if (!etcAwaited && isActive(FILEINSTALL)) {
            etcAwaited = true;
            awaitEtc();
        }
    }

    /**
     * Whether the configuration is in place: the features' and {@code etc/}'s configurations are
     * in Configuration Admin (FileInstall has applied {@code etc/}, or given up waiting).
     */
    boolean configured() {
        return configAdmin != null && etcAwaited;
    }

    /** Warns about what could not be done because a bundle was missing. */
    void finish() {
        if (configAdmin == null) {
            LOG.warn("No Configuration Admin service: {} feature configuration(s) and {} are not applied",
                    configurations.size(), watch.etc());
        } else if (!etcAwaited) {
            LOG.warn("FileInstall is not active: {} and {} are not watched", watch.etc(), watch.deploy());
        }
    }

    /**
     * Removes the configurations a kept framework storage holds from files that are not in {@code etc/} now: deleted
     * while the server was stopped, or in another folder than this start's {@code etc/}. FileInstall removes the
     * configuration of a file deleted while it runs, but never learns of one deleted before it started; the
     * configuration (an API key, a grant, a setting) would stay in force, and "delete the file to revoke it" would not
     * hold across a restart.
     */
    private void removeLeftOvers() {
        Path realEtc;
        try {
            realEtc = watch.etc().toRealPath();
        } catch (IOException e) {
            realEtc = watch.etc(); // not there yet: no file is in it
        }
        Path in = realEtc;
        for (Map<String, Object> gone : configAdmin.deleteIf("(" + DirectoryWatch.FILENAME + "=*)",
                p -> !DirectoryWatch.holds(in, String.valueOf(p.get(DirectoryWatch.FILENAME))))) {
            LOG.info("Configuration {} came from {}, which is not in {} now: removed", gone.get("service.pid"),
                    gone.get(DirectoryWatch.FILENAME), watch.etc());
        }
    }

    private void applyFeatureConfigurations() {
        for (Map.Entry<String, Map<String, Object>> c : configurations.entrySet()) {
            Map<String, Object> current = configAdmin.properties(c.getKey());
            if (current != null && current.containsKey(DirectoryWatch.FILENAME)) {
                LOG.info("Configuration {} comes from {}; the feature's is not applied",
                        c.getKey(), current.get(DirectoryWatch.FILENAME));
                continue;
            }
            try {
                configAdmin.apply(c.getKey(), c.getValue());
            } catch (RuntimeException e) {
                LOG.error("Cannot apply the feature configuration {}: {}", c.getKey(), e.getMessage(), e);
            }
        }
    }

    private void awaitEtc() {
        try {
            List<String> missing = watch.awaitEtcApplied(configAdmin, etcTimeoutMs);
            List<String> guarding = missing.stream().filter(StartupConfigurer::guards).toList();
            if (!guarding.isEmpty()) {
                // a machine that is only slow gets longer before the start is refused
                missing = watch.awaitEtcApplied(configAdmin, GUARDS_TIMEOUT_MS);
                guarding = missing.stream().filter(StartupConfigurer::guards).toList();
            }
            if (!guarding.isEmpty()) {
                throw new IllegalStateException("FileInstall could not read " + String.join(", ", guarding) + " in "
                        + watch.etc() + " (the log above says why): without it, what it grants, denies or"
                        + " authenticates would not hold, so the server does not start");
            }
            if (!missing.isEmpty()) {
                LOG.warn("FileInstall has not applied {} from {} after {} ms; starting anyway",
                        missing, watch.etc(), etcTimeoutMs);
            }
        } catch (IOException e) {
            LOG.warn("Cannot list {}: {}", watch.etc(), e.toString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Whether an {@code etc/} file is one of the trust boundary's: permissions, grants, credentials. */
    static boolean guards(String fileName) {
        return fileName.startsWith("io.quiver.permissions") || fileName.startsWith("io.quiver.auth.");
    }

    private boolean isActive(String symbolicName) {
        for (Bundle b : context.getBundles()) {
            if (symbolicName.equals(b.getSymbolicName()) && b.getState() == Bundle.ACTIVE) {
                return true;
            }
        }
        return false;
    }
}
