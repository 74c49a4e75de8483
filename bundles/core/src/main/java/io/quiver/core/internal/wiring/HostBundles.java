package io.quiver.core.internal.wiring;

import io.quiver.lib.config.TypedConfig;
import java.util.Map;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.framework.FrameworkUtil;

/**
 * Which bundles may provide the host channel: the embedder's. The framework property {@value #PROPERTY}
 * lists their symbolic names (globs with {@code *}), by default the launcher's host bridge
 * {@value #BRIDGE}. A host channel from any other bundle is ignored, so a tool bundle cannot take the
 * host's role (approve its own calls, read every result) by registering one.
 */
final class HostBundles {

    static final String PROPERTY = "quiver.host.bundles";
    static final String BRIDGE = "io.quiver.host";
    /**
     * The framework property an embedder with a host channel sets: until the channel is there, no tool
     * call is admitted (else calls that arrive while the framework starts would run unseen).
     */
    static final String REQUIRED = "quiver.host.required";

    private HostBundles() {
    }

    /** The symbolic name of the bundle that registered a service, or its id when it has none. */
    static String registrant(Map<String, Object> properties) {
        Object id = properties.get("service.bundleid");
        BundleContext context = context();
        Bundle bundle = id instanceof Long bundleId && context != null ? context.getBundle(bundleId) : null;
        if (bundle == null) {
            return "bundle " + id;
        }
        return bundle.getSymbolicName() == null ? "bundle " + id : bundle.getSymbolicName();
    }

    /** Whether the framework property allows this bundle to provide the host channel. */
    static boolean allowed(String symbolicName) {
        BundleContext context = context();
        String configured = context == null ? null : context.getProperty(PROPERTY);
        return allowed(symbolicName, configured == null ? BRIDGE : configured);
    }

    static boolean allowed(String symbolicName, String globs) {
        return TypedConfig.list(globs).stream().anyMatch(g -> TypedConfig.glob(g).matcher(symbolicName).matches());
    }

    private static BundleContext context() {
        Bundle own = FrameworkUtil.getBundle(HostBundles.class);
        return own == null ? null : own.getBundleContext();
    }
}
