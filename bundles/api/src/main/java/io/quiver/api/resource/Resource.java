package io.quiver.api.resource;

import io.quiver.api.content.ResourceContents;
import java.util.List;
import org.osgi.annotation.versioning.ConsumerType;

/** A resource with a fixed URI. Register it as a service carrying the {@link McpResource} properties. */
@ConsumerType
@FunctionalInterface
public interface Resource {

    /** Reads the resource's current contents. */
    List<ResourceContents> read(ResourceRequest request) throws Exception;
    // A read that needs the user's input first throws io.quiver.api.input.InputNeeded and finds the
    // answers in ResourceRequest.answers() when it is called again.
}
