package io.quiver.deployer.internal;

import io.quiver.lib.config.TypedConfig;
import io.quiver.lib.feature.platform.NameHolder;
import io.quiver.lib.feature.platform.PlatformLibraries;
import io.quiver.lib.feature.problems.BundleProblems;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.jar.Attributes;
import java.util.jar.JarFile;
import java.util.jar.Manifest;
import java.util.zip.CRC32;
import java.util.zip.CheckedInputStream;
import java.util.zip.ZipException;
import org.apache.felix.fileinstall.ArtifactInstaller;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.framework.BundleException;
import org.osgi.framework.Constants;
import org.osgi.framework.FrameworkEvent;
import org.osgi.framework.Version;
import org.osgi.framework.wiring.FrameworkWiring;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Modified;
import org.osgi.service.component.annotations.Reference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Installs, updates and uninstalls the bundle jars of the deploy folder, in place of FileInstall's
 * own bundle handling (an installer service is asked before it), so that deploy/ cannot touch the
 * platform and every failure is told.
 *
 * <ul>
 * <li>A jar whose symbolic name is already installed from elsewhere (a feature bundle of the
 * running platform, the framework, a bundle installed by hand, another file) is refused: deploy/
 * installs new bundles and updates the ones it installed, nothing else.</li>
 * <li>A file that is not a readable bundle (not a jar, no manifest, no symbolic name, too large),
 * or that installs but does not resolve or start, is logged once with the file name and the
 * reason, listed as a problem, and not tried again until the file changes.</li>
 * </ul>
 * The bundle's location is the file's URI, as FileInstall's own would be. A file whose content is what the
 * deployer installed from it, with its bundle running, is left alone (FileInstall hands every file over again when
 * a kept storage starts: its bundle started with the server, and is not stopped and started again). A bundle whose activator has not
 * returned from its start is not touched (stopping, updating or uninstalling it would wait as long): the file's
 * problem says so, and a restart takes the change.
 */
@Component(service = {ArtifactInstaller.class, BundleDeployer.class}, configurationPid = DeployerConfig.PID, immediate = true)
public final class BundleDeployer implements ArtifactInstaller {

    private static final Logger LOG = LoggerFactory.getLogger("io.quiver.deploy");
    private static final long REFRESH_TIMEOUT_MS = 30_000;

    private final BundleContext context;
    private final DeployProblems problems;
    /** What the server's class path provides in place of bundles: fixed for the framework's life. */
    private final PlatformLibraries platformLibraries;
    private volatile DeployerConfig config;
    /** The CRC-32 of each file's content as last installed or updated, by location; kept with the framework's storage. */
    private final Properties installed = new Properties();
    private final File installedFile;
    /** The files the first pass took on, until FileInstall hands them over. */
    private final PassedFiles passed;

    /** Without a first pass (tests): nothing is taken on. */
    BundleDeployer(BundleContext context, DeployProblems problems, Map<String, Object> properties) {
        this(context, problems, new PassedFiles(), properties);
    }

    @Activate
    public BundleDeployer(BundleContext context, @Reference DeployProblems problems, @Reference PassedFiles passed,
            Map<String, Object> properties) {
        this.context = context;
        this.passed = passed;
        this.problems = problems;
        this.platformLibraries = PlatformLibraries.parse(context.getProperty(PlatformLibraries.PROPERTY));
        modified(properties);
        this.installedFile = context.getDataFile(INSTALLED_FILE);
        loadInstalled();
        removeGone(context.getProperty(FeatureInstaller.DEPLOY_FOLDER));
    }

    /**
     * Uninstalls the bundles of jars deleted from the deploy folder while the server was stopped: with a
     * kept framework storage they would run on, as FileInstall tells no deletion for them.
     */
    private synchronized void removeGone(String deployFolder) {
        if (deployFolder == null || !new File(deployFolder).isDirectory()) {
            return; // not there (an unmounted share?): nothing is taken as deleted
        }
        String folder = location(DeployPass.canonical(new File(deployFolder))); // as FileInstall names its files
        String prefix = folder.endsWith("/") ? folder : folder + "/";
        for (Bundle bundle : context.getBundles()) {
            String location = bundle.getLocation();
            if (!location.startsWith(prefix)) {
                continue;
            }
            File file;
            try {
                file = new File(URI.create(location));
            } catch (IllegalArgumentException e) {
                continue;
            }
            if (!file.exists()) {
                LOG.info("{} was removed while the server was stopped", file);
                uninstall(file);
            }
        }
    }

