package io.quiver.deployer.internal;

import io.quiver.lib.config.TypedConfig;
import io.quiver.lib.feature.platform.BundleJar;
import io.quiver.lib.feature.platform.NameHolder;
import io.quiver.lib.feature.platform.PlatformLibraries;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Dictionary;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Hashtable;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeoutException;
import org.apache.felix.fileinstall.ArtifactInstaller;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.framework.BundleException;
import org.osgi.framework.Constants;
import org.osgi.service.cm.Configuration;
import org.osgi.service.cm.ConfigurationAdmin;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Modified;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.metatype.annotations.Designate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Installs a Feature file dropped into the deploy folder: its bundles (found beside it in
 * {@code bundles/} or in a local Maven repository; bundles already installed are left alone) and its
 * configurations. Deleting the file uninstalls what it installed and deletes its configurations;
 * changing it does both and installs again.
 *
 * <ul>
 * <li>A bundle whose symbolic name is held already (the platform, any other bundle) refuses the
 * feature, as a jar dropped into deploy/ is refused.</li>
 * <li>A configuration whose PID a file of etc/ configures is not applied (etc/ wins) and is listed as
 * a problem; removing the feature deletes only the configurations it created and restores the ones it
 * replaced.</li>
 * <li>A bundle two features name stays until neither is installed.</li>
 * <li>An install that fails halfway takes back what it did.</li>
 * <li>What is installed is recorded in the bundle's data, so that a feature file deleted while the
 * server was stopped (with a kept framework storage) is removed at the next start.</li>
 * </ul>
 */
@Component(service = {ArtifactInstaller.class, FeatureInstaller.class}, configurationPid = DeployerConfig.PID, immediate = true)
@Designate(ocd = DeployerConfig.class)
public final class FeatureInstaller implements ArtifactInstaller {

    private static final Logger LOG = LoggerFactory.getLogger("io.quiver.deploy");
    private static final String LOCATION = "feature:";
    /** The property Felix FileInstall puts on a configuration it read from a file of etc/. */
    static final String FILENAME = "felix.fileinstall.filename";
    /** The framework property naming the deploy folder (set by the launcher). */
    static final String DEPLOY_FOLDER = "quiver.deploy";
    private static final String STATE = "deployed-features.properties";

    private final BundleContext context;
    private final ConfigurationAdmin configurationAdmin;
    private final DeployProblems problems;
    /**
     * The settings of {@code io.quiver.deployer}, changed in place: a component activated again for a changed setting
     * would forget what the installed features replaced, and FileInstall would hand every feature file over again.
     */
    private volatile Settings settings;
    /** What the server's class path provides in place of bundles: fixed for the framework's life. */
    private final PlatformLibraries platformLibraries;
    /** Installed feature files and what their features created, kept across restarts. */
    private final FeatureState state;
    /** The files the first pass took on, until FileInstall hands them over. */
    private final PassedFiles passed;
    /** Per installed feature file, the configurations it replaced with their properties before (this run only). */
    private final Map<String, Map<String, Dictionary<String, Object>>> replaced = new HashMap<>();

    /** Without a first pass (tests): nothing is taken on. */
    FeatureInstaller(BundleContext context, ConfigurationAdmin configurationAdmin, DeployProblems problems,
            Map<String, Object> properties) {
        this(context, configurationAdmin, problems, new PassedFiles(), properties);
    }

    @Activate
    public FeatureInstaller(BundleContext context, @Reference ConfigurationAdmin configurationAdmin,
            @Reference DeployProblems problems, @Reference PassedFiles passed, Map<String, Object> properties) {
        this.context = context;
        this.passed = passed;
        this.configurationAdmin = configurationAdmin;
        this.problems = problems;
        this.platformLibraries = PlatformLibraries.parse(context.getProperty(PlatformLibraries.PROPERTY));
        modified(properties);
        this.state = new FeatureState(context.getDataFile(STATE));
        synchronized (this) {
            reconcile(context.getProperty(DEPLOY_FOLDER));
        }
    }

    /** What {@code io.quiver.deployer} sets for feature files. */
    private record Settings(DeployerConfig config, BundleLocator locator) {
    }

    @Modified
    void modified(Map<String, Object> properties) {
        Settings before = settings;
        DeployerConfig config = TypedConfig.read(DeployerConfig.class, properties, before == null ? null : before.config())
                .config();
        List<Path> repositories = new ArrayList<>();
        for (String r : config.mavenRepositories()) {
            if (!r.isBlank()) {
                repositories.add(Path.of(r.trim()));
            }
        }
        if (repositories.isEmpty()) {
            repositories.add(Path.of(System.getProperty("user.home"), ".m2", "repository"));
        }
        settings = new Settings(config, new BundleLocator(repositories));
    }

