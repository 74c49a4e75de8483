package io.quiver.launcher;

import java.util.Hashtable;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.Function;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.framework.InvalidSyntaxException;
import org.osgi.framework.ServiceReference;
import org.osgi.framework.ServiceRegistration;

/**
 * The launcher's end of the host channel: the {@link Host}'s endpoint, registered from the system bundle
 * (the only registrant the host bridge takes), and the bridge's control function, for replies, stops and
 * the shutdown. Only JDK types cross ({@code Map}s of JSON values).
 */
final class HostEndpoint implements Consumer<Map<String, Object>> {

    static final String ENDPOINT = "io.quiver.host.endpoint";
    static final String CONTROL = "(io.quiver.host.control=true)";
    /** The host bridge's bundle. */
    static final String BRIDGE = "io.quiver.host";

    private final Host host;
    private final BundleContext system;
    private final ServiceRegistration<?> registration;

    private HostEndpoint(Host host, BundleContext system) {
        this.host = Objects.requireNonNull(host, "host");
        this.system = system;
        Hashtable<String, Object> props = new Hashtable<>();
        props.put(ENDPOINT, Boolean.TRUE.toString());
        this.registration = system.registerService(Consumer.class.getName(), this, props);
    }

    /** Registers the host's endpoint through the framework's own context. */
    static HostEndpoint open(Host host, BundleContext system) {
        return new HostEndpoint(host, system);
    }

    @Override
    public void accept(Map<String, Object> request) {
        host.handle(new HostRequest(request, this::command));
    }

    /** A command to the bridge: its answer (a status or a count). Looked up each time: the bridge may have restarted. */
    @SuppressWarnings("unchecked")
    Object command(Map<String, Object> command) {
        ServiceReference<?> ref = reference();
        if (ref == null) {
            throw new IllegalStateException("the host bridge is not running");
        }
        Function<Map<String, Object>, Object> control = (Function<Map<String, Object>, Object>) system.getService(ref);
        if (control == null) {
            throw new IllegalStateException("the host bridge is not running");
        }
        try {
            return control.apply(command);
        } finally {
            system.ungetService(ref);
        }
    }

    /**
     * The bridge's control function: registered by the host bundle a feature installed, never by whatever else
     * carries the property (a bundle in {@code deploy/} that did would read every answer the host's user types, and
     * could turn a denial into an approval).
     */
    private ServiceReference<?> reference() {
        ServiceReference<?>[] refs;
        try {
            refs = system.getServiceReferences(Function.class.getName(), CONTROL);
        } catch (InvalidSyntaxException e) {
            throw new IllegalStateException(e);
        } catch (IllegalStateException e) {
            return null; // the framework has stopped
        }
        if (refs != null) {
            for (ServiceReference<?> ref : refs) {
                Bundle registrant = ref.getBundle();
                if (registrant != null && BRIDGE.equals(registrant.getSymbolicName())
                        && registrant.getLocation().startsWith(BundleInstaller.PREFIX)) {
                    return ref;
                }
            }
        }
        return null;
    }

    /** Whether the bridge is up (the container may admit calls). */
    boolean bridged() {
        return reference() != null;
    }

    void close() {
        try {
            registration.unregister();
        } catch (IllegalStateException e) {
            // gone with the framework
        }
    }
}
