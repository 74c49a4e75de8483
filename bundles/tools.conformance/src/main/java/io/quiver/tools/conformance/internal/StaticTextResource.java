package io.quiver.tools.conformance.internal;

import io.quiver.api.content.ResourceContents;
import io.quiver.api.resource.McpResource;
import io.quiver.api.resource.Resource;
import io.quiver.api.resource.ResourceRequest;
import java.util.List;
import org.osgi.service.component.annotations.Component;

/** A fixed text resource. */
@Component(service = Resource.class)
@McpResource(uri = StaticTextResource.URI, name = "static-text", title = "Static Text Resource",
        description = "A static text resource for testing", mimeType = Fixtures.TEXT)
public final class StaticTextResource implements Resource {

    static final String URI = "test://static-text";
    static final String TEXT = "This is the content of the static text resource.";

    @Override
    public List<ResourceContents> read(ResourceRequest request) {
        return List.of(new ResourceContents.Text(URI, Fixtures.TEXT, TEXT));
    }
}
