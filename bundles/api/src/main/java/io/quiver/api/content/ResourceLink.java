package io.quiver.api.content;

import java.util.List;
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
 * @param icons icons a client may show for it (empty for none)
 */
public record ResourceLink(String uri, String name, String title, String description, String mimeType, Long size,
        Annotations annotations, Map<String, Object> meta, List<Icon> icons) implements Content {

    public ResourceLink(String uri, String name, String mimeType) {
        this(uri, name, null, null, mimeType, null, null, null, null);
    }

    public ResourceLink(String uri, String name, String title, String description, String mimeType, Long size,
            Annotations annotations) {
        this(uri, name, title, description, mimeType, size, annotations, null, null);
    }

    public ResourceLink(String uri, String name, String title, String description, String mimeType, Long size,
            Annotations annotations, Map<String, Object> meta) {
        this(uri, name, title, description, mimeType, size, annotations, meta, null);
    }

    public ResourceLink {
        meta = Meta.copy(meta);
        icons = icons == null ? List.of() : List.copyOf(icons);
    }

    @Override
    public String type() {
        return "resource_link";
    }
}
