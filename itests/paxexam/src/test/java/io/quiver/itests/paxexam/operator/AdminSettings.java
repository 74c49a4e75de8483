package io.quiver.itests.paxexam.operator;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Hashtable;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.service.cm.Configuration;
import org.osgi.service.cm.ConfigurationAdmin;
import org.osgi.util.tracker.ServiceTracker;

/** Configuration and lookups for {@code AdminToolsIT}, kept out of the test class (see README). */
public final class AdminSettings {

    public static final String PID = "io.quiver.tools.admin";

    private AdminSettings() {
    }

    /** Sets {@code allowedRoots} of the admin tools to one folder. */
    public static void allowRoot(BundleContext context, Path root, Duration timeout) throws Exception {
        ServiceTracker<ConfigurationAdmin, ConfigurationAdmin> tracker = new ServiceTracker<>(context, ConfigurationAdmin.class, null);
        tracker.open();
        try {
            ConfigurationAdmin admin = tracker.waitForService(timeout.toMillis());
            if (admin == null) {
                throw new AssertionError("No ConfigurationAdmin within " + timeout.toMillis() + " ms");
            }
            Configuration configuration = admin.getConfiguration(PID, "?");
            Hashtable<String, Object> properties = new Hashtable<>();
            properties.put("allowedRoots", new String[] {root.toString()});
            configuration.update(properties);
        } finally {
            tracker.close();
        }
    }

    /** The id of the bundle with this symbolic name. */
    public static long bundleId(BundleContext context, String symbolicName) {
        for (Bundle bundle : context.getBundles()) {
            if (symbolicName.equals(bundle.getSymbolicName())) {
                return bundle.getBundleId();
            }
        }
        throw new AssertionError("No bundle " + symbolicName);
    }
}
