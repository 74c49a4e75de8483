package io.quiver.launcher;

import java.io.IOException;
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

    private boolean isActive(String symbolicName) {
        for (Bundle b : context.getBundles()) {
            if (symbolicName.equals(b.getSymbolicName()) && b.getState() == Bundle.ACTIVE) {
                return true;
            }
        }
        return false;
    }
}