    @Modified
    void modified(Map<String, Object> properties) {
        TypedConfig.Result<DeployerConfig> read = TypedConfig.read(DeployerConfig.class, properties, config);
        this.config = read.config();
        problems.configured(read.problems()); // said once, here: the feature installer reads the same settings
    }

    @Override
    public boolean canHandle(File artifact) {
        return artifact.getName().toLowerCase(Locale.ROOT).endsWith(".jar");
    }

    @Override
    public void install(File artifact) {
        if (!passed.handedOverAgain(artifact)) {
            deploy(artifact);
        }
    }

    @Override
    public void update(File artifact) {
        if (!passed.handedOverAgain(artifact)) {
            deploy(artifact);
        }
    }

    @Override
    public synchronized void uninstall(File artifact) {
        passed.forget(artifact);
        problems.clear(artifact);
        Bundle bundle = context.getBundle(location(artifact));
        if (bundle == null) {
            return;
        }
        String label = label(bundle);
        if (BundleProblems.stillStarting(bundle)) {
            LOG.warn("{} removed, but {} cannot be uninstalled while its activator has not returned from its start;"
                    + " it goes at the next start of the server", artifact, label);
            return;
        }
        forget(bundle.getLocation());
        long timeoutMs = config.stopTimeoutMs();
        String late = "removed, but " + label + " " + BoundedStart.stopTooLong(timeoutMs) + "; it is uninstalled once"
                + " that returns";
        try {
            BoundedStart.within(timeoutMs, bundle::uninstall, () -> problems.report(artifact, late), () -> {
                refresh(bundle);
                problems.clearIf(artifact, late); // gone now; a newer file's problem stays
                LOG.info("{} removed: uninstalled {} (its stop returned late)", artifact, label);
            });
            refresh(bundle);
            LOG.info("{} removed: uninstalled {}", artifact, label);
        } catch (TimeoutException e) {
            // said as the wait gave up
        } catch (BundleException | IllegalStateException e) {
            LOG.warn("{} removed, but {} could not be uninstalled: {}", artifact, label, e.getMessage());
        }
    }

    /** Installs or updates the bundle of a file, or says why not. Never throws: FileInstall would retry silently. */
    private synchronized void deploy(File artifact) {
        Installed installed = installOnly(artifact);
        if (installed != null) {
            start(installed);
        }
    }

    /**
     * The deploy folder's first pass ({@link DeployPass}): installs or updates the bundle of every jar, resolves them
     * together, then starts them, so that a bundle needing a package of another jar of deploy/ starts whatever the
     * order of the files. FileInstall's first scan then finds each file done ({@link PassedFiles}).
     */
    synchronized void deployAll(List<File> artifacts) {
        List<Installed> installed = new ArrayList<>();
        for (File artifact : artifacts) {
            Installed i = installOnly(artifact);
            if (i != null) {
                installed.add(i);
            }
        }
        if (installed.isEmpty()) {
            return;
        }
        wiring().resolveBundles(installed.stream().map(Installed::bundle).toList());
        installed.forEach(this::start);
    }

    /** A bundle installed or updated from a file, to be started. */
    private record Installed(File artifact, Bundle bundle, boolean update) {
    }

    /**
     * Installs or updates the bundle of a file: null when there is nothing to start (refused, unchanged and running, a
     * fragment, or the framework refused it: said).
     */
    private Installed installOnly(File artifact) {
        problems.clear(artifact);
        try {
            String refusal = check(artifact);
            if (refusal != null) {
                problems.report(artifact, refusal);
                return null;
            }
            Bundle bundle = context.getBundle(location(artifact));
            boolean update = bundle != null;
            boolean stuck = update && BundleProblems.stillStarting(bundle);
            // (one that did not start is tried again: a touched file is how a user asks for that)
            if ((stuck || update && bundle.getState() == Bundle.ACTIVE) && unchanged(artifact, bundle)) {
                LOG.debug("{}: unchanged since {} was installed from it, and running or starting", artifact,
                        label(bundle));
                return null;
            }
            if (stuck) {
                problems.report(artifact, "cannot update " + label(bundle) + ": its activator has not returned from its"
                        + " start; restart the server to take the new file");
                return null;
            }
            boolean wasActive = update && bundle.getState() == Bundle.ACTIVE;
            CRC32 crc = new CRC32(); // of what the framework read: the whole file
            try (InputStream in = new CheckedInputStream(Files.newInputStream(artifact.toPath()), crc)) {
                if (update) {
                    Bundle updated = bundle;
                    try {
                        // stopped first, so that the new version starts below, within startTimeoutMs
                        BoundedStart.within(config.stopTimeoutMs(), () -> stop(updated));
                    } catch (TimeoutException e) {
                        problems.report(artifact, "cannot update " + label(bundle) + ": it "
                                + BoundedStart.stopTooLong(config.stopTimeoutMs()) + "; it stops once that returns,"
                                + " and the new file is not taken: save it again then");
                        return null;
                    }
                    bundle.update(in);
                    refresh(bundle);
                } else {
                    bundle = context.installBundle(location(artifact), in);
                }
            } catch (BundleException | IOException | IllegalStateException e) {
                problems.report(artifact, "refused: the framework cannot " + (update ? "update" : "install")
                        + " it: " + e.getMessage() + (update ? restart(bundle, wasActive) : ""));
                return null;
            }
            remember(bundle.getLocation(), fingerprint(crc, artifact.length()));
            if (bundle.getHeaders("").get(Constants.FRAGMENT_HOST) != null) {
                LOG.info("{}: {} {} (a fragment: it attaches to its host)", artifact, update ? "updated" : "installed",
                        label(bundle));
                return null;
            }
            return new Installed(artifact, bundle, update);
        } catch (RuntimeException e) {
            problems.report(artifact, "failed: " + cause(e));
            return null;
        }
    }

