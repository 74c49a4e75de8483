package io.quiver.deployer.internal;

import io.quiver.lib.config.TypedConfig;
import io.quiver.lib.feature.platform.PlatformLibraries;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Hashtable;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.felix.fileinstall.ArtifactInstaller;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.framework.BundleException;
import org.osgi.service.cm.Configuration;
import org.osgi.service.cm.ConfigurationAdmin;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.metatype.annotations.Designate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Installs a Feature file dropped into the deploy folder: its bundles (found beside it in
 * {@code bundles/} or in a local Maven repository; bundles already installed are left alone) and its
 * configurations. Deleting the file uninstalls what it installed and deletes its configurations;
 * changing it does both and installs again.
 */
@Component(service = ArtifactInstaller.class, configurationPid = DeployerConfig.PID, immediate = true)
@Designate(ocd = DeployerConfig.class)
public final class FeatureInstaller implements ArtifactInstaller {

    private static final Logger LOG = LoggerFactory.getLogger("io.quiver.deploy");
    private static final String LOCATION = "feature:";

    private final BundleContext context;
    private final ConfigurationAdmin configurationAdmin;
    private final DeployProblems problems;
    private final BundleLocator locator;
    /** What the server's class path provides in place of bundles: fixed for the framework's life. */
    private final PlatformLibraries platformLibraries;
    private final Map<Path, Installed> installed = new ConcurrentHashMap<>();

    private record Installed(String featureId, List<Bundle> bundles, List<String> pids) {
    }

    @Activate
    public FeatureInstaller(BundleContext context, @Reference ConfigurationAdmin configurationAdmin,
            @Reference DeployProblems problems, Map<String, Object> properties) {
        this.context = context;
        this.configurationAdmin = configurationAdmin;
        this.problems = problems;
        this.platformLibraries = PlatformLibraries.parse(context.getProperty(PlatformLibraries.PROPERTY));
        DeployerConfig config = TypedConfig.read(DeployerConfig.class, properties, null).config();
        List<Path> repositories = new ArrayList<>();
        for (String r : config.mavenRepositories()) {
            if (!r.isBlank()) {
                repositories.add(Path.of(r.trim()));
            }
        }
        if (repositories.isEmpty()) {
            repositories.add(Path.of(System.getProperty("user.home"), ".m2", "repository"));
        }
        this.locator = new BundleLocator(repositories);
    }

    /** Every {@code .json} file: one that is not a valid feature is refused with a reason, not ignored. */
    @Override
    public boolean canHandle(File artifact) {
        return artifact.getName().toLowerCase(Locale.ROOT).endsWith(".json");
    }

    /** Installs a feature, or says why not. Never throws: FileInstall would only try again, silently. */
    @Override
    public synchronized void install(File artifact) {
        problems.clear(artifact);
        try {
            installFeature(artifact);
        } catch (Exception e) {
            problems.report(artifact, "refused: " + oneLine(e));
        }
    }

    private static String oneLine(Exception e) {
        String message = e.getMessage() == null ? e.toString() : e.getMessage();
        int newline = message.indexOf('\n');
        return (newline < 0 ? message : message.substring(0, newline)).trim();
    }

    private void installFeature(File artifact) throws Exception {
        Path path = artifact.toPath().toAbsolutePath();
        FeatureFile feature = FeatureFile.read(artifact);
        List<Path> jars = new ArrayList<>();
        for (FeatureFile.BundleRef ref : feature.bundles()) {
            Path jar = locator.find(path, ref);
            if (jar == null && !alreadyInstalled(ref)) {
                throw new IOException("feature " + feature.id() + ": bundle " + ref.coordinates()
                        + " not found beside the feature (bundles/) nor in a local Maven repository");
            }
            jars.add(jar);
        }
        List<String> pids = new ArrayList<>();
        for (Map.Entry<String, Map<String, Object>> c : feature.configurations().entrySet()) {
            configuration(c.getKey()).update(new Hashtable<>(c.getValue()));
            pids.add(c.getKey());
        }
        List<Bundle> bundles = new ArrayList<>();
        for (int i = 0; i < jars.size(); i++) {
            Path jar = jars.get(i);
            FeatureFile.BundleRef ref = feature.bundles().get(i);
            if (jar == null || alreadyInstalled(ref)) {
                continue;
            }
            try (InputStream in = Files.newInputStream(jar)) {
                bundles.add(context.installBundle(LOCATION + feature.id() + "/" + ref.coordinates(), in));
            }
        }
        List<String> failed = new ArrayList<>();
        for (Bundle bundle : bundles) {
            try {
                if (bundle.getHeaders().get("Fragment-Host") == null) {
                    bundle.start();
                }
            } catch (BundleException e) {
                failed.add(bundle.getSymbolicName() + ": " + e.getMessage());
            }
        }
        installed.put(path, new Installed(feature.id(), bundles, pids));
        if (!failed.isEmpty()) {
            problems.report(artifact, "installed feature " + feature.id() + " but " + failed.size()
                    + " of its bundles did not start: " + String.join("; ", failed));
        }
        LOG.info("Installed feature {} from {}: {} bundles, {} configurations", feature.id(), artifact,
                bundles.size(), pids.size());
    }

    @Override
    public synchronized void update(File artifact) throws Exception {
        uninstall(artifact);
        install(artifact);
    }

    @Override
    public synchronized void uninstall(File artifact) throws Exception {
        problems.clear(artifact);
        Installed previous = installed.remove(artifact.toPath().toAbsolutePath());
        if (previous == null) {
            return;
        }
        for (Bundle bundle : previous.bundles()) {
            try {
                bundle.uninstall();
            } catch (BundleException | IllegalStateException e) {
                LOG.warn("Feature {}: could not uninstall {}: {}", previous.featureId(), bundle.getSymbolicName(),
                        e.getMessage());
            }
        }
        for (String pid : previous.pids()) {
            configuration(pid).delete();
        }
        LOG.info("Uninstalled feature {}", previous.featureId());
    }

    private boolean alreadyInstalled(FeatureFile.BundleRef ref) {
        if (platformLibraries.provides(ref.coordinates())) {
            return true; // the server's class path provides it in place of its bundle
        }
        String embedded = "/" + ref.groupId() + "." + ref.artifactId() + "-" + ref.version() + ".jar";
        for (Bundle b : context.getBundles()) {
            String location = b.getLocation();
            if (location.endsWith(embedded) || location.endsWith("/" + ref.coordinates())) {
                return true;
            }
        }
        return false;
    }

    private Configuration configuration(String pid) throws IOException {
        int tilde = pid.indexOf('~');
        return tilde > 0
                ? configurationAdmin.getFactoryConfiguration(pid.substring(0, tilde), pid.substring(tilde + 1), "?")
                : configurationAdmin.getConfiguration(pid, "?");
    }
}
