package io.quiver.deployer.internal;

import org.osgi.framework.BundleActivator;
import org.osgi.framework.BundleContext;

/** The activator of a test bundle that fails to start, counting its tries in a system property (shared by copies). */
public final class FailingActivator implements BundleActivator {

    static final String TRIES = "quiver.test.failingActivator.tries";

    @Override
    public void start(BundleContext context) {
        System.setProperty(TRIES, Integer.toString(Integer.getInteger(TRIES, 0) + 1));
        throw new IllegalStateException("this bundle never starts");
    }

    @Override
    public void stop(BundleContext context) {
    }
}