    /** Every {@code .json} file: one that is not a valid feature is refused with a reason, not ignored. */
    @Override
    public boolean canHandle(File artifact) {
        return artifact.getName().toLowerCase(Locale.ROOT).endsWith(".json");
    }

    /** Installs a feature, or says why not. Never throws: FileInstall would only try again, silently. */
    @Override
    public void install(File artifact) {
        if (!passed.handedOverAgain(artifact)) { // not under the lock: the pass may hold it for long
            installNow(artifact);
        }
    }

    private synchronized void installNow(File artifact) {
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
        Map<String, BundleJar> jars = new LinkedHashMap<>(); // by location: the bundles to install, checked as read
        try {
            installFeature(artifact, path, feature, jars);
        } finally {
            jars.values().forEach(BundleJar::close);
        }
    }

    private void installFeature(File artifact, Path path, FeatureFile feature, Map<String, BundleJar> jars)
            throws Exception {
        Set<String> names = new HashSet<>();
        Settings now = settings;
        BundleLocator locator = now.locator();
        long maxFileBytes = now.config().maxFileBytes();
        for (FeatureFile.BundleRef ref : feature.bundles()) {
            if (alreadyInstalled(ref)) {
                continue;
            }
            Path jar = locator.find(path, ref);
            if (jar == null) {
                throw new IOException("feature " + feature.id() + ": bundle " + ref.coordinates()
                        + " not found beside the feature (bundles/) nor in a local Maven repository");
            }
            if (Files.size(jar) > maxFileBytes) {
                throw new IOException("feature " + feature.id() + ": bundle " + ref.coordinates() + " (" + jar + ") is "
                        + Files.size(jar) + " bytes, more than maxFileBytes (" + maxFileBytes + ") of configuration "
                        + DeployerConfig.PID);
            }
            BundleJar content = BundleJar.read(jar.toUri().toString()); // checked and installed from the same copy
            jars.put(LOCATION + feature.id() + "/" + ref.coordinates(), content);
            checkName(feature, ref, content, names);
        }
        Undo undo = new Undo(feature.id());
        List<String> notApplied = new ArrayList<>();
        List<Bundle> bundles = undo.bundles;
        try {
            for (Map.Entry<String, Map<String, Object>> c : feature.configurations().entrySet()) {
                apply(c.getKey(), c.getValue(), undo, notApplied);
            }
            for (Map.Entry<String, BundleJar> jar : jars.entrySet()) {
                bundles.add(jar.getValue().install(context, jar.getKey()));
            }
        } catch (Exception | LinkageError e) {
            undo.run();
            throw e;
        }
        String file = path.toString();
        state.installed(file, feature.id(), feature.bundles().stream().map(FeatureFile.BundleRef::coordinates).toList());
        replaced.put(file, undo.replaced);
        sweep(); // the bundles an earlier version of the file named and this one does not
        List<String> failed = new ArrayList<>();
        for (Bundle bundle : bundles) {
            try {
                if (bundle.getHeaders("").get(Constants.FRAGMENT_HOST) == null) {
                    BoundedStart.start(bundle, now.config().startTimeoutMs());
                }
            } catch (BundleException | IllegalStateException e) {
                failed.add(bundle.getSymbolicName() + ": " + e.getMessage());
            } catch (TimeoutException e) {
                failed.add(bundle.getSymbolicName() + ": " + BoundedStart.tooLong(now.config().startTimeoutMs()));
            }
        }
        List<String> told = new ArrayList<>(notApplied);
        if (!failed.isEmpty()) {
            told.add(failed.size() + " of its bundles did not start: " + String.join("; ", failed));
        }
        if (!told.isEmpty()) {
            problems.report(artifact, "installed feature " + feature.id() + " but " + String.join("; ", told));
        }
        LOG.info("Installed feature {} from {}: {} bundles, {} configurations", feature.id(), artifact,
                bundles.size(), feature.configurations().size() - notApplied.size());
    }

