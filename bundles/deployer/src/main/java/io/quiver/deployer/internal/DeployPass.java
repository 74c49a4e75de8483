package io.quiver.deployer.internal;

import java.io.File;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.regex.Pattern;
import org.apache.felix.fileinstall.ArtifactInstaller;
import org.osgi.framework.BundleContext;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The deploy folder's first pass, which the launcher runs before it says that the server has started: the files in
 * deploy/ then are installed and started at once, feature files first (they may bring the packages of a jar), then the
 * jars, resolved together. A tool of deploy/ is in the first {@code tools/list} of a client that connects when the
 * endpoint line appears, and a {@code CallPolicy} or {@code CallListener} there holds from its first call. FileInstall
 * watches the folder from then on, and its first scan finds these files done.
 * <p>
 * A service of the JDK's own type ({@link Callable}, property {@value #PROPERTY}), so that the launcher, outside the
 * framework, can call it; it answers how many files it handed over.
 */
@Component(service = Callable.class, property = DeployPass.PROPERTY + "=true")
public final class DeployPass implements Callable<Integer> {

    private static final Logger LOG = LoggerFactory.getLogger("io.quiver.deploy");
    /** The service property the launcher looks the pass up by. */
    static final String PROPERTY = "quiver.deploy.pass";
    /** The files FileInstall hands over from deploy/ (the launcher's filter for it): bundles and feature files. */
    private static final Pattern FILES = Pattern.compile(".*\\.(jar|json)");

    private final String folder;
    private final BundleDeployer jars;
    private final FeatureInstaller features;
    private final PassedFiles passed;

    @Activate
    public DeployPass(BundleContext context, @Reference BundleDeployer jars, @Reference FeatureInstaller features,
            @Reference PassedFiles passed) {
        this.folder = context.getProperty(FeatureInstaller.DEPLOY_FOLDER);
        this.jars = jars;
        this.features = features;
        this.passed = passed;
    }

    /** How long after the pass a file it took on may go unseen by FileInstall before the pass removes it: {@value} ms. */
    static final long UNSEEN_AFTER_MS = 5_000;

    @Override
    public Integer call() {
        // named as FileInstall names them (it watches the canonical folder): a deploy folder reached through a
        // symbolic link would otherwise hold each file under two names
        File[] listed = folder == null ? null : canonical(new File(folder))
                .listFiles(f -> f.isFile() && FILES.matcher(f.getName()).matches());
        if (listed == null || listed.length == 0) {
            return 0;
        }
        Arrays.sort(listed, Comparator.comparing(File::getName));
        List<File> featureFiles = new ArrayList<>();
        List<File> jarFiles = new ArrayList<>();
        for (File f : listed) {
            if (features.canHandle(f)) {
                featureFiles.add(f);
            } else if (jars.canHandle(f)) {
                jarFiles.add(f);
            }
        }
        long t0 = System.nanoTime();
        // all taken on before any is handled: FileInstall, scanning once the launcher stops waiting, leaves them to it
        passed.claim(featureFiles);
        passed.claim(jarFiles);
        features.installAll(featureFiles);
        jars.deployAll(jarFiles);
        LOG.debug("deploy/'s first pass: {} feature files and {} jars in {} ms", featureFiles.size(), jarFiles.size(),
                (System.nanoTime() - t0) / 1_000_000);
        removeLaterWhatGoesUnseen(featureFiles, jarFiles);
        return featureFiles.size() + jarFiles.size();
    }

    /**
     * FileInstall learns of the files when its first scan finds them: one deleted before that (during the start) would
     * keep its bundles until the next start. A while after the pass, those are removed.
     */
    private void removeLaterWhatGoesUnseen(List<File> featureFiles, List<File> jarFiles) {
        Thread later = new Thread(() -> {
            try {
                Thread.sleep(UNSEEN_AFTER_MS);
                removeGoneUnseen(featureFiles, jarFiles);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (Exception | LinkageError e) { // the framework stopping meanwhile
                LOG.debug("Removing what went from deploy/ during the start: {}", e.toString());
            }
        }, "quiver-deploy-unseen");
        later.setDaemon(true);
        later.start();
    }

    /** Uninstalls what came from files the pass took on that went before FileInstall ever saw them. */
    void removeGoneUnseen(List<File> featureFiles, List<File> jarFiles) throws Exception {
        removeGoneUnseen(featureFiles, features);
        removeGoneUnseen(jarFiles, jars);
    }

    private void removeGoneUnseen(List<File> files, ArtifactInstaller installer) throws Exception {
        for (File file : files) {
            if (passed.goneUnseen(file)) {
                LOG.info("{} was removed while the server started", file);
                installer.uninstall(file);
            }
        }
    }

    /** The canonical form of a folder, as FileInstall watches it (the absolute one when it cannot be had). */
    static File canonical(File folder) {
        try {
            return folder.getCanonicalFile();
        } catch (IOException e) {
            return folder.getAbsoluteFile();
        }
    }
}