    /** Starts what {@link #installOnly} installed, within startTimeoutMs, or says why not. */
    private void start(Installed installed) {
        File artifact = installed.artifact();
        Bundle bundle = installed.bundle();
        boolean update = installed.update();
        try {
            BoundedStart.start(bundle, config.startTimeoutMs());
            LOG.info("{}: {} and started {}", artifact, update ? "updated" : "installed", label(bundle));
        } catch (TimeoutException e) {
            problems.report(artifact, (update ? "updated " : "installed ") + label(bundle) + " but it "
                    + BoundedStart.tooLong(config.startTimeoutMs()));
        } catch (BundleException | IllegalStateException e) {
            String reason = e instanceof BundleException be && be.getType() == BundleException.RESOLVE_ERROR
                    ? "does not resolve: " + e.getMessage() : "did not start: " + cause(e);
            problems.report(artifact, (update ? "updated " : "installed ") + label(bundle) + " but it " + reason
                    + "; it is tried again when the file changes");
        } catch (RuntimeException e) {
            problems.report(artifact, "failed: " + cause(e));
        }
    }

    /** Why a file must not be installed, or null when it may. */
    private String check(File artifact) {
        long size = artifact.length();
        if (size == 0) {
            return "refused: the file is empty";
        }
        if (size > config.maxFileBytes()) {
            return "refused: " + size + " bytes, more than maxFileBytes (" + config.maxFileBytes()
                    + ") of configuration " + DeployerConfig.PID;
        }
        Manifest manifest;
        try (JarFile jar = new JarFile(artifact)) {
            manifest = jar.getManifest();
        } catch (ZipException e) {
            return "refused: not a jar (zip) file: " + e.getMessage();
        } catch (IOException | SecurityException e) {
            return "refused: cannot read it: " + e.getMessage();
        }
        if (manifest == null) {
            return "refused: not an OSGi bundle: the jar has no META-INF/MANIFEST.MF";
        }
        Attributes main = manifest.getMainAttributes();
        String name = NameHolder.symbolicName(main.getValue(Constants.BUNDLE_SYMBOLICNAME));
        if (name == null) {
            return "refused: not an OSGi bundle: its manifest has no Bundle-SymbolicName";
        }
        try {
            Version.parseVersion(main.getValue(Constants.BUNDLE_VERSION));
        } catch (IllegalArgumentException e) {
            return "refused: its Bundle-Version is not a version: " + e.getMessage();
        }
        String location = location(artifact);
        return NameHolder.of(platformLibraries, context, name, b -> location.equals(b.getLocation()))
                .map(holder -> "refused: " + name + " is " + owner(name, holder) + "; deploy/ installs new bundles and"
                        + " updates only the ones it installed")
                .orElse(null);
    }

    /** What holds the name, for a refusal. */
    private static String owner(String name, NameHolder holder) {
        if (holder.library() != null) {
            return "part of the running platform (" + name + " " + holder.library().version()
                    + ", from the server's class path)";
        }
        Bundle bundle = holder.bundle();
        String location = bundle.getLocation();
        if (bundle.getBundleId() == 0) {
            return "the OSGi framework itself";
        }
        if (location.startsWith("quiver:")) {
            return "part of the running platform (" + label(bundle) + ", a bundle of the server's features)";
        }
        if (location.startsWith("feature:")) {
            return "already installed by the feature file " + location.substring("feature:".length()).split("/")[0]
                    + " (" + label(bundle) + ")";
        }
        return "already installed from " + location + " (" + label(bundle) + ")";
    }

