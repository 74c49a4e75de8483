package io.quiver.core.internal.catalog;

import io.quiver.api.resource.Resource;
import io.quiver.core.internal.messages.ResourceDescriptor;
import java.util.Map;

/** A fixed resource: its listing descriptor and service. */
public record ResourceEntry(String uri, ResourceDescriptor descriptor, Resource resource) {

    static final String P = "mcp.resource.";

    static ResourceEntry from(Resource resource, Map<String, Object> props) {
        String uri = Props.string(props, P + "uri");
        String name = Props.string(props, P + "name");
        if (uri == null || name == null) {
            throw new IllegalArgumentException("a resource service needs " + P + "uri and " + P + "name");
        }
        return new ResourceEntry(uri, new ResourceDescriptor(uri, name, Props.string(props, P + "title"),
                Icons.of(props, P + "icons", "resource " + uri), Props.string(props, P + "description"), Props.string(props, P + "mimeType")), resource);
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof ResourceEntry r && r.resource == resource && r.descriptor.equals(descriptor);
    }

    @Override
    public int hashCode() {
        return descriptor.hashCode();
    }
}
