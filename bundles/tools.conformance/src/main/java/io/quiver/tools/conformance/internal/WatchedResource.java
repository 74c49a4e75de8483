package io.quiver.tools.conformance.internal;

import io.quiver.api.content.ResourceContents;
import io.quiver.api.resource.McpResource;
import io.quiver.api.resource.Resource;
import io.quiver.api.resource.ResourceRequest;
import java.util.List;
import org.osgi.service.component.annotations.Component;

/** The resource the suite subscribes to and unsubscribes from. Its contents never change. */
@Component(service = Resource.class)
@McpResource(uri = WatchedResource.URI, name = "watched-resource", title = "Watched Resource",
        description = "A resource clients can subscribe to for update notifications", mimeType = Fixtures.TEXT)
public final class WatchedResource implements Resource {

    static final String URI = "test://watched-resource";
    static final String TEXT = "Watched resource content";

    @Override
    public List<ResourceContents> read(ResourceRequest request) {
        return List.of(new ResourceContents.Text(URI, Fixtures.TEXT, TEXT));
    }
}
