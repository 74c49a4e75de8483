package io.quiver.permissions.internal;

import java.util.Hashtable;
import org.osgi.framework.BundleContext;
import org.osgi.framework.ServiceRegistration;

/**
 * A marker service whose {@value #PROPERTY} changes with every change of the call policy's rules: the engine
 * follows it and tells every client that its lists may have changed. (A DS component cannot change its own
 * service's properties without Felix's extensions; a registration of its own can.)
 */
final class PolicyRevision implements AutoCloseable {

    /** The marker's property, the same the engine's reference names. */
    static final String PROPERTY = "io.quiver.policy.revision";

    private long revision;
    private final ServiceRegistration<?> registration;

    PolicyRevision(BundleContext context) {
        registration = context.registerService(Object.class.getName(), new Object(), properties(0));
    }

    /** A new revision: the engine's reference hears of it. */
    synchronized void next() {
        try {
            registration.setProperties(properties(++revision));
        } catch (IllegalStateException e) {
            // unregistered: the bundle stops
        }
    }

    private static Hashtable<String, Object> properties(long n) {
        Hashtable<String, Object> p = new Hashtable<>();
        p.put(PROPERTY, n);
        return p;
    }

    @Override
    public synchronized void close() {
        try {
            registration.unregister();
        } catch (IllegalStateException e) {
            // gone already
        }
    }
}
