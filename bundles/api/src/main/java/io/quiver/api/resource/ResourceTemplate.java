package io.quiver.api.resource;

import io.quiver.api.content.ResourceContents;
import java.util.List;
import org.osgi.annotation.versioning.ConsumerType;

/**
 * A family of resources named by an RFC 6570 level-1 URI template ({@code test://item/{id}}).
 * Register it as a service carrying the {@link McpResourceTemplate} properties.
 */
@ConsumerType
@FunctionalInterface
public interface ResourceTemplate {

    /**
     * Reads one resource of the family; {@link ResourceRequest#variables()} holds the values.
     *
     * @return the contents, or an empty list when no such resource exists
     */
    List<ResourceContents> read(ResourceRequest request) throws Exception;
    // A read that needs the user's input first throws io.quiver.api.input.InputNeeded and finds the
    // answers in ResourceRequest.answers() when it is called again.
}
