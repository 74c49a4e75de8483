package io.quiver.tools.conformance.internal;

import io.quiver.api.content.ResourceContents;
import io.quiver.api.resource.McpResource;
import io.quiver.api.resource.Resource;
import io.quiver.api.resource.ResourceRequest;
import java.util.List;
import org.osgi.service.component.annotations.Component;

/** A fixed binary resource: the 1x1 PNG. */
@Component(service = Resource.class)
@McpResource(uri = StaticBinaryResource.URI, name = "static-binary", title = "Static Binary Resource",
        description = "A static binary resource (image) for testing", mimeType = Fixtures.PNG)
public final class StaticBinaryResource implements Resource {

    static final String URI = "test://static-binary";

    @Override
    public List<ResourceContents> read(ResourceRequest request) {
        return List.of(new ResourceContents.Blob(URI, Fixtures.PNG, Fixtures.PNG_BASE64));
    }
}
