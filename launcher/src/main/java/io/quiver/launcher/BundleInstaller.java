package io.quiver.launcher;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.framework.BundleException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Installs the bundles of a {@link LaunchPlan} into an initialised (not yet started) framework.
 * With a persistent storage, a bundle installed by an earlier run is kept when its content is
 * unchanged, updated when it changed, and uninstalled when no feature names it any more; the
 * fingerprints live in {@code quiver-bundles.properties} in the storage folder. Bundles installed
 * by anybody else (FileInstall's {@code deploy/}) are left alone.
 */
final class BundleInstaller {

    private static final Logger LOG = LoggerFactory.getLogger(BundleInstaller.class);
    /** The location prefix of the bundles the features install. */
    static final String PREFIX = "quiver:";
    static final String FINGERPRINTS = "quiver-bundles.properties";

    private final BundleRepository repository;
    /** Whether a kept storage's bundles had to be changed: installed, updated or uninstalled. */
    private boolean changed;

    BundleInstaller(BundleRepository repository) {
        this.repository = repository;
    }

    /**
     * @param storage the framework's storage folder, or null when it is a fresh temporary one: nothing
     *                was installed before and nothing is kept, so no fingerprints are taken or written
     * @return the installed bundles in plan order
     */
    List<Bundle> install(BundleContext context, LaunchPlan plan, Path storage) throws IOException, BundleException {
        List<String> missing = new ArrayList<>();
        List<BundleRepository.Source> sources = new ArrayList<>();
        for (LaunchPlan.Step step : plan.bundles()) {
            repository.find(step.id()).ifPresentOrElse(sources::add,
                    () -> missing.add(step.id() + " (feature " + step.feature() + "): looked for " + repository.describe(step.id())));
        }
        if (!missing.isEmpty()) {
            throw new IllegalStateException("bundles not found:\n  " + String.join("\n  ", missing));
        }
        List<Bundle> installed = new ArrayList<>();
        if (storage == null) {
            for (BundleRepository.Source source : sources) {
                installed.add(install(context, source));
            }
            return installed;
        }

        Map<String, Bundle> previous = new HashMap<>();
        for (Bundle b : context.getBundles()) {
            if (b.getLocation().startsWith(PREFIX)) {
                previous.put(b.getLocation(), b);
            }
        }
        // the stale ones go first: a bundle a feature now names at another location (an artifact renamed, say) has
        // the same symbolic name and version, which the framework refuses twice
        Set<String> named = new HashSet<>();
        sources.forEach(source -> named.add(source.location()));
        for (Bundle stale : previous.values()) {
            if (!named.contains(stale.getLocation())) {
                LOG.info("Uninstalling {}: no feature names it any more, or the launcher's class path provides it",
                        stale.getLocation());
                stale.uninstall();
                changed = true;
            }
        }
        Path fingerprintFile = storage.resolve(FINGERPRINTS);
        Properties before = load(fingerprintFile);
        Properties after = new Properties();
        for (BundleRepository.Source source : sources) {
            String fingerprint = source.fingerprint();
            after.setProperty(source.location(), fingerprint);
            Bundle existing = previous.get(source.location());
            if (existing == null) {
                installed.add(install(context, source));
                changed = true;
            } else if (fingerprint.equals(before.getProperty(source.location()))) {
                installed.add(existing);
            } else {
                LOG.info("Updating {}: its content changed since the last run", source.location());
                try (InputStream in = source.open()) {
                    existing.update(in);
                }
                installed.add(existing);
                changed = true;
            }
        }
        if (!after.equals(before)) {
            try (OutputStream out = Files.newOutputStream(fingerprintFile)) {
                after.store(out, "Quiver: fingerprints of the installed feature bundles");
            }
        }
        return installed;
    }

    /** Whether the last {@link #install} into a kept storage installed, updated or uninstalled a bundle. */
    boolean changed() {
        return changed;
    }

    private static Bundle install(BundleContext context, BundleRepository.Source source) throws IOException, BundleException {
        try (InputStream in = source.open()) {
            return context.installBundle(source.location(), in);
        }
    }

    private static Properties load(Path file) throws IOException {
        Properties p = new Properties();
        if (Files.isRegularFile(file)) {
            try (InputStream in = Files.newInputStream(file)) {
                p.load(in);
            }
        }
        return p;
    }
}
