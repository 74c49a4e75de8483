package io.quiver.core.internal.catalog;

import io.quiver.api.resource.ResourceTemplate;
import io.quiver.core.internal.messages.TemplateDescriptor;
import java.util.Map;

/** A resource template: its listing descriptor, matcher and service. */
public record TemplateEntry(String uriTemplate, TemplateDescriptor descriptor, UriTemplate matcher,
        ResourceTemplate template) {

    static final String P = "mcp.template.";

    static TemplateEntry from(ResourceTemplate template, Map<String, Object> props) {
        String uriTemplate = Props.string(props, P + "uriTemplate");
        String name = Props.string(props, P + "name");
        if (uriTemplate == null || name == null) {
            throw new IllegalArgumentException("a resource template service needs " + P + "uriTemplate and " + P + "name");
        }
        return new TemplateEntry(uriTemplate, new TemplateDescriptor(uriTemplate, name, Props.string(props, P + "title"),
                Icons.of(props, P + "icons", "resource template " + uriTemplate), Props.string(props, P + "description"), Props.string(props, P + "mimeType")),
                new UriTemplate(uriTemplate), template);
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
