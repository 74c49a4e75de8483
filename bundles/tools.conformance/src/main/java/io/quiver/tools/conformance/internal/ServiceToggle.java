package io.quiver.tools.conformance.internal;

import java.util.Map;
import org.osgi.framework.BundleContext;
import org.osgi.framework.FrameworkUtil;
import org.osgi.framework.ServiceRegistration;

/**
 * One service a trigger registers when it is absent and unregisters when it is present, so every
 * flip is exactly one change of the catalog (and one list-changed notification to listeners).
 */
final class ServiceToggle {

    /** Registers the service and returns the action that unregisters it. */
    @FunctionalInterface
    interface Registrar {
        Runnable register();
    }

    private final Registrar registrar;
    private Runnable unregister;

    ServiceToggle(Registrar registrar) {
        this.registrar = registrar;
    }

    /** A toggle of a service registered in the OSGi service registry through the given bundle context. */
    static <S> ServiceToggle of(BundleContext context, Class<S> type, S service, Map<String, ?> properties) {
        return new ServiceToggle(() -> {
            ServiceRegistration<S> registration =
                    context.registerService(type, service, FrameworkUtil.asDictionary(properties));
            return () -> {
                try {
                    registration.unregister();
                } catch (IllegalStateException alreadyGone) {
                    // the bundle is stopping and the framework unregistered it already
                }
            };
        });
    }

    /** Registers the service when absent, else unregisters it; true when it is registered now. */
    synchronized boolean flip() {
        if (unregister == null) {
            unregister = registrar.register();
            return true;
        }
        off();
        return false;
    }

    /** Unregisters the service if it is registered. */
    synchronized void off() {
        if (unregister != null) {
            Runnable action = unregister;
            unregister = null;
            action.run();
        }
    }

    synchronized boolean isOn() {
        return unregister != null;
    }
}
