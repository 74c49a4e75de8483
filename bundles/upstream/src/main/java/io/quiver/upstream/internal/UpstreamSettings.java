package io.quiver.upstream.internal;

import java.util.Map;

import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.ConfigurationPolicy;
import org.osgi.service.metatype.annotations.Designate;

import io.quiver.lib.config.TypedConfig;

/**
 * One {@code etc/io.quiver.upstream-NAME.cfg}: a service carrying the configuration's properties, which
 * {@link Upstreams} reads as an {@link UpstreamConfig} (it keeps the problems of bad values too).
 */
@Component(service = UpstreamSettings.class, configurationPid = UpstreamConfig.PID,
        configurationPolicy = ConfigurationPolicy.REQUIRE)
@Designate(ocd = UpstreamConfig.class, factory = true)
public final class UpstreamSettings {

    final Map<String, Object> properties;

    @Activate
    public UpstreamSettings(Map<String, Object> properties) {
        this.properties = Map.copyOf(properties);
    }

    /** The server the settings are for: {@code server}, else the configuration's name. */
    String server() {
        Object server = properties.get("server");
        String named = server == null ? "" : String.valueOf(server).trim();
        return named.isEmpty() ? TypedConfig.factoryName(properties, UpstreamConfig.PID) : named;
    }
}