    static final String INSTALLED_FILE = "deployed-checksums.properties";

    /** What identifies a file's content: its CRC-32 and length. */
    private static String fingerprint(CRC32 crc, long length) {
        return Long.toHexString(crc.getValue()) + ":" + length;
    }

    /**
     * Whether the file holds what the bundle was last installed or updated from: read only when the bundle has a
     * record (a file that cannot be read counts as changed, and the install that follows says why).
     */
    private boolean unchanged(File artifact, Bundle bundle) {
        String was = installed.getProperty(bundle.getLocation());
        if (was == null) {
            return false;
        }
        CRC32 crc = new CRC32();
        try (InputStream in = new CheckedInputStream(Files.newInputStream(artifact.toPath()), crc)) {
            in.transferTo(OutputStream.nullOutputStream());
        } catch (IOException e) {
            return false;
        }
        return was.equals(fingerprint(crc, artifact.length()));
    }

    private void loadInstalled() {
        if (installedFile == null || !installedFile.isFile()) {
            return;
        }
        try (InputStream in = Files.newInputStream(installedFile.toPath())) {
            installed.load(in);
        } catch (IOException | IllegalArgumentException e) {
            LOG.warn("Cannot read {}: every file of deploy/ is installed again: {}", installedFile, e.toString());
            installed.clear();
        }
    }

    private void remember(String location, String checksum) {
        installed.setProperty(location, checksum);
        saveInstalled();
    }

    private void forget(String location) {
        if (installed.remove(location) != null) {
            saveInstalled();
        }
    }

    private void saveInstalled() {
        if (installedFile == null) {
            return;
        }
        try (OutputStream out = Files.newOutputStream(installedFile.toPath())) {
            installed.store(out, "Quiver deployer: what each deploy/ file held when its bundle was installed or updated");
        } catch (IOException e) {
            LOG.warn("Cannot write {}: at the next start every file of deploy/ is installed again: {}", installedFile,
                    e.toString());
        }
    }

    private static String location(File artifact) {
        return artifact.toPath().toAbsolutePath().normalize().toUri().toString();
    }

    private static String label(Bundle bundle) {
        return bundle.getSymbolicName() + " " + bundle.getVersion() + " (bundle " + bundle.getBundleId() + ")";
    }

    private static void stop(Bundle bundle) {
        try {
            bundle.stop(Bundle.STOP_TRANSIENT);
        } catch (BundleException | IllegalStateException e) {
            LOG.debug("Stopping {} before its update: {}", label(bundle), e.getMessage());
        }
    }

    /**
     * After a refused update: starts the old version again if it was active, since it was stopped for the
     * update and must go on serving; says what the bundle keeps.
     */
    private String restart(Bundle bundle, boolean wasActive) {
        if (!wasActive) {
            return "; the bundle keeps its previous version";
        }
        try {
            BoundedStart.start(bundle, config.startTimeoutMs());
            return "; the previous version goes on running";
        } catch (TimeoutException e) {
            return "; the previous version is starting again";
        } catch (BundleException | IllegalStateException e) {
            return "; the previous version did not start again: " + cause(e);
        }
    }

    /** Drops the old revisions of an updated or uninstalled bundle, so its class loader can go. */
    private void refresh(Bundle bundle) {
        FrameworkWiring wiring = wiring();
        CountDownLatch done = new CountDownLatch(1);
        wiring.refreshBundles(List.of(bundle), event -> {
            if (event.getType() == FrameworkEvent.PACKAGES_REFRESHED || event.getType() == FrameworkEvent.ERROR) {
                done.countDown();
            }
        });
        try {
            if (!done.await(REFRESH_TIMEOUT_MS, TimeUnit.MILLISECONDS)) {
                LOG.warn("Refreshing {} took more than {} ms", label(bundle), REFRESH_TIMEOUT_MS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private FrameworkWiring wiring() {
        return context.getBundle(Constants.SYSTEM_BUNDLE_LOCATION).adapt(FrameworkWiring.class);
    }

    /** The innermost message of a failure, on one line. */
    private static String cause(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        String text = t == e ? String.valueOf(e.getMessage()) : e.getMessage() + " (" + t + ")";
        return text.replaceAll("\\s+", " ").trim();
    }
}