    /**
     * Refuses a feature bundle whose symbolic name is held already, as {@link BundleDeployer} refuses a
     * jar dropped directly: a feature must not bring a second copy of a platform bundle (or of any other)
     * by naming it under other coordinates.
     */
    private void checkName(FeatureFile feature, FeatureFile.BundleRef ref, BundleJar jar, Set<String> names)
            throws IOException {
        String name = jar.symbolicName();
        String bundle = "feature " + feature.id() + ": bundle " + ref.coordinates();
        if (name == null) {
            throw new IOException(bundle + " is not an OSGi bundle: no manifest with a Bundle-SymbolicName");
        }
        if (!names.add(name)) {
            throw new IOException(bundle + " is " + name + ", which the feature names twice");
        }
        String own = LOCATION + feature.id() + "/"; // an earlier install of this feature may hold it
        Optional<NameHolder> holder = NameHolder.of(platformLibraries, context, name,
                b -> b.getLocation().startsWith(own));
        if (holder.isPresent()) {
            NameHolder h = holder.get();
            String by = h.platform() ? "the running platform" : h.bundle().getLocation();
            throw new IOException(bundle + " is " + name + ", which " + by + " already holds; deploy/ installs"
                    + " new bundles only");
        }
    }

    /**
     * Applies one configuration of a feature, unless its PID's configuration came from a file of etc/:
     * the operator's file wins (as it does over the launcher's features), and a feature must not widen
     * what it allows. Remembers what it replaced or created, to undo it.
     */
    private void apply(String pid, Map<String, Object> properties, Undo undo, List<String> notApplied)
            throws IOException {
        Configuration configuration = configuration(pid);
        Dictionary<String, Object> current = configuration.getProperties();
        if (fromEtc(current)) {
            notApplied.add("its configuration " + pid + " is not applied: " + current.get(FILENAME)
                    + " configures it, and etc/ wins");
            return;
        }
        if (current == null) {
            state.created(pid, undo.featureId);
            undo.created.add(pid);
        } else if (!state.createdBy(undo.featureId).contains(pid)) {
            undo.replaced.putIfAbsent(pid, current);
        }
        configuration.update(new Hashtable<>(properties));
    }

    /** What one install did, so that a failure halfway, or the removal of the file, can take it back. */
    private final class Undo {
        final String featureId;
        final List<Bundle> bundles = new ArrayList<>();
        final List<String> created = new ArrayList<>();
        /** The configurations the feature replaced (none from a file), with their properties before. */
        final Map<String, Dictionary<String, Object>> replaced = new LinkedHashMap<>();

        Undo(String featureId) {
            this.featureId = featureId;
        }

        void run() {
            for (Bundle bundle : bundles) {
                uninstall(featureId, bundle);
            }
            for (String pid : created) {
                deleteUnlessFromFile(pid);
                state.forget(pid);
            }
            restore(featureId, replaced);
        }
    }

    /**
     * The deploy folder's first pass ({@link DeployPass}): installs each feature file not installed already (a kept
     * storage's, whose bundles are all there). FileInstall's first scan then finds each file done ({@link PassedFiles}).
     */
    synchronized void installAll(List<File> artifacts) {
        for (File artifact : artifacts) {
            if (installedAlready(artifact)) {
                // a kept storage's: FileInstall, which remembers what it last saw, hands it over if it changed since
                passed.forget(artifact);
            } else {
                installNow(artifact);
            }
        }
    }

    /** Whether a feature file is recorded as installed, with every bundle it names there (a kept storage's). */
    private boolean installedAlready(File artifact) {
        String featureId = state.featureOf(artifact.toPath().toAbsolutePath().toString());
        if (featureId == null) {
            return false;
        }
        try {
            FeatureFile feature = FeatureFile.read(artifact);
            return feature.id().equals(featureId) && feature.bundles().stream().allMatch(this::alreadyInstalled);
        } catch (IOException | RuntimeException e) {
            return false; // install says why
        }
    }

    @Override
    public void update(File artifact) throws Exception {
        if (!passed.handedOverAgain(artifact)) {
            updateNow(artifact);
        }
    }

    private synchronized void updateNow(File artifact) throws Exception {
        uninstall(artifact);
        installNow(artifact);
    }

    @Override
    public synchronized void uninstall(File artifact) throws Exception {
        passed.forget(artifact);
        problems.clear(artifact);
        String file = artifact.toPath().toAbsolutePath().toString();
        String featureId = state.featureOf(file);
        if (featureId == null) {
            return;
        }
        remove(file);
        sweep();
        LOG.info("Uninstalled feature {}", featureId);
    }

