package io.quiver.api.content;

import java.util.Map;

/**
 * A resource's contents embedded in a result or message.
 *
 * @param resource the contents
 * @param annotations hints for the client, or {@code null}
 * @param meta the block's {@code _meta} (empty for none; the contents have their own)
 */
public record EmbeddedResource(ResourceContents resource, Annotations annotations, Map<String, Object> meta)
        implements Content {

    public EmbeddedResource(ResourceContents resource) {
        this(resource, null, null);
    }

    public EmbeddedResource(ResourceContents resource, Annotations annotations) {
        this(resource, annotations, null);
    }

    public EmbeddedResource {
        meta = Meta.copy(meta);
    }

    @Override
    public String type() {
        return "resource";
    }
}
