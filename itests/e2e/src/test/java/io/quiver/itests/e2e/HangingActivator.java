package io.quiver.itests.e2e;

import org.osgi.framework.BundleActivator;
import org.osgi.framework.BundleContext;

/** The activator of a test bundle that never finishes stopping (built into a jar by {@link ShutdownIT}). */
public final class HangingActivator implements BundleActivator {

    @Override
    public void start(BundleContext context) {
        System.err.println("hanging activator started");
    }

    @Override
    public void stop(BundleContext context) throws InterruptedException {
        System.err.println("hanging activator stopping, for ever");
        Thread.sleep(Long.MAX_VALUE);
    }
}
