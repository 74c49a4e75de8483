package io.quiver.api.operator;

import java.util.List;

import org.osgi.annotation.versioning.ProviderType;

/** The upstream MCP servers Quiver runs, registered by the bundle that runs them. */
@ProviderType
public interface UpstreamDirectory {

    /** Every declared server, by name. */
    List<UpstreamInfo> upstreams();
}
