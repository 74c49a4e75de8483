package io.quiver.core.internal.catalog;

import io.quiver.api.resource.Resource;
import io.quiver.core.internal.json.Json;
import java.util.Map;
import tools.jackson.databind.node.ObjectNode;

/** A fixed resource: its listing descriptor and service. */
public record ResourceEntry(String uri, ObjectNode descriptor, Resource resource) {

    static final String P = "mcp.resource.";

    static ResourceEntry from(Resource resource, Map<String, Object> props) {
        String uri = Props.string(props, P + "uri");
        String name = Props.string(props, P + "name");
        if (uri == null || name == null) {
            throw new IllegalArgumentException("a resource service needs " + P + "uri and " + P + "name");
        }
        ObjectNode d = Json.MAPPER.createObjectNode();
        d.put("uri", uri);
        d.put("name", name);
        ToolEntry.putIfPresent(d, "title", Props.string(props, P + "title"));
        ToolEntry.putIfPresent(d, "description", Props.string(props, P + "description"));
        ToolEntry.putIfPresent(d, "mimeType", Props.string(props, P + "mimeType"));
        return new ResourceEntry(uri, d, resource);
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
