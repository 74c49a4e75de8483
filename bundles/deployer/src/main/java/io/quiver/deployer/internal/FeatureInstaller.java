package io.quiver.deployer.internal;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Hashtable;
import java.util.List;
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
import org.osgi.service.metatype.annotations.AttributeDefinition;
import org.osgi.service.metatype.annotations.Designate;
import org.osgi.service.metatype.annotations.ObjectClassDefinition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Installs a Feature file dropped into the deploy folder: its bundles (found beside it in
 * {@code bundles/} or in a local Maven repository; bundles already installed are left alone) and its
 * configurations. Deleting the file uninstalls what it installed and deletes its configurations;
 * changing it does both and installs again.
 */
@Component(service = ArtifactInstaller.class, configurationPid = "io.quiver.deployer")
@Designate(ocd = FeatureInstaller.Config.class)
public final class FeatureInstaller implements ArtifactInstaller {

    /** Where feature bundles come from. */
    @ObjectClassDefinition(name = "Quiver feature deployer")
    public @interface Config {
        @AttributeDefinition(description = "Local Maven repositories searched for feature bundles; empty: ~/.m2/repository")
        String[] mavenRepositories() default {};
    }

    private static final Logger LOG = LoggerFactory.getLogger(FeatureInstaller.class);
    private static final String LOCATION = "feature:";

    private final BundleContext context;
    private final ConfigurationAdmin configurationAdmin;
    private final BundleLocator locator;
    private final Map<Path, Installed> installed = new ConcurrentHashMap<>();

    private record Installed(String featureId, List<Bundle> bundles, List<String> pids) {
    }

    @Activate
    public FeatureInstaller(BundleContext context, @Reference ConfigurationAdmin configurationAdmin, Config config) {
        this.context = context;
        this.configurationAdmin = configurationAdmin;
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

    @Override
    public boolean canHandle(File artifact) {
        return FeatureFile.isFeature(artifact);
    }

    @Override
    public synchronized void install(File artifact) throws Exception {
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
        for (Bundle bundle : bundles) {
            try {
                if (bundle.getHeaders().get("Fragment-Host") == null) {
                    bundle.start();
                }
            } catch (BundleException e) {
                LOG.error("Feature {}: bundle {} did not start: {}", feature.id(), bundle.getSymbolicName(),
                        e.getMessage());
            }
        }
        installed.put(path, new Installed(feature.id(), bundles, pids));
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
