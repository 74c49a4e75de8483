package io.quiver.deployer.internal;

import org.osgi.framework.BundleActivator;
import org.osgi.framework.BundleContext;

/** The activator of a test bundle whose stop takes far longer than the deployer waits. */
public final class SlowStopActivator implements BundleActivator {

    @Override
    public void start(BundleContext context) {
    }

    @Override
    public void stop(BundleContext context) throws InterruptedException {
        Thread.sleep(3_000);
    }
}
