package io.quiver.deployer.internal;

import java.nio.file.Files;
import java.nio.file.Path;
import org.osgi.framework.BundleActivator;
import org.osgi.framework.BundleContext;

/**
 * The activator of a test bundle whose stop does not return until the test lets it: until the file named by the
 * system property {@value #RELEASE} exists (at most 30 s). A file, as the bundle has its own copy of this class.
 */
public final class SlowStopActivator implements BundleActivator {

    static final String RELEASE = "quiver.test.stopRelease";

    @Override
    public void start(BundleContext context) {
    }

    @Override
    public void stop(BundleContext context) throws InterruptedException {
        Path release = Path.of(System.getProperty(RELEASE));
        for (int i = 0; i < 3_000 && !Files.exists(release); i++) {
            Thread.sleep(10);
        }
    }
}
