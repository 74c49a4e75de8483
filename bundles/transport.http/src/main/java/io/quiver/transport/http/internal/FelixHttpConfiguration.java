package io.quiver.transport.http.internal;

import java.io.IOException;
import java.util.Hashtable;
import org.osgi.framework.BundleContext;
import org.osgi.service.cm.ConfigurationAdmin;
import org.osgi.service.cm.ConfigurationEvent;
import org.osgi.service.cm.ConfigurationListener;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps Felix HTTP serving when its configuration ({@code etc/org.apache.felix.http.cfg}) is deleted.
 *
 * <p>The launcher tells Felix HTTP to wait for that configuration when the file is there at the start
 * ({@value #REQUIRE_CONFIG}): Jetty then starts once, with it, rather than first on its defaults (plain
 * HTTP, whatever the file says) and again when the file has been read. But Felix HTTP in that mode stops
 * Jetty for good when the configuration goes away. So when it does, this gives the PID an empty
 * configuration: Jetty starts again on the framework's settings (plain HTTP on {@code --port}), as it
 * would have without the file.
 */
@Component(service = ConfigurationListener.class)
public final class FelixHttpConfiguration implements ConfigurationListener {

    private static final Logger LOG = LoggerFactory.getLogger(FelixHttpConfiguration.class);
    /** Felix HTTP's PID. */
    static final String PID = "org.apache.felix.http";
    /** Felix HTTP's framework property: start Jetty only once a configuration exists. */
    static final String REQUIRE_CONFIG = "org.apache.felix.http.require.config";

    private final ConfigurationAdmin admin;
    private final boolean required;

    @Activate
    public FelixHttpConfiguration(@Reference ConfigurationAdmin admin, BundleContext context) {
        this.admin = admin;
        this.required = Boolean.parseBoolean(context.getProperty(REQUIRE_CONFIG));
    }

    @Override
    public void configurationEvent(ConfigurationEvent event) {
        if (!required || event.getType() != ConfigurationEvent.CM_DELETED || !PID.equals(event.getPid())) {
            return;
        }
        try {
            admin.getConfiguration(PID, "?").update(new Hashtable<>());
            LOG.info("Felix HTTP's configuration was deleted: Jetty serves on the framework's settings again");
        } catch (IOException | RuntimeException e) {
            LOG.error("Felix HTTP's configuration was deleted and Jetty stays stopped: {}", e.toString());
        }
    }
}
