package io.quiver.api.content;

import java.util.Map;

/**
 * A link to a resource the client may read.
 *
 * @param uri the resource's URI
 * @param name its name
 * @param title a title for people, or {@code null}
 * @param description what it holds, or {@code null}
 * @param mimeType its MIME type, or {@code null}
 * @param size its size in bytes, or {@code null}
 * @param annotations hints for the client, or {@code null}
 * @param meta the block's {@code _meta} (empty for none)
 */
public record ResourceLink(String uri, String name, String title, String description, String mimeType, Long size,
        Annotations annotations, Map<String, Object> meta) implements Content {

    public ResourceLink(String uri, String name, String mimeType) {
        this(uri, name, null, null, mimeType, null, null, null);
    }

    public ResourceLink(String uri, String name, String title, String description, String mimeType, Long size,
            Annotations annotations) {
        this(uri, name, title, description, mimeType, size, annotations, null);
    }

    public ResourceLink {
        meta = Meta.copy(meta);
    }

    @Override
    public String type() {
        return "resource_link";
    }
}
