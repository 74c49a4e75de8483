package io.quiver.itests.e2e;

import org.osgi.framework.BundleActivator;
import org.osgi.framework.BundleContext;

/** A bundle activator whose start never returns (it ignores interrupts too). */
public final class StartHangingActivator implements BundleActivator {

    @Override
    public void start(BundleContext context) {
        System.err.println("start-hanging activator starting, for ever");
        while (true) {
            try {
                Thread.sleep(Long.MAX_VALUE);
            } catch (InterruptedException e) {
                // ignored, as such a bundle does
            }
        }
    }

    @Override
    public void stop(BundleContext context) {
    }
}