    /**
     * Forgets an installed feature file and takes back its configurations: deletes the ones it created
     * and restores the ones it replaced, unless a file of etc/ configures them now. Its bundles go with
     * the next {@link #sweep()}.
     */
    private void remove(String file) {
        String featureId = state.featureOf(file);
        state.removed(file);
        for (String pid : state.createdBy(featureId)) {
            deleteUnlessFromFile(pid);
            state.forget(pid);
        }
        Map<String, Dictionary<String, Object>> before = replaced.remove(file);
        if (before != null) {
            restore(featureId, before);
        }
    }

    private void restore(String featureId, Map<String, Dictionary<String, Object>> before) {
        for (Map.Entry<String, Dictionary<String, Object>> e : before.entrySet()) {
            try {
                Configuration configuration = configuration(e.getKey());
                if (!fromEtc(configuration.getProperties())) {
                    configuration.update(e.getValue());
                }
            } catch (IOException | IllegalStateException ex) {
                LOG.warn("Feature {}: could not restore configuration {}: {}", featureId, e.getKey(), ex.getMessage());
            }
        }
    }

    private void deleteUnlessFromFile(String pid) {
        try {
            Configuration configuration = configuration(pid);
            if (!fromEtc(configuration.getProperties())) {
                configuration.delete();
            }
        } catch (IOException | IllegalStateException e) {
            LOG.warn("Could not delete configuration {}: {}", pid, e.getMessage());
        }
    }

    /**
     * Uninstalls every bundle a feature installed ({@code feature:<id>/<coordinates>}) that no installed
     * feature names any more: one two features name stays until both are gone, and one whose feature file
     * went while the server was stopped goes at the next start.
     */
    private void sweep() {
        Set<String> named = state.namedBundles();
        for (Bundle bundle : context.getBundles()) {
            String location = bundle.getLocation();
            if (location.startsWith(LOCATION) && !named.contains(location.substring(location.lastIndexOf('/') + 1))) {
                uninstall(location.substring(LOCATION.length(), location.lastIndexOf('/')), bundle);
            }
        }
    }

    private void uninstall(String featureId, Bundle bundle) {
        String name = bundle.getSymbolicName();
        long timeoutMs = settings.config().stopTimeoutMs();
        try {
            BoundedStart.within(timeoutMs, bundle::uninstall);
            LOG.info("Feature {}: uninstalled {}", featureId, name);
        } catch (TimeoutException e) {
            LOG.warn("Feature {}: {} {}; it is uninstalled once that returns", featureId, name,
                    BoundedStart.stopTooLong(timeoutMs));
        } catch (BundleException | IllegalStateException e) {
            LOG.warn("Feature {}: could not uninstall {}: {}", featureId, name, e.getMessage());
        }
    }

    /**
     * Brings the installed features in line with deploy/ as it is now: a feature file deleted while the
     * server was stopped is removed (FileInstall tells no deletion then), the files present are recorded as they are
     * when there is no record yet (an older deployer installed them; later, a file not recorded was refused), and the
     * bundles no feature names go.
     */
    private void reconcile(String deployFolder) {
        if (deployFolder == null || !new File(deployFolder).isDirectory()) {
            return; // not there (an unmounted share?): nothing is taken as deleted
        }
        for (String file : state.files()) {
            if (!Files.exists(Path.of(file))) {
                LOG.info("Feature file {} was removed while the server was stopped: uninstalling feature {}", file,
                        state.featureOf(file));
                remove(file);
            }
        }
        File[] files = state.existed() ? null
                : DeployPass.canonical(new File(deployFolder)).listFiles(f -> f.isFile() && canHandle(f));
        for (File f : files == null ? new File[0] : files) {
            String file = f.toPath().toAbsolutePath().toString();
            if (state.featureOf(file) == null) {
                try {
                    FeatureFile feature = FeatureFile.read(f);
                    state.installed(file, feature.id(),
                            feature.bundles().stream().map(FeatureFile.BundleRef::coordinates).toList());
                } catch (IOException | RuntimeException e) {
                    LOG.debug("{} is not a feature: {}", f, e.getMessage());
                }
            }
        }
        sweep();
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

    /** Whether a configuration's properties came from a file of etc/ (FileInstall names it): the operator's, which wins. */
    private static boolean fromEtc(Dictionary<String, Object> properties) {
        return properties != null && properties.get(FILENAME) != null;
    }

    private Configuration configuration(String pid) throws IOException {
        int tilde = pid.indexOf('~');
        return tilde > 0
                ? configurationAdmin.getFactoryConfiguration(pid.substring(0, tilde), pid.substring(tilde + 1), "?")
                : configurationAdmin.getConfiguration(pid, "?");
    }
}
