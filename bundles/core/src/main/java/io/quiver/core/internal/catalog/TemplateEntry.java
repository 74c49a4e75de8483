package io.quiver.core.internal.catalog;

import io.quiver.api.resource.ResourceTemplate;
import io.quiver.core.internal.json.Json;
import java.util.Map;
import tools.jackson.databind.node.ObjectNode;

/** A resource template: its listing descriptor, matcher and service. */
public record TemplateEntry(String uriTemplate, ObjectNode descriptor, UriTemplate matcher, ResourceTemplate template) {

    static final String P = "mcp.template.";

    static TemplateEntry from(ResourceTemplate template, Map<String, Object> props) {
        String uriTemplate = Props.string(props, P + "uriTemplate");
        String name = Props.string(props, P + "name");
        if (uriTemplate == null || name == null) {
            throw new IllegalArgumentException("a resource template service needs " + P + "uriTemplate and " + P + "name");
        }
        ObjectNode d = Json.MAPPER.createObjectNode();
        d.put("uriTemplate", uriTemplate);
        d.put("name", name);
        ToolEntry.putIfPresent(d, "title", Props.string(props, P + "title"));
        ToolEntry.putIfPresent(d, "description", Props.string(props, P + "description"));
        ToolEntry.putIfPresent(d, "mimeType", Props.string(props, P + "mimeType"));
        return new TemplateEntry(uriTemplate, d, new UriTemplate(uriTemplate), template);
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof TemplateEntry t && t.template == template && t.descriptor.equals(descriptor);
    }

    @Override
    public int hashCode() {
        return descriptor.hashCode();
    }
}
